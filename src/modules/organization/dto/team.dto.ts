import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { OptionalNotNull, trim } from '../../../common/validation/dto-helpers';
import { OptionalOrganizationIdBody, OptionalOrganizationIdQuery } from './organization.dto';
import { IsRequiredObject, IsRequiredString } from './validators';

export class CreateTeamDto extends OptionalOrganizationIdBody {
  @ApiProperty({ example: 'Design' })
  @Transform(trim)
  @IsRequiredString({ max: 100 })
  name: string;
}

/** The spec lets clients send the whole team back; only `name` is written, the rest is ignored. */
export class TeamDataDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @Transform(trim)
  @IsRequiredString({ max: 100 })
  name?: string;

  @ApiPropertyOptional({ description: 'ignored' }) @IsOptional() @IsString() @MaxLength(100) id?: string;
  @ApiPropertyOptional({ description: 'ignored' }) @IsOptional() @IsString() @MaxLength(100) organizationId?: string;
  @ApiPropertyOptional({ description: 'ignored' }) @IsOptional() @IsString() @MaxLength(100) createdAt?: string;
  @ApiPropertyOptional({ description: 'ignored' }) @IsOptional() @IsString() @MaxLength(100) updatedAt?: string;
}

export class UpdateTeamDto {
  @ApiProperty()
  @IsRequiredString()
  teamId: string;

  @ApiProperty({ type: TeamDataDto })
  @IsRequiredObject()
  @ValidateNested()
  @Type(() => TeamDataDto)
  data: TeamDataDto;
}

export class TeamIdDto extends OptionalOrganizationIdBody {
  @ApiProperty()
  @IsRequiredString()
  teamId: string;
}

export class TeamMemberDto extends TeamIdDto {
  @ApiProperty()
  @IsRequiredString()
  userId: string;
}

export class TeamMembersQuery extends OptionalOrganizationIdQuery {
  @ApiProperty()
  @IsRequiredString()
  teamId: string;
}
