import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { Id } from '../../common/pipes/id.pipe';
import { CreateTaskRelationDto } from './dto/task-relation.dto';
import { TaskRelationService } from './task-relation.service';
import { TaskRelationListItemSchema, TaskRelationRecordSchema } from '../task-relation/task-relation.schema';

@ApiTags('task-relation')
@ApiBearerAuth()
@Controller('task-relation')
export class TaskRelationController {
  constructor(private readonly relations: TaskRelationService) {}

  @Post()
  @ApiAnswer('Task relation', TaskRelationRecordSchema)
  @HttpCode(200)
  @RequirePermission('task', 'update', { kind: 'task', from: 'body', key: 'sourceTaskId' })
  @ApiOperation({ summary: 'Relate two tasks of one workspace: subtask, blocks or related' })
  @ApiErrors(
    [400, 'A task cannot be related to itself', 'relationType must be one of the following values: subtask, blocks, related', 'sourceTaskId is required'],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Task not found'],
    [409, 'These tasks already have a <type> relation'],
  )
  create(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Body() dto: CreateTaskRelationDto) {
    return this.relations.create(scope.workspaceId, user, dto);
  }

  @Get('project/:projectId')
  @ApiAnswer('Task relation[] (oldest first)', [TaskRelationRecordSchema])
  @RequirePermission('task', 'read', { kind: 'project', from: 'params', key: 'projectId' })
  @ApiOperation({ summary: 'The relations with either end in the project (for drawing them between its tasks), oldest first' })
  @ApiErrors([403, 'Insufficient permissions', 'Insufficient API key scope'], [404, 'Project not found'])
  listOfProject(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
    return this.relations.listOfProject(scope.workspaceId, projectId);
  }

  @Get(':taskId')
  @ApiAnswer('Task relation list item[] (oldest first)', [TaskRelationListItemSchema])
  @RequirePermission('task', 'read', { kind: 'task', from: 'params', key: 'taskId' })
  @ApiOperation({
    summary: "The relations the task is either end of, each with both tasks (assigneeName: null for an API key without the workspace:read scope, which governs people's names)",
  })
  list(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('taskId', Id('Task')) taskId: string) {
    return this.relations.listOfTask(scope.workspaceId, taskId, user);
  }

  @Delete(':id')
  @ApiAnswer('Task relation (as it was)', TaskRelationRecordSchema)
  @RequirePermission('task', 'update', { kind: 'task-relation', from: 'params', key: 'id' })
  @ApiErrors([403, 'Insufficient permissions', 'Insufficient API key scope'], [404, 'Task relation not found'])
  remove(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', Id('Task relation')) id: string) {
    return this.relations.remove(scope.workspaceId, id, user.id);
  }
}
