import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DEFAULT_REMINDER_LEAD_MINUTES } from '../../common/validation/reminder-lead-time';
import { firstRow } from '../../database/sql';
import { reminderEventsSql } from '../task/task-events.sql';
import { watchingSql } from '../task/task-watchers.sql';

/**
 * How far back of the clock each scan looks again, so that a change committed late (a transaction
 * that began before the last scan's clock reading) is not missed; the ledger makes the overlap free.
 */
const OVERLAP = `interval '10 minutes'`;
const DEFAULT_LEAD = DEFAULT_REMINDER_LEAD_MINUTES;
const WANTS_REMINDERS = `i.events @> '{"dueDateReminder": true}'::jsonb`;
/** The project's final columns, and archived tasks, are finished: no reminder, no overdue notice. */
const OPEN = (t: string) => `${t}.status <> 'archived' AND NOT EXISTS (SELECT 1 FROM board_column c WHERE c.project_id = ${t}.project_id AND c.slug = ${t}.status AND c.is_final)`;
/** A moment of the task row `x` (its due date less `lead` minutes) that falls in the scan, or a due date set during it whose moment has come. */
const FALLS = (x: string, moment: string) => `${moment} <= clock.until AND (${moment} > clock.since OR ${x}.due_date_set_at > clock.since)`;

/**
 * One scan in ONE statement (docs/notifications.md, "Due dates"), under the clock row's lock (a
 * scan that finds it locked does nothing: another worker is scanning):
 * 1. `clock`: from where the last scan ended (less OVERLAP) to now.
 * 2. `cand`: tasks whose due date, less one of the lead times in use (people's, webhooks', 0 for
 *    the overdue notice), falls in that span, read by range on `task_due_date_idx`; and tasks whose
 *    due date was set during it (`task_due_date_set_idx`). Only open tasks.
 * 3. Their recipients: each watcher (the assignee among them) who is a member and wants reminders,
 *    with their lead time; each active integration of the project with `dueDateReminder` on.
 * 4. Those whose moment came: a person's reminder while the task is not yet due, their overdue
 *    notice once it is; an integration's reminder before the due date (or at it, lead time 0).
 * 5. The ledger rows (task, due date, kind, recipient), each written once (ON CONFLICT DO NOTHING),
 *    and one outbox event per task, kind and recipient type for the rows actually written; then the
 *    clock moves on. All of it commits together or not at all (a worker killed mid-scan leaves
 *    nothing, and the next scan does it).
 */
const SCAN_SQL = `
  WITH clock AS (
    SELECT scanned_to - ${OVERLAP} AS since, now() AS until FROM reminder_clock WHERE id = 1 FOR UPDATE SKIP LOCKED
  ), leads AS (
    SELECT DISTINCT due_date_reminder_lead_minutes AS lead FROM notification_preference WHERE due_date_reminder_enabled
    UNION SELECT ${DEFAULT_LEAD} UNION SELECT 0
    UNION SELECT DISTINCT i.due_date_reminder_lead_minutes FROM integration i WHERE i.is_active AND ${WANTS_REMINDERS}
  ), cand AS (
    SELECT t.id FROM clock CROSS JOIN leads l
      JOIN task t ON t.due_date > clock.since + l.lead * interval '1 minute' AND t.due_date <= clock.until + l.lead * interval '1 minute'
    UNION
    SELECT t.id FROM clock JOIN task t ON t.due_date_set_at > clock.since AND t.due_date IS NOT NULL
  ), open_task AS (
    SELECT t.id, t.workspace_id, t.project_id, t.due_date, t.due_date_set_at FROM cand JOIN task t ON t.id = cand.id
     WHERE t.due_date IS NOT NULL AND ${OPEN('t')}
  ), person AS (
    SELECT o.*, w.user_id AS recipient_id, COALESCE(np.due_date_reminder_lead_minutes, ${DEFAULT_LEAD}) AS lead
      FROM open_task o
      CROSS JOIN LATERAL (${watchingSql('o.id')}) w
      JOIN member mb ON mb.organization_id = o.workspace_id AND mb.user_id = w.user_id
      LEFT JOIN notification_preference np ON np.user_id = w.user_id
     WHERE COALESCE(np.due_date_reminder_enabled, true)
  ), hook AS (
    SELECT o.*, i.id AS recipient_id, i.due_date_reminder_lead_minutes AS lead
      FROM open_task o JOIN integration i ON i.project_id = o.project_id AND i.workspace_id = o.workspace_id AND i.is_active AND ${WANTS_REMINDERS}
  ), due AS (
    SELECT p.id AS task_id, p.workspace_id, p.due_date, 'reminder' AS kind, 'user' AS recipient_type, p.recipient_id FROM clock, person p
     WHERE p.lead > 0 AND p.due_date > clock.until AND ${FALLS('p', `p.due_date - p.lead * interval '1 minute'`)}
    UNION ALL
    SELECT p.id, p.workspace_id, p.due_date, 'overdue', 'user', p.recipient_id FROM clock, person p WHERE ${FALLS('p', 'p.due_date')}
    UNION ALL
    SELECT h.id, h.workspace_id, h.due_date, 'reminder', 'integration', h.recipient_id FROM clock, hook h
     WHERE (h.lead = 0 OR h.due_date > clock.until) AND ${FALLS('h', `h.due_date - h.lead * interval '1 minute'`)}
  ), grouped AS (
    SELECT g.*, gen_random_uuid() AS event_id FROM (SELECT DISTINCT task_id, kind, recipient_type FROM due) g
  ), fired AS (
    INSERT INTO reminder_sent (task_id, due_date, kind, recipient_type, recipient_id, workspace_id, event_id)
    SELECT d.task_id, d.due_date, d.kind, d.recipient_type, d.recipient_id, d.workspace_id, g.event_id
      FROM due d JOIN grouped g USING (task_id, kind, recipient_type)
    ON CONFLICT DO NOTHING
    RETURNING task_id, due_date, kind, recipient_type, recipient_id, event_id
  ), events AS (${reminderEventsSql('fired')}
  ), advanced AS (
    UPDATE reminder_clock SET scanned_to = clock.until FROM clock WHERE reminder_clock.id = 1 RETURNING 1
  )
  SELECT (SELECT count(*)::int FROM fired) AS fired, EXISTS (SELECT 1 FROM advanced) AS scanned`;

/**
 * The reminder scan and its ledger (`reminder_sent`, `reminder_clock`; docs/notifications.md,
 * "Due dates"). The statement reads the tasks, their columns and watchers, the members, people's
 * preferences and the integrations, and writes the reminder events into the outbox with the
 * ledger rows: eslint.config.js declares each.
 */
@Injectable()
export class ReminderRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** One scan (SCAN_SQL): how many reminders it sent, and whether it ran (false: another worker was scanning). */
  async scan(): Promise<{ fired: number; scanned: boolean }> {
    return (await firstRow<{ fired: number; scanned: boolean }>(this.ds.manager, SCAN_SQL, []))!;
  }
}
