import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { Id } from '../../common/pipes/id.pipe';
import { ApiKeyScope } from '../../common/decorators/api-key-scope.decorator';
import {
  CreateTaskDto,
  ListTasksQuery,
  MoveTaskDto,
  MyTasksQuery,
  ReorderTasksDto,
  TaskAssigneeDto,
  TaskDescriptionDto,
  TaskDueDateDto,
  TaskPriorityDto,
  TaskStatusDto,
  TaskTitleDto,
  UpdateTaskDto,
} from './dto/task.dto';
import { TaskService } from './task.service';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { EmptyAnswer } from '../../common/http/answers.schema';
import { CardDetailsSchema, MoveAnswerSchema, TaskPageSchema, TaskRecordSchema } from '../task/task.schema';
import { CardDetailsRepository } from './card-details.repository';

const PROJECT = { kind: 'project', from: 'params', key: 'projectId' } as const;
const TASK = { kind: 'task', from: 'params', key: 'id' } as const;
const TaskId = Id('Task');

@ApiTags('task')
@ApiBearerAuth()
@Controller('task')
export class TaskController {
  constructor(
    private readonly tasks: TaskService,
    private readonly cards: CardDetailsRepository,
  ) {}

  @Post(':projectId')
  @ApiAnswer('Task', TaskRecordSchema)
  @HttpCode(200)
  @RequirePermission('task', 'create', PROJECT)
  @ApiOperation({ summary: 'Create a task: next number of the project, end of its column (assigning needs task:assign)' })
  @ApiErrors([403, 'Insufficient permissions', 'Insufficient permissions: task:assign is needed', 'Insufficient API key scope'])
  create(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('projectId', Id('Project')) projectId: string, @Body() dto: CreateTaskDto) {
    return this.tasks.create(scope, user, projectId, dto);
  }

  @Get('mine')
  @ApiAnswer('Task page', TaskPageSchema)
  @ApiKeyScope('task', 'read')
  @ApiOperation({ summary: "A page of the tasks assigned to the caller, in one workspace or in every workspace where the caller may read tasks; the project list's filters" })
  @ApiErrors(
    [400, 'Label … not found in this workspace', 'dueBefore must be a valid ISO 8601 date string', 'workspaceId must be a UUID'],
    [403, 'Insufficient permissions: task:read is needed', 'Insufficient API key scope'],
    [404, 'Workspace not found'],
  )
  mine(@CurrentUser() user: AuthUser, @Query() q: MyTasksQuery) {
    return this.tasks.mine(user, q);
  }

  @Get('tasks/:projectId')
  @ApiAnswer('Task page', TaskPageSchema)
  @RequirePermission('task', 'read', PROJECT)
  @ApiOperation({ summary: "A page of the project's tasks, filtered (all filters combined with AND) and sorted" })
  @ApiErrors(
    [
      400,
      'Invalid status "…". Valid statuses for this project: …',
      'Label … not found in this workspace',
      'assigneeId must be a user id or none',
      'assigneeId and userId name different assignees: give one',
      'dueBefore must be a valid ISO 8601 date string',
    ],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Project not found'],
  )
  list(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Query() q: ListTasksQuery) {
    return this.tasks.list(scope.workspaceId, projectId, q);
  }

  @Get('card-details/:projectId')
  @ApiAnswer('Card details[] (one per task but the archived, in board order)', [CardDetailsSchema])
  @RequirePermission('task', 'read', PROJECT)
  @ApiOperation({ summary: "What the board's cards show beside each task: its labels, comment count, subtask progress and open blockers" })
  cardDetails(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
    return this.cards.ofProject(scope.workspaceId, projectId);
  }

  @Put('reorder/:projectId')
  @ApiAnswer('{}', EmptyAnswer)
  @RequirePermission('task', 'update', PROJECT)
  @ApiOperation({ summary: "Set the order of one column's tasks (positions 0, 1, 2, … as listed; all or nothing); answers {}" })
  @ApiErrors(
    [400, 'Task … is not in column … of this project', 'Task … is listed more than once', 'each of taskIds must be a task id'],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Project not found'],
  )
  reorder(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: ReorderTasksDto) {
    return this.tasks.reorder(scope.workspaceId, projectId, dto.status, dto.taskIds);
  }

