import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Email jobs carry no invitation id, address or token any more (docs/decisions-local.md, "Queued
 * emails"): what an email is about moves to `email_job`, a row keyed by a random id, and the
 * email queue's job carries only that id (job data `{emailJobId}`, job id the same) under the
 * kind's name. Queue jobs are shown on the dashboard to instance admins, who are not members of
 * the workspaces whose invitations they would otherwise see. Email requests still waiting in the
 * outbox are moved over in the same statement, so they are sent as before. Rows are deleted by
 * the worker once older than EMAIL_JOB_RETENTION_DAYS (hence the index on created_at).
 */
export class EmailJobs1763782400000 implements MigrationInterface {
  name = 'EmailJobs1763782400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE email_job (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        kind text NOT NULL,
        reference jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX email_job_created_at ON email_job (created_at)`);
    await q.query(`
      WITH waiting AS (
        SELECT id AS outbox_id, gen_random_uuid() AS job_id, name, payload, created_at
          FROM outbox WHERE queue = 'email' AND NOT (payload ? 'emailJobId')
      ), moved AS (
        INSERT INTO email_job (id, kind, reference, created_at) SELECT job_id, name, payload, created_at FROM waiting
      )
      UPDATE outbox o SET id = w.job_id::text, payload = jsonb_build_object('emailJobId', w.job_id)
        FROM waiting w WHERE o.id = w.outbox_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE outbox o SET payload = j.reference
        FROM email_job j WHERE o.queue = 'email' AND o.payload->>'emailJobId' = j.id::text`);
    await q.query(`DROP TABLE email_job`);
  }
}
