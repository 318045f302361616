import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One transactional outbox for every queue, replacing the email-only one. A row is a BullMQ job
 * (queue, name, payload) whose id is also the job id, so it must be a valid custom BullMQ id (not
 * an integer, no ':'). A statement trigger notifies the `outbox` channel: Postgres delivers it to
 * the worker's LISTEN connection when the inserting transaction commits, never if it rolls back.
 * Email rows still waiting are moved over (their job ids become row ids, so none is sent twice).
 */
export class Outbox1763780900000 implements MigrationInterface {
  name = 'Outbox1763780900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox (
        id text PRIMARY KEY DEFAULT gen_random_uuid()::text
          CONSTRAINT outbox_id_is_job_id CHECK (id <> '' AND id !~ '^-?[0-9]+$' AND strpos(id, ':') = 0),
        queue text NOT NULL,
        name text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        attempts integer NOT NULL DEFAULT 0,
        last_error text
      )`);
    await q.query(`CREATE INDEX outbox_created_idx ON outbox (created_at)`);
    await q.query(`
      CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('outbox', '');
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify()`);
    await q.query(`
      INSERT INTO outbox (id, queue, name, payload, created_at)
      SELECT job_id, 'email', job_name, payload, created_at FROM email_outbox
      ON CONFLICT (id) DO NOTHING`);
    await q.query(`DROP TABLE email_outbox`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE email_outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        job_name text NOT NULL,
        job_id text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX email_outbox_job_id_key ON email_outbox (job_id)`);
    await q.query(`CREATE INDEX email_outbox_created_idx ON email_outbox (created_at)`);
    await q.query(`INSERT INTO email_outbox (job_name, job_id, payload, created_at) SELECT name, id, payload, created_at FROM outbox WHERE queue = 'email'`);
    await q.query(`DROP TABLE outbox`);
    await q.query(`DROP FUNCTION outbox_notify()`);
  }
}
