import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsWebUrl } from '../../../common/validation/is-web-url';
import { IsDefined, IsObject, IsOptional, IsString, Length, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsIdString, OptionalNotNull, trim } from '../../../common/validation/dto-helpers';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export class WorkspaceFieldsDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({ description: 'lower-case letters, digits and dashes' })
  @OptionalNotNull()
  @IsString()
  @Length(1, 60)
  @Matches(SLUG, { message: 'slug must contain only lower-case letters, digits and dashes' })
  slug?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @IsWebUrl('logo')
  logo?: string;

  @ApiPropertyOptional({ description: 'free-form string (often JSON)' })
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  metadata?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(5_000)
  description?: string;
}

export class CreateOrganizationDto extends OmitType(WorkspaceFieldsDto, ['name'] as const) {
  @ApiProperty()
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name: string;
}

export class UpdateOrganizationDto {
  @ApiProperty()
  @IsIdString()
  organizationId: string;

  @ApiProperty({ type: WorkspaceFieldsDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => WorkspaceFieldsDto)
  data: WorkspaceFieldsDto;
}

export class OrganizationIdDto {
  @ApiProperty()
  @IsIdString()
  organizationId: string;
}

export class OptionalOrganizationIdQuery {
  @ApiPropertyOptional()
  @IsOptional()
  @IsIdString()
  organizationId?: string;
}

/** Body field of the workspace-scoped operations; absent → the session's active organization. */
export class OptionalOrganizationIdBody {
  @ApiPropertyOptional({ description: "the workspace; default: the session's active organization" })
  @IsOptional()
  @IsIdString()
  organizationId?: string;
}

export class SetActiveOrganizationDto {
  @ApiProperty({ type: String, description: 'the workspace to make active (required: the permission check reads it)' })
  @IsOptional()
  @IsIdString()
  organizationId: string | null;
}
