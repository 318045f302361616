import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { firstRow, isForeignKeyViolation, rows } from '../../database/sql';
import { ACTIVITY_FIELDS, ActivityDraft, ActivityRecord, ActivityRow, NewActivity, toActivityRecord } from './activity.record';

const COMMENT_NOT_FOUND = 'Comment not found';
const INSERT_COLUMNS = [
  'workspace_id',
  'task_id',
  'user_id',
  'type',
  'content',
  'event_data',
  'external_user_name',
  'external_user_avatar',
  'external_source',
  'external_url',
] as const;

/** The task's history: what changed, and the comments. */
@Injectable()
export class ActivityService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Writes activities in the caller's transaction, so a change and its history commit together;
   * created_at is the clock time of each row so several activities of one transaction keep their
   * order. Task creation, moves and comments come here; task field updates embed
   * insertForEachSql in their single statement instead. Anything that must accompany every task
   * change (an event outbox) belongs in both.
   */
  async record(m: EntityManager, entries: NewActivity[]): Promise<ActivityRecord[]> {
    if (!entries.length) return [];
    const params: unknown[] = [];
    const tuples = entries.map((e) => {
      const values = [
        e.workspaceId,
        e.taskId,
        e.userId,
        e.type,
        e.content ?? null,
        e.eventData ? JSON.stringify(e.eventData) : null,
        e.externalUserName ?? null,
        e.externalUserAvatar ?? null,
        e.externalSource ?? null,
        e.externalUrl ?? null,
      ];
      const placeholders = values.map((v) => (params.push(v), `$${params.length}`));
      return `(${placeholders.join(', ')}, clock_timestamp(), clock_timestamp())`;
    });
    const written = await rows<ActivityRow>(
      m,
      `INSERT INTO activity (${INSERT_COLUMNS.join(', ')}, created_at, updated_at) VALUES ${tuples.join(', ')} RETURNING ${ACTIVITY_FIELDS}`,
      params,
    );
    return written.map(toActivityRecord);
  }

  /**
   * `INSERT INTO activity … SELECT …` writing `drafts` by `userId` once for each row of `source`
   * (a CTE with the changed task's `id` and `workspace_id`), to embed in the WITH statement that
   * makes the change: no row changed, no activity. Appends its parameters to `params`.
   */
  insertForEachSql(source: string, userId: string, drafts: ActivityDraft[], params: unknown[]): string {
    params.push(
      userId,
      drafts.map((d) => d.type),
      drafts.map((d) => d.content),
      drafts.map((d) => JSON.stringify(d.eventData)),
    );
    const n = params.length;
    return `INSERT INTO activity (workspace_id, task_id, user_id, type, content, event_data, created_at, updated_at)
      SELECT s.workspace_id, s.id, $${n - 3}::uuid, d.type, d.content, d.event_data, clock_timestamp(), clock_timestamp()
        FROM ${source} s, unnest($${n - 2}::text[], $${n - 1}::text[], $${n}::jsonb[]) WITH ORDINALITY AS d(type, content, event_data, ord)
       ORDER BY d.ord`;
  }

  /** Comments oldest first. */
  async listComments(workspaceId: string, taskId: string): Promise<ActivityRecord[]> {
    const found = await rows<ActivityRow>(
      this.ds.manager,
      `SELECT ${ACTIVITY_FIELDS} FROM activity WHERE task_id = $1 AND workspace_id = $2 AND type = 'comment' ORDER BY created_at, id`,
      [taskId, workspaceId],
    );
    return found.map(toActivityRecord);
  }

  /** All activities, comments included, newest first. */
  async listActivities(workspaceId: string, taskId: string): Promise<ActivityRecord[]> {
    const found = await rows<ActivityRow>(
      this.ds.manager,
      `SELECT ${ACTIVITY_FIELDS} FROM activity WHERE task_id = $1 AND workspace_id = $2 ORDER BY created_at DESC, id DESC`,
      [taskId, workspaceId],
    );
    return found.map(toActivityRecord);
  }

  async addComment(workspaceId: string, user: AuthUser, taskId: string, content: string): Promise<ActivityRecord> {
    try {
      // A transaction although it is one row: record() is always called inside one, so whatever
      // else it writes with an activity commits with it.
      const [comment] = await this.ds.transaction((m) => this.record(m, [{ workspaceId, taskId, userId: user.id, type: 'comment', content }]));
      return comment;
    } catch (err) {
      // The task was deleted between the permission check and the insert.
      if (isForeignKeyViolation(err)) throw new NotFoundException('Task not found');
      throw err;
    }
  }

  /** Only the author may edit a comment; to anyone else it does not exist. */
  async editComment(workspaceId: string, user: AuthUser, id: string, content: string): Promise<ActivityRecord> {
    return this.writeOwnComment(`UPDATE activity SET content = $4, updated_at = now()`, workspaceId, user, id, [content]);
  }

  async deleteComment(workspaceId: string, user: AuthUser, id: string): Promise<ActivityRecord> {
    return this.writeOwnComment(`DELETE FROM activity`, workspaceId, user, id);
  }

  private async writeOwnComment(statement: string, workspaceId: string, user: AuthUser, id: string, params: unknown[] = []) {
    const row = await firstRow<ActivityRow>(
      this.ds.manager,
      `${statement} WHERE id = $1 AND workspace_id = $2 AND user_id = $3 AND type = 'comment' RETURNING ${ACTIVITY_FIELDS}`,
      [id, workspaceId, user.id, ...params],
    );
    if (!row) throw new NotFoundException(COMMENT_NOT_FOUND);
    return toActivityRecord(row);
  }
}
