import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What clients of the original API need (docs/compatibility.md): label colors may also be one of
 * the palette names, projects carry a `position` in their workspace (existing ones numbered by
 * creation), and tasks can be related to each other (subtask, blocks, related). A relation goes
 * with either of its tasks; one pair of tasks holds at most one relation of each type, whichever
 * way round.
 */
export class ClientCompatibility1763781800000 implements MigrationInterface {
  name = 'ClientCompatibility1763781800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE label DROP CONSTRAINT label_color_check`);
    await q.query(`ALTER TABLE label ADD CONSTRAINT label_color_check
                     CHECK (color ~ '^#[0-9A-Fa-f]{6}$' OR color IN ('gray', 'dark-gray', 'purple', 'teal', 'green', 'yellow', 'orange', 'pink', 'red'))`);

    await q.query(`ALTER TABLE project ADD COLUMN position integer NOT NULL DEFAULT 0`);
    await q.query(`UPDATE project p SET position = r.n
                     FROM (SELECT id, row_number() OVER (PARTITION BY workspace_id ORDER BY created_at, id) - 1 AS n FROM project) r
                    WHERE r.id = p.id`);
    await q.query(`CREATE INDEX project_workspace_position_idx ON project (workspace_id, position)`);

    await q.query(`
      CREATE TABLE task_relation (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        source_task_id uuid NOT NULL REFERENCES task(id) ON DELETE CASCADE,
        target_task_id uuid NOT NULL REFERENCES task(id) ON DELETE CASCADE,
        relation_type text NOT NULL CONSTRAINT task_relation_type CHECK (relation_type IN ('subtask', 'blocks', 'related')),
        created_by_id uuid REFERENCES "user"(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT task_relation_not_itself CHECK (source_task_id <> target_task_id)
      )`);
    await q.query(`CREATE UNIQUE INDEX task_relation_pair_key
                     ON task_relation (relation_type, LEAST(source_task_id, target_task_id), GREATEST(source_task_id, target_task_id))`);
    await q.query(`CREATE INDEX task_relation_source_idx ON task_relation (source_task_id)`);
    await q.query(`CREATE INDEX task_relation_target_idx ON task_relation (target_task_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE task_relation`);
    await q.query(`ALTER TABLE project DROP COLUMN position`);
    await q.query(`ALTER TABLE label DROP CONSTRAINT label_color_check`);
    await q.query(`ALTER TABLE label ADD CONSTRAINT label_color_check CHECK (color ~ '^#[0-9A-Fa-f]{6}$')`);
  }
}
