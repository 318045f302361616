import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { IsIdString, OptionalNotNull, OptionalNullable, trim } from '../../../common/validation/dto-helpers';
import { PROJECT_KEY, PROJECT_KEY_MESSAGE } from '../project-key';

/** Slugs are stored in Unicode NFC, so that one key typed two ways is one key. */
const nfc = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.normalize('NFC') : value);

export class UpdateProjectDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({
    example: 'API',
    description: 'the task key: 1-64 letters (any script) or digits, dashes and underscores inside; unique in the workspace (case-insensitive)',
  })
  @Transform(nfc)
  @OptionalNotNull()
  @IsString()
  @Matches(PROJECT_KEY, { message: PROJECT_KEY_MESSAGE })
  slug?: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @OptionalNullable()
  @IsString()
  @MaxLength(100)
  icon?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
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
  @IsIdString()
  workspaceId: string;
}

export class ListProjectsQuery {
  @ApiProperty()
  @IsIdString()
  workspaceId: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'archived projects are hidden unless true' })
  @IsOptional()
  @IsIn(['true', 'false'])
  includeArchived?: 'true' | 'false';
}

export class WorkspaceQuery {
  @ApiProperty()
  @IsIdString()
  workspaceId: string;
}

export class ProjectPositionDto {
  @ApiProperty()
  @IsString()
  @MaxLength(100)
  id: string;

  @ApiProperty({ minimum: 0 })
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  position: number;
}

export class ReorderProjectsDto {
  @ApiProperty({ type: [ProjectPositionDto], description: 'projects not listed keep their place; positions are then renumbered 0..n-1' })
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => ProjectPositionDto)
  projects: ProjectPositionDto[];
}
