import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Projects, columns, tasks, labels, time entries and activities (docs/records.md), plus the
 * trigram indexes global search relies on.
 * task.workspace_id and activity.workspace_id are denormalised from the project: a task only
 * ever moves between projects of one workspace, so they never change, and search can scope by
 * workspace without a join.
 */
export class WorkItems1763780100000 implements MigrationInterface {
  name = 'WorkItems1763780100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);

    await q.query(`
      CREATE TABLE project (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        slug text NOT NULL,
        name text NOT NULL,
        icon text,
        description text,
        is_public boolean NOT NULL DEFAULT false,
        archived_at timestamptz,
        -- Last task number handed out; incremented under the row lock, never decremented.
        task_counter integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX project_workspace_slug_key ON project (workspace_id, lower(slug))`);

    await q.query(`
      CREATE TABLE board_column (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES project(id) ON DELETE CASCADE,
        name text NOT NULL,
        slug text NOT NULL,
        position integer NOT NULL,
        icon text,
        color text,
        is_final boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX board_column_project_slug_key ON board_column (project_id, slug)`);

    await q.query(`
      CREATE TABLE task (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES project(id) ON DELETE CASCADE,
        number integer NOT NULL,
        position integer NOT NULL DEFAULT 0,
        user_id uuid REFERENCES "user"(id) ON DELETE SET NULL,
        created_by_id uuid REFERENCES "user"(id) ON DELETE SET NULL,
        title text NOT NULL,
        description text,
        status text NOT NULL,
        priority text NOT NULL DEFAULT 'no-priority'
          CHECK (priority IN ('no-priority','low','medium','high','urgent')),
        start_date timestamptz,
        due_date timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX task_project_number_key ON task (project_id, number)`);
    await q.query(`CREATE INDEX task_project_status_position_idx ON task (project_id, status, position)`);
    await q.query(`CREATE INDEX task_project_created_idx ON task (project_id, created_at DESC)`);
    await q.query(`CREATE INDEX task_workspace_created_idx ON task (workspace_id, created_at DESC)`);
    // Newest-first walks for search terms that match many tasks (the planner picks it by estimate).
    await q.query(`CREATE INDEX task_created_idx ON task (created_at DESC)`);
    await q.query(`CREATE INDEX task_user_idx ON task (user_id) WHERE user_id IS NOT NULL`);
    await q.query(`CREATE INDEX task_title_trgm ON task USING gin (title gin_trgm_ops) WITH (fastupdate = off)`);
    await q.query(`CREATE INDEX task_description_trgm ON task USING gin (description gin_trgm_ops) WITH (fastupdate = off)`);

    await q.query(`
      CREATE TABLE label (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        -- null: the workspace catalogue entry; set: a task-scoped copy
        task_id uuid REFERENCES task(id) ON DELETE CASCADE,
        -- for a task copy: the catalogue label it was made from
        catalog_label_id uuid REFERENCES label(id) ON DELETE CASCADE,
        name text NOT NULL,
        color text NOT NULL CHECK (color ~ '^#[0-9A-Fa-f]{6}$'),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX label_catalog_name_key ON label (workspace_id, lower(name)) WHERE task_id IS NULL`);
    await q.query(`CREATE UNIQUE INDEX label_task_name_key ON label (task_id, lower(name)) WHERE task_id IS NOT NULL`);
    await q.query(`CREATE INDEX label_catalog_idx ON label (catalog_label_id) WHERE catalog_label_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE time_entry (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        task_id uuid NOT NULL REFERENCES task(id) ON DELETE CASCADE,
        user_id uuid REFERENCES "user"(id) ON DELETE SET NULL,
        description text,
        start_time timestamptz NOT NULL,
        end_time timestamptz,
        -- whole seconds, end_time - start_time; 0 while running
        duration integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT time_entry_order CHECK (end_time IS NULL OR end_time >= start_time)
      )`);
    await q.query(`CREATE INDEX time_entry_task_idx ON time_entry (task_id, start_time)`);

    await q.query(`
      CREATE TABLE activity (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        task_id uuid NOT NULL REFERENCES task(id) ON DELETE CASCADE,
        type text NOT NULL,
        user_id uuid REFERENCES "user"(id) ON DELETE SET NULL,
        content text,
        event_data jsonb,
        external_user_name text,
        external_user_avatar text,
        external_source text,
        external_url text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX activity_task_created_idx ON activity (task_id, created_at)`);
    await q.query(`CREATE INDEX activity_workspace_created_idx ON activity (workspace_id, created_at DESC)`);
    await q.query(`CREATE INDEX activity_created_idx ON activity (created_at DESC)`);
    await q.query(`CREATE INDEX activity_content_trgm ON activity USING gin (content gin_trgm_ops) WITH (fastupdate = off)`);

    await q.query(`CREATE INDEX project_name_trgm ON project USING gin (name gin_trgm_ops) WITH (fastupdate = off)`);
    await q.query(`CREATE INDEX project_description_trgm ON project USING gin (description gin_trgm_ops) WITH (fastupdate = off)`);
    await q.query(`CREATE INDEX workspace_name_trgm ON workspace USING gin (name gin_trgm_ops) WITH (fastupdate = off)`);
    await q.query(`CREATE INDEX workspace_description_trgm ON workspace USING gin (description gin_trgm_ops) WITH (fastupdate = off)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['activity', 'time_entry', 'label', 'task', 'board_column', 'project']) {
      await q.query(`DROP TABLE IF EXISTS ${t} CASCADE`);
    }
    await q.query(`DROP INDEX IF EXISTS workspace_name_trgm`);
    await q.query(`DROP INDEX IF EXISTS workspace_description_trgm`);
  }
}
