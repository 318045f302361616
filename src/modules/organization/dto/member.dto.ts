import { ApiProperty } from '@nestjs/swagger';
import { OptionalOrganizationIdBody } from './organization.dto';
import { IsRequiredString, IsRoleInput } from './validators';

export class UpdateMemberRoleDto extends OptionalOrganizationIdBody {
  @ApiProperty({
    description: 'a role, a comma list or an array of roles (static or custom)',
    example: 'admin',
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
  })
  @IsRoleInput()
  role: string | string[];

  @ApiProperty()
  @IsRequiredString()
  memberId: string;
}

export class RemoveMemberDto extends OptionalOrganizationIdBody {
  @ApiProperty({ description: 'a member id or the member’s email' })
  @IsRequiredString({ max: 254 })
  memberIdOrEmail: string;
}
