import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Due-date reminders (docs/notifications.md, "Due dates"):
 * - people choose whether they get them and how long before (default: yes, a day); a generic
 *   webhook chooses its lead time too;
 * - `task.due_date_set_at` says when the due date was last set (a trigger keeps it, whatever
 *   writes the task), so a due date set inside a reminder's lead time is told at once;
 * - `reminder_sent` is the ledger that makes each reminder go out once per (task, due date, kind,
 *   recipient), whatever the number of workers and restarts;
 * - `reminder_clock` is how far the scan has come: the next scan starts there, so a worker down
 *   for a while catches up, and tasks that were due before this migration tell nobody.
 */
export class DueDateReminders1763783100000 implements MigrationInterface {
  name = 'DueDateReminders1763783100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notification_preference
      ADD COLUMN due_date_reminder_enabled boolean NOT NULL DEFAULT true,
      ADD COLUMN due_date_reminder_lead_minutes integer NOT NULL DEFAULT 1440 CHECK (due_date_reminder_lead_minutes BETWEEN 0 AND 43200)`);
    await q.query(`ALTER TABLE integration
      ADD COLUMN due_date_reminder_lead_minutes integer NOT NULL DEFAULT 1440 CHECK (due_date_reminder_lead_minutes BETWEEN 0 AND 43200)`);
    await q.query(`ALTER TABLE task ADD COLUMN due_date_set_at timestamptz`);
    await q.query(`CREATE FUNCTION task_due_date_set() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.due_date_set_at := CASE WHEN NEW.due_date IS NULL THEN NULL ELSE now() END;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER task_due_date_set_on_insert BEFORE INSERT ON task FOR EACH ROW WHEN (NEW.due_date IS NOT NULL) EXECUTE FUNCTION task_due_date_set()`);
    await q.query(
      `CREATE TRIGGER task_due_date_set_on_update BEFORE UPDATE OF due_date ON task FOR EACH ROW WHEN (OLD.due_date IS DISTINCT FROM NEW.due_date) EXECUTE FUNCTION task_due_date_set()`,
    );
    await q.query(`CREATE INDEX task_due_date_idx ON task (due_date) WHERE due_date IS NOT NULL`);
    await q.query(`CREATE INDEX task_due_date_set_idx ON task (due_date_set_at) WHERE due_date_set_at IS NOT NULL`);
    await q.query(`CREATE TABLE reminder_sent (
      task_id uuid NOT NULL REFERENCES task(id) ON DELETE CASCADE,
      due_date timestamptz NOT NULL,
      kind text NOT NULL CHECK (kind IN ('reminder', 'overdue')),
      recipient_type text NOT NULL CHECK (recipient_type IN ('user', 'integration')),
      recipient_id uuid NOT NULL,
      workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
      event_id uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (task_id, due_date, kind, recipient_type, recipient_id)
    )`);
    await q.query(`CREATE INDEX reminder_sent_workspace_idx ON reminder_sent (workspace_id)`);
    await q.query(`CREATE TABLE reminder_clock (id integer PRIMARY KEY CHECK (id = 1), scanned_to timestamptz NOT NULL)`);
    await q.query(`INSERT INTO reminder_clock (id, scanned_to) VALUES (1, now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE reminder_clock`);
    await q.query(`DROP TABLE reminder_sent`);
    await q.query(`DROP INDEX task_due_date_set_idx`);
    await q.query(`DROP INDEX task_due_date_idx`);
    await q.query(`DROP TRIGGER task_due_date_set_on_update ON task`);
    await q.query(`DROP TRIGGER task_due_date_set_on_insert ON task`);
    await q.query(`DROP FUNCTION task_due_date_set()`);
    await q.query(`ALTER TABLE task DROP COLUMN due_date_set_at`);
    await q.query(`ALTER TABLE integration DROP COLUMN due_date_reminder_lead_minutes`);
    await q.query(`ALTER TABLE notification_preference DROP COLUMN due_date_reminder_enabled, DROP COLUMN due_date_reminder_lead_minutes`);
  }
}
