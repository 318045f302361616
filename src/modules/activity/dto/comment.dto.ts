import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Length } from 'class-validator';
import { IsIdString, trim } from '../../../common/validation/dto-helpers';

export class CommentDto {
  @ApiProperty()
  @Transform(trim)
  @IsString()
  @Length(1, 20_000)
  content: string;
}

/**
 * The comment text of the original's older routes, which the client sends as `comment` (the
 * /comment routes' `content`), with the same rules.
 */
class LegacyCommentTextDto {
  @ApiProperty({ description: 'the comment text (what the /comment routes call content)' })
  @Transform(trim)
  @IsString()
  @Length(1, 20_000)
  comment: string;
}

/** `POST /activity/comment`, the original's older comment route: the task in the body. */
export class LegacyCreateCommentDto extends LegacyCommentTextDto {
  @ApiProperty({ description: 'the task to comment on' })
  @IsIdString()
  taskId: string;
}

/** `PUT /activity/comment`: the comment (an activity of type comment) in the body. */
export class LegacyUpdateCommentDto extends LegacyCommentTextDto {
  @ApiProperty({ description: 'the comment to edit (your own)' })
  @IsIdString()
  activityId: string;
}

/** `DELETE /activity/comment`: the comment in the body. */
export class LegacyDeleteCommentDto {
  @ApiProperty({ description: 'the comment to delete (your own)' })
  @IsIdString()
  activityId: string;
}
