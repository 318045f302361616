import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A task's watchers (docs/notifications.md, "Watchers"): who chose to watch it, who commented on it
 * or was mentioned in it (`watching` true), and who chose not to (`watching` false: unwatching
 * sticks, a later comment or mention does not undo it). Its creator and assignee watch it without a
 * row unless they unwatched. Rows go with their task, user and workspace.
 */
export class TaskWatchers1763783000000 implements MigrationInterface {
  name = 'TaskWatchers1763783000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE task_watcher (
      task_id uuid NOT NULL REFERENCES task(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
      watching boolean NOT NULL,
      reason text NOT NULL CHECK (reason IN ('watching', 'unwatched', 'commenter', 'mentioned')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (task_id, user_id)
    )`);
    await q.query(`CREATE INDEX task_watcher_user_idx ON task_watcher (user_id)`);
    await q.query(`CREATE INDEX task_watcher_workspace_idx ON task_watcher (workspace_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE task_watcher`);
  }
}
