import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Moves the searchable text of tasks into a narrow side table, `task_text`, kept in step with
 * `task` by triggers in the same transaction. Why: every move or status change rewrites the task
 * row (its indexed columns change, so the update is never HOT) and then had to insert the row's
 * title and description trigrams into two GIN indexes again (measured: a quarter of a move's
 * cost at 100k tasks). Only title/description changes touch `task_text` now; search reads it
 * (trigram indexes and newest-first walks) and joins `task` for the rest.
 */
export class TaskSearchText1763780600000 implements MigrationInterface {
  name = 'TaskSearchText1763780600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE task_text (
        task_id uuid PRIMARY KEY REFERENCES task(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL,
        created_at timestamptz NOT NULL,
        title text NOT NULL,
        description text
      )`);
    await q.query(`
      INSERT INTO task_text (task_id, workspace_id, created_at, title, description)
      SELECT id, workspace_id, created_at, title, description FROM task`);
    await q.query(`CREATE INDEX task_text_title_trgm ON task_text USING gin (title gin_trgm_ops) WITH (fastupdate = off)`);
    await q.query(`CREATE INDEX task_text_description_trgm ON task_text USING gin (description gin_trgm_ops) WITH (fastupdate = off)`);
    // Newest-first walks for search terms that match many tasks, in all or in some workspaces.
    await q.query(`CREATE INDEX task_text_workspace_created_idx ON task_text (workspace_id, created_at DESC)`);
    await q.query(`CREATE INDEX task_text_created_idx ON task_text (created_at DESC)`);
    await q.query(`DROP INDEX task_title_trgm, task_description_trgm, task_workspace_created_idx, task_created_idx`);

    await q.query(`
      CREATE FUNCTION task_text_sync() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO task_text (task_id, workspace_id, created_at, title, description)
          VALUES (NEW.id, NEW.workspace_id, NEW.created_at, NEW.title, NEW.description);
        ELSE
          UPDATE task_text
             SET workspace_id = NEW.workspace_id, created_at = NEW.created_at, title = NEW.title, description = NEW.description
           WHERE task_id = NEW.id;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER task_text_insert AFTER INSERT ON task FOR EACH ROW EXECUTE FUNCTION task_text_sync()`);
    // Fires only when the searched text (or what scopes it) really changed: moves and status,
    // priority, assignee or date changes leave task_text alone.
    await q.query(`
      CREATE TRIGGER task_text_update AFTER UPDATE OF title, description, workspace_id, created_at ON task
        FOR EACH ROW
        WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.description IS DISTINCT FROM NEW.description
              OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id OR OLD.created_at IS DISTINCT FROM NEW.created_at)
        EXECUTE FUNCTION task_text_sync()`);
    await q.query(`ANALYZE task_text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER task_text_update ON task`);
    await q.query(`DROP TRIGGER task_text_insert ON task`);
    await q.query(`DROP FUNCTION task_text_sync()`);
    await q.query(`DROP TABLE task_text`);
    await q.query(`CREATE INDEX task_workspace_created_idx ON task (workspace_id, created_at DESC)`);
    await q.query(`CREATE INDEX task_created_idx ON task (created_at DESC)`);
    await q.query(`CREATE INDEX task_title_trgm ON task USING gin (title gin_trgm_ops) WITH (fastupdate = off)`);
    await q.query(`CREATE INDEX task_description_trgm ON task USING gin (description gin_trgm_ops) WITH (fastupdate = off)`);
  }
}
