import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A task moved to another project takes the destination's next number, so its key changes
 * (`OLD-4` → `NEW-9`). `task_former_key` keeps each key a task had before a move (the project it
 * left and its number there), so that the old key still finds it (docs/decisions-local.md, "Work items",
 * keys of moved tasks). A row goes with its task, its project and its workspace. Numbers are never reused in a
 * project, so the primary key (project, number) names at most one task.
 */
export class FormerTaskKeys1763782710000 implements MigrationInterface {
  name = 'FormerTaskKeys1763782710000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE task_former_key (
        project_id uuid NOT NULL REFERENCES project(id) ON DELETE CASCADE,
        number int NOT NULL,
        task_id uuid NOT NULL REFERENCES task(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        moved_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, number)
      )`);
    await q.query(`CREATE INDEX task_former_key_task_idx ON task_former_key (task_id)`);
    // Tasks moved before this migration: their activity \`moved\` names the project left and the old number.
    await q.query(`
      INSERT INTO task_former_key (project_id, number, task_id, workspace_id, moved_at)
      SELECT DISTINCT ON (p.id, (a.event_data->>'oldNumber')::int)
             p.id, (a.event_data->>'oldNumber')::int, a.task_id, a.workspace_id, a.created_at
        FROM activity a
        JOIN task t ON t.id = a.task_id
        JOIN project p ON p.id::text = a.event_data->>'sourceProjectId' AND p.workspace_id = a.workspace_id
       WHERE a.type = 'moved' AND a.event_data->>'oldNumber' ~ '^[0-9]{1,9}$'
       ORDER BY p.id, (a.event_data->>'oldNumber')::int, a.created_at DESC
      ON CONFLICT DO NOTHING`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE task_former_key`);
  }
}
