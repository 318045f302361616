import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsString, Length, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { OptionalNotNull, OptionalNullable, trim } from '../../../common/validation/dto-helpers';

export class UpdateColumnDto {
  @ApiPropertyOptional({ description: 'renaming keeps the slug, so tasks keep their status' })
  @OptionalNotNull()
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'check-circle' })
  @OptionalNullable()
  @IsString()
  @MaxLength(100)
  icon?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '#22c55e' })
  @OptionalNullable()
  @IsString()
  @MaxLength(32)
  color?: string | null;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  isFinal?: boolean;
}

export class CreateColumnDto extends OmitType(UpdateColumnDto, ['name'] as const) {
  @ApiProperty({ example: 'Ready for QA', description: 'the slug (the status value) is derived from it' })
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name: string;
}

export class ColumnPositionDto {
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

export class ReorderColumnsDto {
  @ApiProperty({ type: [ColumnPositionDto] })
  @IsArray()
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => ColumnPositionDto)
  columns: ColumnPositionDto[];
}
