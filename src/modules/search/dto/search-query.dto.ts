import { IsIdString } from '../../../common/validation/dto-helpers';
import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

export const SEARCH_TYPES = ['all', 'tasks', 'projects', 'workspaces', 'comments', 'activities'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value);

export class SearchQueryDto {
  @ApiProperty({ minLength: 1, description: 'Text to find (case-insensitive substring; % _ \\ are literal). KEY-12 also finds task 12 of project KEY.' })
  @IsString({ message: 'q must be a string' })
  @MinLength(1, { message: 'q must be at least 1 character' })
  @MaxLength(200, { message: 'q must be at most 200 characters' })
  q: string;

  @ApiPropertyOptional({ enum: SEARCH_TYPES, default: 'all' })
  @IsOptional()
  @IsIn(SEARCH_TYPES, { message: `type must be one of: ${SEARCH_TYPES.join(', ')}` })
  type?: SearchType;

  @ApiPropertyOptional({ minimum: 1, maximum: 50, default: 20 })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'Limit must be an integer' })
  @Min(1, { message: 'Limit must be at least 1' })
  @Max(50, { message: 'Limit must not exceed 50' })
  limit?: number;

  @ApiPropertyOptional({ description: 'Only this workspace' })
  @IsOptional()
  @IsIdString()
  workspaceId?: string;

  @ApiPropertyOptional({ description: 'Only this project' })
  @IsOptional()
  @IsIdString()
  projectId?: string;
}
