import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { preparedRows, rows } from '../../database/sql';
import { watchingSql } from './task-watchers.sql';

/** Why someone watches a task; a person can have several reasons. */
export type WatchReason = 'creator' | 'assignee' | 'commenter' | 'mentioned' | 'watching';

/** A watcher as `GET /task/:id/watchers` lists them. */
export interface WatcherRow {
  user_id: string;
  name: string;
  image: string | null;
  reasons: WatchReason[];
}

/** Everyone who watches task $1, with why. */
const WATCHING_SQL = watchingSql('$1');

/**
 * A task's watchers (`task_watcher`, and the task's creator and assignee). The fan-out of task
 * events reads who watches through here and records who was mentioned; a comment's statement
 * records its author (TaskChangesRepository).
 */
@Injectable()
export class TaskWatchersRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The watchers of task `taskId` of the workspace who are members of it, by name. */
  list(workspaceId: string, taskId: string): Promise<WatcherRow[]> {
    return preparedRows<WatcherRow>(
      this.ds,
      'task_watchers_list',
      `SELECT w.user_id, u.name, u.image, w.reasons FROM (${WATCHING_SQL}) w
         JOIN "user" u ON u.id = w.user_id
         JOIN member mb ON mb.organization_id = $2 AND mb.user_id = w.user_id
        WHERE EXISTS (SELECT 1 FROM task WHERE id = $1 AND workspace_id = $2)
        ORDER BY lower(u.name), u.id`,
      [taskId, workspaceId],
    );
  }

  /** The ids of everyone watching each of the tasks, by task id (members or not: the fan-out checks membership as it notifies); one statement. */
  async watchingMany(taskIds: readonly string[]): Promise<Map<string, string[]>> {
    if (!taskIds.length) return new Map();
    const found = await preparedRows<{ task_id: string; user_id: string }>(
      this.ds,
      'task_watchers_of_many',
      `SELECT k.task_id::text, w.user_id::text FROM unnest($1::uuid[]) AS k(task_id) CROSS JOIN LATERAL (${watchingSql('k.task_id')}) w`,
      [[...new Set(taskIds.map((id) => id.toLowerCase()))]],
    );
    const out = new Map<string, string[]>();
    for (const r of found) out.set(r.task_id, [...(out.get(r.task_id) ?? []), r.user_id]);
    return out;
  }

  /** Sets whether `userId` watches the task (a choice of theirs: it overrides every other reason). false when the task is not one of the workspace. */
  async choose(workspaceId: string, taskId: string, userId: string, watching: boolean): Promise<boolean> {
    const done = await rows(
      this.ds.manager,
      `INSERT INTO task_watcher (task_id, user_id, workspace_id, watching, reason)
       SELECT t.id, $3, t.workspace_id, $4, $5 FROM task t WHERE t.id = $1 AND t.workspace_id = $2
       ON CONFLICT (task_id, user_id) DO UPDATE SET watching = EXCLUDED.watching, reason = EXCLUDED.reason, updated_at = now()
       RETURNING task_id`,
      [taskId, workspaceId, userId, watching, watching ? 'watching' : 'unwatched'],
    );
    return done.length > 0;
  }

  /** Records that `userIds` were mentioned in the task: they watch it from now on, unless they unwatched it. */
  async addMentioned(taskId: string, userIds: readonly string[]): Promise<void> {
    if (!userIds.length) return;
    await rows(
      this.ds.manager,
      `INSERT INTO task_watcher (task_id, user_id, workspace_id, watching, reason)
       SELECT t.id, u.id, t.workspace_id, true, 'mentioned' FROM task t CROSS JOIN unnest($2::uuid[]) AS u(id) WHERE t.id = $1
       ON CONFLICT (task_id, user_id) DO NOTHING`,
      [taskId, userIds],
    );
  }

  /**
   * Of (task, actor) pairs, the tasks with a watcher other than the actor, as far as one cheap
   * statement can tell (an unwatched creator may still count: the fan-out decides exactly): the
   * outbox relay keeps their events.
   */
  async watchedBesides(pairs: readonly { taskId: string; actorId: string | null }[], m: EntityManager = this.ds.manager): Promise<Set<string>> {
    if (!pairs.length) return new Set();
    const found = await preparedRows<{ task_id: string }>(
      m,
      'task_watched_besides',
      `SELECT DISTINCT k.task_id::text AS task_id FROM unnest($1::uuid[], $2::uuid[]) AS k(task_id, actor_id)
        WHERE EXISTS (SELECT 1 FROM task t WHERE t.id = k.task_id AND t.created_by_id IS NOT NULL AND t.created_by_id IS DISTINCT FROM k.actor_id)
           OR EXISTS (SELECT 1 FROM task_watcher w WHERE w.task_id = k.task_id AND w.watching AND w.user_id IS DISTINCT FROM k.actor_id)`,
      [pairs.map((p) => p.taskId), pairs.map((p) => p.actorId)],
    );
    return new Set(found.map((r) => r.task_id));
  }
}
