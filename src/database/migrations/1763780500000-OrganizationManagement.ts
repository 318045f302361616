import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Organization management (teams, invitations, roles) and the email outbox.
 * - invitation.send_count numbers the emails requested for an invitation (1 on create, +1 per
 *   resend); the email job id is `invitation-<id>-<send_count>`, so a re-enqueue is harmless.
 * - email_outbox holds email jobs written in the same transaction as the change that asks for
 *   them; the worker relays committed rows to BullMQ and deletes them (no email for a rolled-back
 *   change, none lost while Redis is away).
 */
export class OrganizationManagement1763780500000 implements MigrationInterface {
  name = 'OrganizationManagement1763780500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invitation ADD COLUMN send_count integer NOT NULL DEFAULT 0`);
    await q.query(`CREATE INDEX invitation_org_email_pending_idx ON invitation (organization_id, email) WHERE status = 'pending'`);
    await q.query(`ALTER TABLE organization_role ADD COLUMN additional_fields jsonb`);
    await q.query(`CREATE INDEX team_member_user_idx ON team_member (user_id)`);
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
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS email_outbox`);
    await q.query(`DROP INDEX IF EXISTS team_member_user_idx`);
    await q.query(`ALTER TABLE organization_role DROP COLUMN IF EXISTS additional_fields`);
    await q.query(`DROP INDEX IF EXISTS invitation_org_email_pending_idx`);
    await q.query(`ALTER TABLE invitation DROP COLUMN IF EXISTS send_count`);
  }
}
