import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { Id } from '../../common/pipes/id.pipe';
import { ActivityService } from './activity.service';
import { CommentDto } from './dto/comment.dto';
import { ApiAnswer } from '../../common/http/api-errors';
import { ActivityRecordSchema } from '../activity/activity.schema';

const TASK = { kind: 'task', from: 'params', key: 'taskId' } as const;
const COMMENT = { kind: 'comment', from: 'params', key: 'id' } as const;

@ApiTags('comment')
@ApiBearerAuth()
@Controller('comment')
export class CommentController {
  constructor(private readonly activities: ActivityService) {}

  @Get(':taskId')
  @ApiAnswer('Activity[] of type comment (oldest first)', [ActivityRecordSchema])
  @RequirePermission('task', 'read', TASK)
  @ApiOperation({ summary: "The task's comments, oldest first" })
  list(@Scope() scope: ResolvedScope, @Param('taskId', Id('Task')) taskId: string) {
    return this.activities.listComments(scope.workspaceId, taskId);
  }

  @Post(':taskId')
  @ApiAnswer('Activity (the comment)', ActivityRecordSchema)
  @HttpCode(200)
  @RequirePermission('task', 'update', TASK)
  create(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('taskId', Id('Task')) taskId: string, @Body() dto: CommentDto) {
    return this.activities.addComment(scope.workspaceId, user, taskId, dto.content);
  }

  @Put(':id')
  @ApiAnswer('Activity (the comment)', ActivityRecordSchema)
  @RequirePermission('task', 'update', COMMENT)
  @ApiOperation({ summary: 'Edit your own comment (anyone else gets 404)' })
  update(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', Id('Comment')) id: string, @Body() dto: CommentDto) {
    return this.activities.editComment(scope.workspaceId, user, id, dto.content);
  }

  @Delete(':id')
  @ApiAnswer('Activity (the comment, as it was)', ActivityRecordSchema)
  @RequirePermission('task', 'update', COMMENT)
  @ApiOperation({ summary: 'Delete your own comment (anyone else gets 404)' })
  remove(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', Id('Comment')) id: string) {
    return this.activities.deleteComment(scope.workspaceId, user, id);
  }
}
