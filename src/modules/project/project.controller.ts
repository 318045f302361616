import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { Id } from '../../common/pipes/id.pipe';
import { CreateProjectDto, ListProjectsQuery, ReorderProjectsDto, UpdateProjectDto, WorkspaceQuery } from './dto/project.dto';
import { ProjectService } from './project.service';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { ProjectRecordSchema } from '../project/project.schema';

const PROJECT = { kind: 'project', from: 'params', key: 'id' } as const;

@ApiTags('project')
@ApiBearerAuth()
@Controller('project')
export class ProjectController {
  constructor(private readonly projects: ProjectService) {}

  @Get()
  @ApiAnswer('Project[] (by position)', [ProjectRecordSchema])
  @RequirePermission('project', 'read', { kind: 'workspace', from: 'query', key: 'workspaceId' })
  @ApiOperation({ summary: "The workspace's projects (archived ones only with includeArchived=true)" })
  list(@Scope() scope: ResolvedScope, @Query() q: ListProjectsQuery) {
    return this.projects.list(scope.workspaceId, q.includeArchived === 'true');
  }

  @Post()
  @ApiAnswer('Project', ProjectRecordSchema)
  @HttpCode(200)
  @RequirePermission('project', 'create', { kind: 'workspace', from: 'body', key: 'workspaceId' })
  @ApiOperation({ summary: 'Create a project with the four default columns' })
  create(@Scope() scope: ResolvedScope, @Body() dto: CreateProjectDto) {
    return this.projects.create(scope.workspaceId, dto);
  }

  // Before the `:id` routes, which would take "reorder" for an id.
  @Put('reorder')
  @ApiAnswer('Project[]: every project of the workspace, archived ones included, in the new order', [ProjectRecordSchema])
  @RequirePermission('project', 'update', { kind: 'workspace', from: 'query', key: 'workspaceId' })
  @ApiOperation({ summary: "Reorder the workspace's projects: the listed ones take their positions, then all are renumbered 0..n-1, in one transaction" })
  @ApiErrors(
    [400, 'Project <id> does not belong to this workspace', 'Project <id> is listed more than once', 'workspaceId is required'],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Workspace not found'],
  )
  reorder(@Scope() scope: ResolvedScope, @Query() _q: WorkspaceQuery, @Body() dto: ReorderProjectsDto) {
    return this.projects.reorder(scope.workspaceId, dto.projects);
  }

  @Get(':id')
  @ApiAnswer('Project', ProjectRecordSchema)
  @RequirePermission('project', 'read', PROJECT)
  get(@Scope() scope: ResolvedScope, @Param('id', Id('Project')) id: string) {
    return this.projects.get(scope.workspaceId, id);
  }

  @Put(':id/archive')
  @ApiAnswer('Project', ProjectRecordSchema)
  @RequirePermission('project', 'update', PROJECT)
  archive(@Scope() scope: ResolvedScope, @Param('id', Id('Project')) id: string) {
    return this.projects.archive(scope.workspaceId, id);
  }

  @Put(':id/unarchive')
  @ApiAnswer('Project', ProjectRecordSchema)
  @RequirePermission('project', 'update', PROJECT)
  unarchive(@Scope() scope: ResolvedScope, @Param('id', Id('Project')) id: string) {
    return this.projects.unarchive(scope.workspaceId, id);
  }

  @Put(':id')
  @ApiAnswer('Project', ProjectRecordSchema)
  @RequirePermission('project', 'update', PROJECT)
  update(@Scope() scope: ResolvedScope, @Param('id', Id('Project')) id: string, @Body() dto: UpdateProjectDto) {
    return this.projects.update(scope.workspaceId, id, dto);
  }

  @Delete(':id')
  @ApiAnswer('Project (as it was)', ProjectRecordSchema)
  @RequirePermission('project', 'delete', PROJECT)
  @ApiOperation({ summary: 'Delete a project with its columns, tasks and everything on them' })
  remove(@Scope() scope: ResolvedScope, @Param('id', Id('Project')) id: string) {
    return this.projects.remove(scope.workspaceId, id);
  }
}
