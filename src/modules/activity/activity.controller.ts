import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { Id } from '../../common/pipes/id.pipe';
import { ActivityService } from './activity.service';
import { ApiAnswer } from '../../common/http/api-errors';
import { ActivityRecordSchema } from '../activity/activity.schema';

@ApiTags('activity')
@ApiBearerAuth()
@Controller('activity')
export class ActivityController {
  constructor(private readonly activities: ActivityService) {}

  @Get(':taskId')
  @ApiAnswer('Activity[] (newest first)', [ActivityRecordSchema])
  @RequirePermission('task', 'read', { kind: 'task', from: 'params', key: 'taskId' })
  @ApiOperation({ summary: "The task's history, comments included, newest first" })
  list(@Scope() scope: ResolvedScope, @Param('taskId', Id('Task')) taskId: string) {
    return this.activities.listActivities(scope.workspaceId, taskId);
  }
}
