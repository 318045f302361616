import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The four notifying integrations of a project (messenger, teamchat, communitychat, generic
 * webhook: one of each per project) and the delivery log of task events to them.
 *
 * - integration: secrets (bot token, webhook URL, signing secret) are stored encrypted by the
 *   crypto service, never in clear; `previous_secret` keeps the replaced signing secret so that
 *   deliveries are signed with both for 24 h after `secret_replaced_at` (docs/integrations.md).
 * - delivery: one row per (event, target), so a re-run of the fan-out never delivers twice,
 *   whatever BullMQ still remembers of finished jobs. `payload` is the event snapshot, delivered
 *   as it was when the change committed; `attempts` lists every attempt, oldest first.
 *   `target_type` names the channel (the four integration types here; user channels later).
 */
export class IntegrationsAndDeliveries1763781100000 implements MigrationInterface {
  name = 'IntegrationsAndDeliveries1763781100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE integration (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES project(id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('messenger', 'teamchat', 'communitychat', 'generic-webhook')),
        is_active boolean NOT NULL DEFAULT true,
        events jsonb NOT NULL,
        chat_id text,
        thread_id integer,
        chat_label text,
        channel_name text,
        bot_token text,
        webhook_url text,
        secret text,
        previous_secret text,
        secret_replaced_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT integration_project_type_key UNIQUE (project_id, type)
      )`);
    await q.query(`CREATE INDEX integration_workspace_idx ON integration (workspace_id)`);

    await q.query(`
      CREATE TABLE delivery (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        project_id uuid REFERENCES project(id) ON DELETE CASCADE,
        event_id uuid NOT NULL,
        event text NOT NULL,
        target_type text NOT NULL,
        target_id uuid NOT NULL,
        payload jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz,
        CONSTRAINT delivery_event_target_key UNIQUE (event_id, target_type, target_id)
      )`);
    await q.query(`CREATE INDEX delivery_listing_idx ON delivery (project_id, target_type, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX delivery_workspace_idx ON delivery (workspace_id)`);
    await q.query(`CREATE INDEX delivery_created_idx ON delivery (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE delivery`);
    await q.query(`DROP TABLE integration`);
  }
}
