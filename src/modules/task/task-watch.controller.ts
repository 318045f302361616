import { Controller, Delete, Get, HttpCode, NotFoundException, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProperty, ApiSchema, ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { ApiAnswer } from '../../common/http/api-errors';
import { FlagProp, IdProp, TextProp } from '../../common/http/schema-props';
import { Id } from '../../common/pipes/id.pipe';
import { TaskWatchersRepository, WatchReason, WatcherRow } from './task-watchers.repository';

const TASK = { kind: 'task', from: 'params', key: 'id' } as const;
const TaskId = Id('Task');
const REASONS: WatchReason[] = ['assignee', 'commenter', 'creator', 'mentioned', 'watching'];

@ApiSchema({ name: 'TaskWatcher' })
class WatcherSchema {
  @IdProp() userId: string;
  @TextProp() name: string;
  @TextProp({ nullable: true }) image: string | null;
  @ApiProperty({ type: [String], enum: REASONS, description: 'why they watch: creator, assignee, commenter, mentioned, watching (chose to)' }) reasons: WatchReason[];
}

@ApiSchema({ name: 'TaskWatchers' })
class WatchersSchema {
  @FlagProp({ description: 'whether the caller watches the task' }) watching: boolean;
  @ApiProperty({ type: [WatcherSchema], description: 'members watching the task, by name' }) watchers: WatcherSchema[];
}

/** What the three routes answer: the caller's state and everyone watching. */
export interface WatchersAnswer {
  watching: boolean;
  watchers: { userId: string; name: string; image: string | null; reasons: WatchReason[] }[];
}

const answer = (rows: WatcherRow[], callerId: string): WatchersAnswer => ({
  watching: rows.some((r) => r.user_id === callerId),
  watchers: rows.map((r) => ({ userId: r.user_id, name: r.name, image: r.image, reasons: r.reasons })),
});

/**
 * A task's watchers (docs/notifications.md, "Watchers"): anyone who may read the task can watch it
 * or stop watching it, for themself only; unwatching sticks (a later comment or mention does not
 * make them watch again; watching again does).
 */
@ApiTags('task')
@ApiBearerAuth()
@Controller('task')
export class TaskWatchController {
  constructor(private readonly watchers: TaskWatchersRepository) {}

  @Get(':id/watchers')
  @ApiAnswer('Watchers', WatchersSchema)
  @RequirePermission('task', 'read', TASK)
  @ApiOperation({ summary: "The task's watchers (creator, assignee, commenters, people mentioned, and who chose to watch; minus who unwatched) and whether the caller is one" })
  async list(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', TaskId) id: string): Promise<WatchersAnswer> {
    return answer(await this.watchers.list(scope.workspaceId, id), user.id);
  }

  @Post(':id/watch')
  @HttpCode(200)
  @ApiAnswer('Watchers', WatchersSchema)
  @RequirePermission('task', 'read', TASK)
  @ApiOperation({ summary: 'Watch the task: hear of its changes as its assignee does' })
  watch(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', TaskId) id: string): Promise<WatchersAnswer> {
    return this.choose(scope, user, id, true);
  }

  @Delete(':id/watch')
  @ApiAnswer('Watchers', WatchersSchema)
  @RequirePermission('task', 'read', TASK)
  @ApiOperation({ summary: 'Stop watching the task, for good: commenting on it or being mentioned in it later does not make the caller watch it again' })
  unwatch(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', TaskId) id: string): Promise<WatchersAnswer> {
    return this.choose(scope, user, id, false);
  }

  private async choose(scope: ResolvedScope, user: AuthUser, id: string, watching: boolean): Promise<WatchersAnswer> {
    // The task was deleted between the permission check and the write.
    if (!(await this.watchers.choose(scope.workspaceId, id, user.id, watching))) throw new NotFoundException('Task not found');
    return answer(await this.watchers.list(scope.workspaceId, id), user.id);
  }
}
