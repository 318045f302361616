import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { Id } from '../../common/pipes/id.pipe';
import { CreateTimeEntryDto, UpdateTimeEntryDto } from './dto/time-entry.dto';
import { TimeEntryService } from './time-entry.service';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { TimeEntryRecordSchema } from '../time-entry/time-entry.schema';

const ENTRY = { kind: 'time-entry', from: 'params', key: 'id' } as const;
const EntryId = Id('Time entry');

/** Time tracking is task data: reading needs task:read, writing task:update. */
@ApiTags('time-entry')
@ApiBearerAuth()
@Controller('time-entry')
export class TimeEntryController {
  constructor(private readonly entries: TimeEntryService) {}

  @Post()
  @ApiAnswer('Time entry', TimeEntryRecordSchema)
  @HttpCode(200)
  @RequirePermission('task', 'update', { kind: 'task', from: 'body', key: 'taskId' })
  @ApiOperation({ summary: 'Record time on a task (no endTime = a running timer)' })
  create(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Body() dto: CreateTimeEntryDto) {
    return this.entries.create(scope.workspaceId, user, dto);
  }

  @Get('task/:taskId')
  @ApiAnswer('Time entry[] (by start time)', [TimeEntryRecordSchema])
  @RequirePermission('task', 'read', { kind: 'task', from: 'params', key: 'taskId' })
  listTask(@Scope() scope: ResolvedScope, @Param('taskId', Id('Task')) taskId: string) {
    return this.entries.listTask(scope.workspaceId, taskId);
  }

  @Get(':id')
  @ApiAnswer('Time entry', TimeEntryRecordSchema)
  @RequirePermission('task', 'read', ENTRY)
  get(@Scope() scope: ResolvedScope, @Param('id', EntryId) id: string) {
    return this.entries.get(scope.workspaceId, id);
  }

  @Put(':id')
  @ApiAnswer('Time entry', TimeEntryRecordSchema)
  @RequirePermission('task', 'update', ENTRY)
  @ApiOperation({ summary: 'Replace start, end (null: a running timer) and description; duration is recomputed in seconds' })
  @ApiErrors(
    [400, 'Start time cannot be after end time', 'startTime must be a valid ISO 8601 date string'],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Time entry not found'],
  )
  update(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', EntryId) id: string, @Body() dto: UpdateTimeEntryDto) {
    return this.entries.update(scope.workspaceId, id, dto, user.id);
  }

  @Delete(':id')
  @ApiAnswer('Time entry (as it was)', TimeEntryRecordSchema)
  @RequirePermission('task', 'update', ENTRY)
  remove(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', EntryId) id: string) {
    return this.entries.remove(scope.workspaceId, id, user.id);
  }
}
