import { IsIdString } from '../../../common/validation/dto-helpers';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { toNormalizedEmail } from '../../../common/validation/email';
import { OptionalOrganizationIdBody } from './organization.dto';
import { IsRequiredString, IsRoleInput } from './validators';

export class InviteMemberDto extends OptionalOrganizationIdBody {
  @ApiProperty({ example: 'bob@example.com' })
  @Transform(toNormalizedEmail)
  @IsRequiredString({ max: 254, email: true })
  email: string;

  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'admin, member, owner, viewer or a custom role; a comma list or an array for several',
    example: 'member',
  })
  @IsRoleInput()
  role: string | string[];

  @ApiPropertyOptional({ description: 'a team of the workspace the member joins on accepting' })
  @IsOptional()
  @IsIdString()
  teamId?: string;

  @ApiPropertyOptional({ description: 'with a pending invitation: extend it and send the email again' })
  @IsOptional()
  @IsBoolean()
  resend?: boolean;
}

export class InvitationIdDto {
  @ApiProperty()
  @IsRequiredString()
  invitationId: string;
}
