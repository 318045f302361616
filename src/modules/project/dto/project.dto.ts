import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { OptionalNotNull, OptionalNullable, trim } from '../../../common/validation/dto-helpers';
import { PROJECT_KEY } from '../project-key';

const KEY_MESSAGE = 'slug must be 1-20 letters or digits (dashes and underscores allowed inside)';

export class UpdateProjectDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({ example: 'API', description: 'the task key; unique in the workspace (case-insensitive)' })
  @OptionalNotNull()
  @IsString()
  @Matches(PROJECT_KEY, { message: KEY_MESSAGE })
  slug?: string;

  @ApiPropertyOptional({ nullable: true })
  @OptionalNullable()
  @IsString()
  @MaxLength(100)
  icon?: string | null;

  @ApiPropertyOptional({ nullable: true })
  @OptionalNullable()
  @IsString()
  @MaxLength(10_000)
  description?: string | null;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  isPublic?: boolean;
}

export class CreateProjectDto extends OmitType(UpdateProjectDto, ['name'] as const) {
  @ApiProperty()
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty()
  @IsString()
  workspaceId: string;
}

export class ListProjectsQuery {
  @ApiProperty()
  @IsString()
  workspaceId: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'archived projects are hidden unless true' })
  @IsOptional()
  @IsIn(['true', 'false'])
  includeArchived?: 'true' | 'false';
}
