import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Columns and time entries carry their workspace, as tasks, labels and activities already do.
 * Each module's repository then scopes every statement by workspace on its own table, instead of
 * reading the project or task table of another module to find out. The value is copied from the
 * project (columns) or the task (time entries) and never changes: tasks and projects do not move
 * between workspaces.
 */
export class TenantColumns1763781000000 implements MigrationInterface {
  name = 'TenantColumns1763781000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE board_column ADD COLUMN workspace_id uuid`);
    await q.query(`UPDATE board_column c SET workspace_id = p.workspace_id FROM project p WHERE p.id = c.project_id`);
    await q.query(`ALTER TABLE board_column ALTER COLUMN workspace_id SET NOT NULL,
                     ADD CONSTRAINT board_column_workspace_fk FOREIGN KEY (workspace_id) REFERENCES workspace(id) ON DELETE CASCADE`);
    await q.query(`CREATE INDEX board_column_workspace_idx ON board_column (workspace_id)`);

    await q.query(`ALTER TABLE time_entry ADD COLUMN workspace_id uuid`);
    await q.query(`UPDATE time_entry e SET workspace_id = t.workspace_id FROM task t WHERE t.id = e.task_id`);
    await q.query(`ALTER TABLE time_entry ALTER COLUMN workspace_id SET NOT NULL,
                     ADD CONSTRAINT time_entry_workspace_fk FOREIGN KEY (workspace_id) REFERENCES workspace(id) ON DELETE CASCADE`);
    await q.query(`CREATE INDEX time_entry_workspace_idx ON time_entry (workspace_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE time_entry DROP COLUMN workspace_id`);
    await q.query(`ALTER TABLE board_column DROP COLUMN workspace_id`);
  }
}
