import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { OptionalNotNull, trim } from '../../../common/validation/dto-helpers';

const COLOR = /^#[0-9A-Fa-f]{6}$/;
const COLOR_MESSAGE = 'color must be a hex color like #RRGGBB';

export class UpdateLabelDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({ example: '#EF4444' })
  @OptionalNotNull()
  @IsString()
  @Matches(COLOR, { message: COLOR_MESSAGE })
  color?: string;
}

export class CreateLabelDto {
  @ApiProperty()
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ example: '#EF4444' })
  @IsString()
  @Matches(COLOR, { message: COLOR_MESSAGE })
  color: string;

  @ApiProperty()
  @IsString()
  workspaceId: string;

  @ApiPropertyOptional({ description: 'also attach the label to this task' })
  @IsOptional()
  @IsString()
  taskId?: string;
}

export class LabelTaskDto {
  @ApiProperty()
  @IsString()
  taskId: string;
}
