import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Length } from 'class-validator';
import { trim } from '../../../common/validation/dto-helpers';

export class CommentDto {
  @ApiProperty()
  @Transform(trim)
  @IsString()
  @Length(1, 20_000)
  content: string;
}
