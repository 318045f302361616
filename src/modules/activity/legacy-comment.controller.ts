import { Body, Controller, Delete, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { ActivityService } from './activity.service';
import { LegacyCreateCommentDto, LegacyDeleteCommentDto, LegacyUpdateCommentDto } from './dto/comment.dto';
import { ActivityRecordSchema } from '../activity/activity.schema';

const TASK_IN_BODY = { kind: 'task', from: 'body', key: 'taskId' } as const;
const COMMENT_IN_BODY = { kind: 'comment', from: 'body', key: 'activityId' } as const;

/**
 * The original API's older comment routes, which one command-line client still calls
 * (docs/compatibility.md, "Older comment routes"): `{taskId, comment}`, `{activityId, comment}` and
 * `{activityId}` in the body, with the permissions, rules and answers of POST /comment/:taskId,
 * PUT and DELETE /comment/:id.
 */
@ApiTags('comment')
@ApiBearerAuth()
@Controller('activity/comment')
export class LegacyCommentController {
  constructor(private readonly activities: ActivityService) {}

  @Post()
  @ApiAnswer('Activity (the comment)', ActivityRecordSchema)
  @HttpCode(200)
  @RequirePermission('task', 'update', TASK_IN_BODY)
  @ApiOperation({ summary: 'Comment on a task (as POST /comment/{taskId}, the task in the body)' })
  @ApiErrors(
    [400, 'taskId is required', 'comment must be longer than or equal to 1 characters'],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Task not found'],
  )
  create(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Body() dto: LegacyCreateCommentDto) {
    return this.activities.addComment(scope.workspaceId, user, scope.resourceId, dto.comment);
  }

  @Put()
  @ApiAnswer('Activity (the comment)', ActivityRecordSchema)
  @RequirePermission('task', 'update', COMMENT_IN_BODY)
  @ApiOperation({ summary: 'Edit your own comment (as PUT /comment/{id}, the comment in the body; anyone else gets 404)' })
  @ApiErrors(
    [400, 'activityId is required', 'comment must be longer than or equal to 1 characters'],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Comment not found'],
  )
  update(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Body() dto: LegacyUpdateCommentDto) {
    return this.activities.editComment(scope.workspaceId, user, scope.resourceId, dto.comment);
  }

  @Delete()
  @ApiAnswer('Activity (the comment, as it was)', ActivityRecordSchema)
  @RequirePermission('task', 'update', COMMENT_IN_BODY)
  @ApiOperation({ summary: 'Delete your own comment (as DELETE /comment/{id}, the comment in the body; anyone else gets 404)' })
  @ApiErrors([400, 'activityId is required'], [403, 'Insufficient permissions', 'Insufficient API key scope'], [404, 'Comment not found'])
  remove(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Body() _dto: LegacyDeleteCommentDto) {
    return this.activities.deleteComment(scope.workspaceId, user, scope.resourceId);
  }
}
