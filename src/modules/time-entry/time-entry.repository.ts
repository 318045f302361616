import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { firstRow, preparedRows, rows } from '../../database/sql';
import { OutboxSignal } from '../../queue/outbox-signal';
import { timeEntryEventSql } from '../task/task-events.sql';
import { historySql, NO_EXTERNAL } from '../activity/activity-history.sql';
import { TIME_ENTRY_FIELDS, TimeEntryRow } from './time-entry.record';

/**
 * The history row of a time entry added, edited or deleted (the row of CTE `e`), on its task in
 * workspace `workspaceSql` by `actorSql`; eventData carries the entry as it is after the change
 * (as it was, for a deletion) and, for an edit, `oldDuration` from CTE `old`.
 */
const entryHistory = (type: 'time_entry_added' | 'time_entry_edited' | 'time_entry_deleted', content: string, workspaceSql: string, actorSql: string) => {
  const oldDuration = type === 'time_entry_edited' ? `, 'oldDuration', (SELECT duration FROM old)` : '';
  return `history AS (${historySql(
    `SELECT ${workspaceSql} AS workspace_id, e.task_id, 1 AS ord, '${type}'::text AS type, '${content}'::text AS content,
            jsonb_build_object('timeEntryId', e.id, 'startTime', e.start_time, 'endTime', e.end_time, 'duration', e.duration${oldDuration}) AS event_data,
            ${NO_EXTERNAL} FROM e`,
    actorSql,
  )})`;
};
import { MAX_DURATION_SECONDS } from './time-span';

/** The permission guard's way from a time entry id to its workspace (ScopeRegistry kind `time-entry`). */
export const TIME_ENTRY_SCOPE_SQL = 'SELECT workspace_id FROM time_entry WHERE id = $1';

export interface TimeEntryFields {
  description: string | null;
  startTime: Date;
  endTime: Date | null;
  /** Whole seconds from start to end; 0 while running. */
  duration: number;
}

@Injectable()
export class TimeEntryRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly outbox: OutboxSignal,
  ) {}

  /**
   * Inserts the entry and, in the same statement, its task event (`timeEntryCreated` through the
   * outbox: docs/notifications.md) and its history row (`time_entry_added`), so the entry, its
   * event and its history commit together. A foreign key
   * violation when the task no longer exists.
   */
  async insert(workspaceId: string, taskId: string, authorId: string, fields: TimeEntryFields): Promise<TimeEntryRow> {
    const row = await firstRow<TimeEntryRow>(
      this.ds.manager,
      `WITH e AS (
         INSERT INTO time_entry (workspace_id, task_id, user_id, description, start_time, end_time, duration)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${TIME_ENTRY_FIELDS}
       ), events AS (${timeEntryEventSql('e')}), ${entryHistory('time_entry_added', 'logged time', '$1::uuid', '$3::uuid')}
       SELECT * FROM e`,
      [workspaceId, taskId, authorId, fields.description, fields.startTime, fields.endTime, fields.duration],
    );
    // Auto-committed: the event is in; wake the relay.
    this.outbox.afterCommit(this.ds.manager);
    return row as TimeEntryRow;
  }

  /** A task's entries by start time. */
  listForTask(workspaceId: string, taskId: string): Promise<TimeEntryRow[]> {
    return rows<TimeEntryRow>(this.ds.manager, `SELECT ${TIME_ENTRY_FIELDS} FROM time_entry WHERE task_id = $1 AND workspace_id = $2 ORDER BY start_time, id`, [
      taskId,
      workspaceId,
    ]);
  }

  findInWorkspace(workspaceId: string, id: string): Promise<TimeEntryRow | undefined> {
    return firstRow<TimeEntryRow>(this.ds.manager, `SELECT ${TIME_ENTRY_FIELDS} FROM time_entry WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]);
  }

  /**
   * One auto-committed statement: applies the given fields (undefined = keep; `endTime: null` clears
   * it) to the entry and recomputes its duration from the resulting times, only when the result is
   * valid (no start after the end, at most MAX_DURATION_SECONDS). Answers the row as it is now, or
   * undefined when the entry is not in the workspace or the result would be invalid (the caller
   * tells which with findInWorkspace). A named prepared statement: it is the hot path of
   * `PUT /time-entry/:id` (docs/benchmarks.md).
   */
  updateIfValid(
    workspaceId: string,
    id: string,
    fields: { startTime?: Date; endTime?: Date | null; description?: string | null },
    actorId: string | null = null,
  ): Promise<TimeEntryRow | undefined> {
    const end = `(CASE WHEN $5 THEN $6::timestamptz ELSE end_time END)`;
    const start = `COALESCE($3::timestamptz, start_time)`;
    const seconds = `floor(extract(epoch FROM ${end} - ${start}))`;
    return preparedRows<TimeEntryRow>(
      this.ds,
      'time_entry_update',
      `WITH old AS (SELECT duration FROM time_entry WHERE id = $1 AND workspace_id = $2), e AS (
         UPDATE time_entry
            SET start_time = ${start}, end_time = ${end},
                duration = CASE WHEN ${end} IS NULL THEN 0 ELSE ${seconds}::int END,
                description = CASE WHEN $7 THEN $8::text ELSE description END, updated_at = now()
          WHERE id = $1 AND workspace_id = $2 AND (${end} IS NULL OR (${start} <= ${end} AND ${seconds} <= $4))
          RETURNING ${TIME_ENTRY_FIELDS}
       ), ${entryHistory('time_entry_edited', 'edited a time entry', '$2::uuid', '$9::uuid')}
       SELECT * FROM e`,
      [
        id,
        workspaceId,
        fields.startTime ?? null,
        MAX_DURATION_SECONDS,
        fields.endTime !== undefined,
        fields.endTime ?? null,
        fields.description !== undefined,
        fields.description ?? null,
        actorId,
      ],
    ).then((r) => r[0]);
  }

  /** Deletes the entry with its `time_entry_deleted` history row by `actorId`, in one statement. */
  delete(workspaceId: string, id: string, actorId: string | null = null): Promise<TimeEntryRow | undefined> {
    return firstRow<TimeEntryRow>(
      this.ds.manager,
      `WITH e AS (DELETE FROM time_entry WHERE id = $1 AND workspace_id = $2 RETURNING ${TIME_ENTRY_FIELDS}),
       ${entryHistory('time_entry_deleted', 'deleted a time entry', '$2::uuid', '$3::uuid')}
       SELECT * FROM e`,
      [id, workspaceId, actorId],
    );
  }
}
