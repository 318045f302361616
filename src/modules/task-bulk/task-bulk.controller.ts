import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyScopeCheckedByHandler } from '../../common/decorators/api-key-scope.decorator';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { Id } from '../../common/pipes/id.pipe';
import { BulkUpdateDto, ExportQuery, ImportTasksDto } from './dto/task-bulk.dto';
import { TaskBulkService } from './task-bulk.service';
import { TaskTransferService, TOO_MANY_IMPORT_LABELS } from './task-transfer.service';
import { LABEL_CATALOGUE_FULL } from '../label/label.service';
import { BulkAnswerSchema, ImportAnswerSchema, TaskExportSchema } from '../task-bulk/task-bulk.schema';

const PROJECT = { kind: 'project', from: 'params', key: 'projectId' } as const;

/** Routes on many tasks at once, beside TaskController's under `/task` (docs/compatibility.md). */
@ApiTags('task')
@ApiBearerAuth()
@Controller('task')
export class TaskBulkController {
  constructor(
    private readonly transfer: TaskTransferService,
    private readonly bulk: TaskBulkService,
  ) {}

  @Get('export/:projectId')
  @ApiAnswer('Task export', TaskExportSchema)
  @RequirePermission('task', 'read', PROJECT)
  @ApiOperation({
    summary:
      "The project's tasks as JSON, in board order, each with its labels (labels: null for an API key without the label:read scope); 1,000 tasks a page (what one import takes), ?page=2… for the rest, pagination says whether there is more",
  })
  export(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('projectId', Id('Project')) projectId: string, @Query() q: ExportQuery) {
    return this.transfer.export(scope.workspaceId, projectId, user, q.page ?? 1);
  }

  @Post('import/:projectId')
  @ApiAnswer('Import answer', ImportAnswerSchema)
  @HttpCode(200)
  @RequirePermission('task', 'create', PROJECT)
  @ApiOperation({
    summary:
      'Create up to 1,000 tasks in the project, each as a creation through the one write path (activity imported, event taskCreated), in one transaction; tasks that fail their checks are reported and the others imported. Each task counts as a request against RATE_LIMIT_API; at most 100 label names in all',
  })
  @ApiErrors(
    [400, 'tasks must contain no more than 1000 elements', 'each task must be an object', TOO_MANY_IMPORT_LABELS, LABEL_CATALOGUE_FULL],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Project not found'],
    [429, 'Too many requests'],
  )
  import(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('projectId', Id('Project')) projectId: string, @Body() dto: ImportTasksDto) {
    return this.transfer.import(scope, user, projectId, dto);
  }

  @Patch('bulk')
  @ApiAnswer('{success: true, updatedCount}', BulkAnswerSchema)
  @ApiKeyScopeCheckedByHandler()
  @ApiOperation({
    summary:
      'One operation on up to 500 tasks of one workspace, all or nothing. Needs, like the single routes: delete → task:delete, updateAssignee → task:assign, addLabel/removeLabel → label:update, else (moveToProject included) task:update (an API key needs that scope too); updatedCount counts the tasks that changed',
  })
  @ApiErrors(
    [
      400,
      'All tasks of a bulk update must be in one workspace',
      'value must be …',
      'Invalid status "…". Valid statuses for this project: …',
      'Assignee must be a member of this workspace',
      'Tasks can only be moved within the same workspace',
    ],
    [
      403,
      'Insufficient permissions: task:update is needed',
      'Insufficient permissions: task:assign is needed',
      'Insufficient permissions: label:update is needed',
      'Insufficient permissions: task:delete is needed',
      'Insufficient API key scope',
    ],
    [404, 'Task not found', 'Label not found', 'Project not found'],
  )
  update(@CurrentUser() user: AuthUser, @Body() dto: BulkUpdateDto) {
    return this.bulk.update(user, dto);
  }
}
