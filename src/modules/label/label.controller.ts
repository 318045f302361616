import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { Id } from '../../common/pipes/id.pipe';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { INSUFFICIENT_PERMISSIONS } from '../../common/permissions/permissions';
import { assertMayDo } from '../../common/permissions/may';
import { CreateLabelDto, DetachLabelDto, LabelTaskDto, UpdateLabelDto } from './dto/label.dto';
import { LabelService } from './label.service';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { LabelRecordSchema, LabelTasksSchema } from '../label/label.schema';

const LABEL = { kind: 'label', from: 'params', key: 'id' } as const;
const LabelId = Id('Label');

@ApiTags('label')
@ApiBearerAuth()
@Controller('label')
export class LabelController {
  constructor(private readonly labels: LabelService) {}

  @Post()
  @ApiAnswer("Label (the catalogue label, or with taskId the task's copy)", LabelRecordSchema)
  @HttpCode(200)
  @RequirePermission('label', 'create', { kind: 'workspace', from: 'body', key: 'workspaceId' })
  @ApiOperation({ summary: 'Create a catalogue label (idempotent per name); with taskId also attach it and answer the task copy, which needs label:update too' })
  @ApiErrors([403, 'Insufficient permissions', 'Insufficient API key scope'])
  create(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Body() dto: CreateLabelDto) {
    if (dto.taskId !== undefined) mayAttach(scope, user);
    return this.labels.create(scope.workspaceId, dto, user.id);
  }

  @Get('workspace/:workspaceId')
  @ApiAnswer('Label[] (the catalogue, by name)', [LabelRecordSchema])
  @RequirePermission('label', 'read', { kind: 'workspace', from: 'params', key: 'workspaceId' })
  @ApiOperation({ summary: "The workspace's label catalogue" })
  listWorkspace(@Scope() scope: ResolvedScope, @Param('workspaceId', Id('Workspace')) _workspaceId: string) {
    return this.labels.listWorkspace(scope.workspaceId);
  }

  @Get('task/:taskId')
  @ApiAnswer("Label[] (the task's copies, by name)", [LabelRecordSchema])
  @RequirePermission('label', 'read', { kind: 'task', from: 'params', key: 'taskId' })
  @ApiOperation({ summary: "The task's labels" })
  listTask(@Scope() scope: ResolvedScope, @Param('taskId', Id('Task')) taskId: string) {
    return this.labels.listTask(scope.workspaceId, taskId);
  }

  @Put(':id/task')
  @ApiAnswer("Label (the task's copy)", LabelRecordSchema)
  @RequirePermission('label', 'update', LABEL)
  @ApiOperation({ summary: 'Attach the label to a task (idempotent); answers the task copy' })
  attach(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', LabelId) id: string, @Body() dto: LabelTaskDto) {
    return this.labels.attach(scope.workspaceId, id, dto.taskId, user.id);
  }

  @Delete(':id/task')
  @ApiAnswer('Label (the removed copy)', LabelRecordSchema)
  @RequirePermission('label', 'update', LABEL)
  @ApiOperation({ summary: "Detach the label from a task; answers the removed copy. Without taskId (or without a body) the id must be the task's own copy" })
  @ApiErrors(
    [400, 'taskId is required to detach a workspace label'],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Label not found', 'Task not found', 'Label is not attached to this task'],
  )
  detach(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', LabelId) id: string, @Body() dto: DetachLabelDto) {
    return this.labels.detach(scope.workspaceId, id, dto.taskId, user.id);
  }

  @Get(':id/tasks')
  @ApiAnswer('{taskIds}', LabelTasksSchema)
  @RequirePermission('label', 'read', LABEL)
  @ApiOperation({ summary: 'The tasks that carry the label (for filtering a list by label); task ids only' })
  @ApiErrors([403, 'Insufficient permissions', 'Insufficient API key scope'], [404, 'Label not found'])
  tasks(@Scope() scope: ResolvedScope, @Param('id', LabelId) id: string) {
    return this.labels.tasksCarrying(scope.workspaceId, id);
  }

  @Get(':id')
  @ApiAnswer('Label', LabelRecordSchema)
  @RequirePermission('label', 'read', LABEL)
  get(@Scope() scope: ResolvedScope, @Param('id', LabelId) id: string) {
    return this.labels.get(scope.workspaceId, id);
  }

  @Put(':id')
  @ApiAnswer('Label', LabelRecordSchema)
  @RequirePermission('label', 'update', LABEL)
  @ApiOperation({ summary: 'Rename/recolor; a catalogue label carries the change to its task copies' })
  @ApiErrors(
    [400, 'color must be a hex color like #RRGGBB or one of gray, dark-gray, purple, teal, green, yellow, orange, pink, red', 'name must be …'],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Label not found'],
    [409, 'A label named "…" already exists'],
  )
  update(@Scope() scope: ResolvedScope, @Param('id', LabelId) id: string, @Body() dto: UpdateLabelDto) {
    return this.labels.update(scope.workspaceId, id, dto);
  }

  @Delete(':id')
  @ApiAnswer('Label (as it was)', LabelRecordSchema)
  @RequirePermission('label', 'delete', LABEL)
  remove(@Scope() scope: ResolvedScope, @Param('id', LabelId) id: string) {
    return this.labels.remove(scope.workspaceId, id);
  }
}

/** Attaching a label to a task needs label:update, as on every other attach path (docs/decisions-local.md, "Roles and permissions"). */
function mayAttach(scope: ResolvedScope, user: AuthUser): void {
  assertMayDo(scope, user, 'label', 'update', INSUFFICIENT_PERMISSIONS);
}
