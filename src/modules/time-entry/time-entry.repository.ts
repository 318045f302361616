import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, rows } from '../../database/sql';
import { OutboxSignal } from '../../queue/outbox-signal';
import { timeEntryEventSql } from '../task/task-events.sql';
import { TIME_ENTRY_FIELDS, TimeEntryRow } from './time-entry.record';

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
   * outbox: docs/notifications.md), so the entry and its event commit together. A foreign key
   * violation when the task no longer exists.
   */
  async insert(workspaceId: string, taskId: string, authorId: string, fields: TimeEntryFields): Promise<TimeEntryRow> {
    const row = await firstRow<TimeEntryRow>(
      this.ds.manager,
      `WITH entry AS (
         INSERT INTO time_entry (workspace_id, task_id, user_id, description, start_time, end_time, duration)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${TIME_ENTRY_FIELDS}
       ), events AS (${timeEntryEventSql('entry')})
       SELECT * FROM entry`,
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

  findInWorkspace(workspaceId: string, id: string, opts: { lock?: boolean } = {}, m: EntityManager = this.ds.manager): Promise<TimeEntryRow | undefined> {
    return firstRow<TimeEntryRow>(m, `SELECT ${TIME_ENTRY_FIELDS} FROM time_entry WHERE id = $1 AND workspace_id = $2 ${opts.lock ? 'FOR NO KEY UPDATE' : ''}`, [id, workspaceId]);
  }

  update(workspaceId: string, id: string, fields: TimeEntryFields, m: EntityManager): Promise<TimeEntryRow | undefined> {
    return firstRow<TimeEntryRow>(
      m,
      `UPDATE time_entry SET start_time = $3, end_time = $4, duration = $5, description = $6, updated_at = now()
        WHERE id = $1 AND workspace_id = $2 RETURNING ${TIME_ENTRY_FIELDS}`,
      [id, workspaceId, fields.startTime, fields.endTime, fields.duration, fields.description],
    );
  }

  delete(workspaceId: string, id: string): Promise<TimeEntryRow | undefined> {
    return firstRow<TimeEntryRow>(this.ds.manager, `DELETE FROM time_entry WHERE id = $1 AND workspace_id = $2 RETURNING ${TIME_ENTRY_FIELDS}`, [id, workspaceId]);
  }
}
