import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Files of tasks (docs/files.md): an `asset` row per uploaded image or attachment, and
 * `stored_file_removal`, the objects still to be removed from the file store. An asset goes with
 * its task, its comment or its workspace (foreign keys cascade), and its row's deletion queues
 * its object in the same transaction (the trigger), so a crash can never leave a file nobody
 * will remove; the worker removes queued objects and retries those that fail.
 */
export class Assets1763782900000 implements MigrationInterface {
  name = 'Assets1763782900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE asset (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        task_id uuid NOT NULL REFERENCES task(id) ON DELETE CASCADE,
        comment_id uuid REFERENCES activity(id) ON DELETE CASCADE,
        surface text NOT NULL CHECK (surface IN ('description', 'comment', 'attachment')),
        storage_key text NOT NULL UNIQUE,
        filename text NOT NULL,
        content_type text NOT NULL,
        size bigint NOT NULL CHECK (size > 0),
        is_image boolean NOT NULL DEFAULT false,
        uploaded_by uuid REFERENCES "user"(id) ON DELETE SET NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ready')),
        upload_token_hash bytea,
        upload_started_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX asset_task_idx ON asset (task_id, created_at DESC) WHERE status = 'ready'`);
    await q.query(`CREATE INDEX asset_workspace_idx ON asset (workspace_id) INCLUDE (size)`);
    await q.query(`CREATE INDEX asset_pending_idx ON asset (created_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX asset_comment_idx ON asset (comment_id) WHERE comment_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE stored_file_removal (
        storage_key text PRIMARY KEY,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX stored_file_removal_due_idx ON stored_file_removal (next_attempt_at)`);
    await q.query(`
      CREATE FUNCTION asset_queue_removal() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO stored_file_removal (storage_key) VALUES (OLD.storage_key) ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER asset_queue_removal AFTER DELETE ON asset FOR EACH ROW EXECUTE FUNCTION asset_queue_removal()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE asset`);
    await q.query(`DROP FUNCTION asset_queue_removal()`);
    await q.query(`DROP TABLE stored_file_removal`);
  }
}
