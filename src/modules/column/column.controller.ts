import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { Id } from '../../common/pipes/id.pipe';
import { ColumnService } from './column.service';
import { CreateColumnDto, ReorderColumnsDto, UpdateColumnDto } from './dto/column.dto';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { EmptyAnswer } from '../../common/http/answers.schema';
import { ColumnRecordSchema } from '../column/column.schema';

const PROJECT = { kind: 'project', from: 'params', key: 'projectId' } as const;
const COLUMN = { kind: 'column', from: 'params', key: 'id' } as const;

@ApiTags('column')
@ApiBearerAuth()
@Controller('column')
export class ColumnController {
  constructor(private readonly columns: ColumnService) {}

  // Declared before the ':id' routes so 'reorder' is never taken for a column id.
  @Put('reorder/:projectId')
  @ApiAnswer('{}', EmptyAnswer)
  @RequirePermission('project', 'update', PROJECT)
  @ApiOperation({ summary: 'Set the positions of several columns at once (all or nothing); answers {}' })
  @ApiErrors(
    [400, 'Column … does not belong to this project', 'Column … is listed more than once', 'columns must be an array'],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Project not found'],
  )
  reorder(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: ReorderColumnsDto) {
    return this.columns.reorder(scope.workspaceId, projectId, dto.columns);
  }

  @Get(':projectId')
  @ApiAnswer('Column[] (board order)', [ColumnRecordSchema])
  @RequirePermission('project', 'read', PROJECT)
  @ApiOperation({ summary: "The project's columns by position" })
  list(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
    return this.columns.list(scope.workspaceId, projectId);
  }

  @Post(':projectId')
  @ApiAnswer('Column', ColumnRecordSchema)
  @HttpCode(200)
  @RequirePermission('project', 'update', PROJECT)
  @ApiOperation({ summary: 'Add a column at the end; its slug comes from the name' })
  @ApiErrors(
    [400, 'name must contain a letter or digit'],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Project not found'],
    [409, 'Column slug "…" already exists in this project', 'Column slug "…" is reserved'],
  )
  create(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: CreateColumnDto) {
    return this.columns.create(scope.workspaceId, projectId, dto);
  }

  @Put(':id')
  @ApiAnswer('Column', ColumnRecordSchema)
  @RequirePermission('project', 'update', COLUMN)
  update(@Scope() scope: ResolvedScope, @Param('id', Id('Column')) id: string, @Body() dto: UpdateColumnDto) {
    return this.columns.update(scope.workspaceId, id, dto);
  }

  @Delete(':id')
  @ApiAnswer('Column (as it was)', ColumnRecordSchema)
  @RequirePermission('project', 'update', COLUMN)
  @ApiOperation({ summary: 'Delete an empty column (409 while it holds tasks)' })
  @ApiErrors(
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Column not found'],
    [409, 'Column still holds tasks; move them first', 'A project needs at least one column'],
  )
  remove(@Scope() scope: ResolvedScope, @Param('id', Id('Column')) id: string) {
    return this.columns.remove(scope.workspaceId, id);
  }
}
