import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { IsIdString, OptionalNotNull, trim } from '../../../common/validation/dto-helpers';
import { LABEL_COLOR as COLOR, LABEL_COLOR_MESSAGE as COLOR_MESSAGE } from '../label-colors';

export class UpdateLabelDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({ example: '#EF4444', description: '#RRGGBB or a palette name (gray, dark-gray, purple, teal, green, yellow, orange, pink, red)' })
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

  @ApiProperty({ example: '#EF4444', description: '#RRGGBB or a palette name (gray, dark-gray, purple, teal, green, yellow, orange, pink, red)' })
  @IsString()
  @Matches(COLOR, { message: COLOR_MESSAGE })
  color: string;

  @ApiProperty()
  @IsIdString()
  workspaceId: string;

  @ApiPropertyOptional({ description: 'also attach the label to this task' })
  @IsOptional()
  @IsIdString()
  taskId?: string;
}

export class LabelTaskDto {
  @ApiProperty()
  @IsIdString()
  taskId: string;
}

export class DetachLabelDto {
  @ApiPropertyOptional({ description: "the task; may be left out (or the body with it) when the label id is the task's own copy" })
  @IsOptional()
  @IsIdString()
  taskId?: string;
}