  @Put('move/:id')
  @ApiAnswer('Move answer', MoveAnswerSchema)
  @RequirePermission('task', 'update', TASK)
  @ApiOperation({ summary: 'Move a task to another project of the same workspace' })
  @ApiErrors(
    [
      400,
      'Tasks can only be moved within the same workspace',
      'Task is already in that project',
      'Selected status is not valid for the destination project',
      'destinationProjectId must be a string',
    ],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Task not found', 'Project not found'],
  )
  move(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', TaskId) id: string, @Body() dto: MoveTaskDto) {
    return this.tasks.move(scope, user, id, dto);
  }

  @Put('status/:id')
  @ApiAnswer('Task', TaskRecordSchema)
  @RequirePermission('task', 'update', TASK)
  status(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', TaskId) id: string, @Body() dto: TaskStatusDto) {
    return this.tasks.update(scope, user, id, { status: dto.status });
  }

  @Put('priority/:id')
  @ApiAnswer('Task', TaskRecordSchema)
  @RequirePermission('task', 'update', TASK)
  priority(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', TaskId) id: string, @Body() dto: TaskPriorityDto) {
    return this.tasks.update(scope, user, id, { priority: dto.priority });
  }

  @Put('title/:id')
  @ApiAnswer('Task', TaskRecordSchema)
  @RequirePermission('task', 'update', TASK)
  title(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', TaskId) id: string, @Body() dto: TaskTitleDto) {
    return this.tasks.update(scope, user, id, { title: dto.title });
  }

  @Put('description/:id')
  @ApiAnswer('Task', TaskRecordSchema)
  @RequirePermission('task', 'update', TASK)
  description(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', TaskId) id: string, @Body() dto: TaskDescriptionDto) {
    return this.tasks.update(scope, user, id, { description: dto.description });
  }

  @Put('assignee/:id')
  @ApiAnswer('Task', TaskRecordSchema)
  @RequirePermission('task', 'assign', TASK)
  @ApiOperation({ summary: 'Assign the task to a workspace member, or unassign it with null' })
  assignee(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', TaskId) id: string, @Body() dto: TaskAssigneeDto) {
    return this.tasks.update(scope, user, id, { userId: dto.userId });
  }

  @Put('due-date/:id')
  @ApiAnswer('Task', TaskRecordSchema)
  @ApiOperation({ summary: 'Set the due date; null, "" or no dueDate clears it' })
  @RequirePermission('task', 'update', TASK)
  dueDate(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', TaskId) id: string, @Body() dto: TaskDueDateDto) {
    return this.tasks.update(scope, user, id, { dueDate: dto.dueDate ?? null });
  }

  @Get(':id')
  @ApiAnswer('Task', TaskRecordSchema)
  @RequirePermission('task', 'read', TASK)
  get(@Scope() scope: ResolvedScope, @Param('id', TaskId) id: string) {
    return this.tasks.get(scope.workspaceId, id);
  }

  @Put(':id')
  @ApiAnswer('Task', TaskRecordSchema)
  @RequirePermission('task', 'update', TASK)
  @ApiOperation({ summary: 'Update several fields; changing the assignee also needs task:assign; projectId, when sent, must be the current project' })
  @ApiErrors(
    [400, 'Use PUT /task/move/{id} to move a task to another project', 'Invalid status "…". Valid statuses for this project: …', 'Assignee must be a member of this workspace'],
    [403, 'Insufficient permissions', 'Insufficient permissions: task:assign is needed', 'Insufficient API key scope'],
    [404, 'Task not found'],
  )
  update(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', TaskId) id: string, @Body() dto: UpdateTaskDto) {
    return this.tasks.update(scope, user, id, dto);
  }

  @Delete(':id')
  @ApiAnswer('Task (as it was)', TaskRecordSchema)
  @RequirePermission('task', 'delete', TASK)
  remove(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', TaskId) id: string) {
    return this.tasks.remove(scope.workspaceId, id, user.id);
  }
}
