import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users' notifications (docs/notifications.md): their delivery preferences, their workspace rules
 * and the in-app list.
 *
 * - notification_preference: one row per user who saved preferences (a user without one has the
 *   defaults). The push tokens and the webhook signing secrets (current and replaced) hold
 *   CryptoService ciphertext; `webhook_secret_replaced_at` starts the 24 h of double signing.
 * - notification_rule: at most one per user and workspace; it narrows the global preferences in
 *   that workspace.
 * - notification: the in-app list, one row per (event, user), so a re-run of the fan-out never
 *   notifies twice.
 * - Users' channel deliveries are rows of `delivery` (target_type email | topicpush | serverpush |
 *   webhook, target_id = the user); the partial index finds the pending ones of a user, channel
 *   and task, which go out together as one message (a burst).
 */
export class UserNotifications1763781500000 implements MigrationInterface {
  name = 'UserNotifications1763781500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notification_preference (
        user_id uuid PRIMARY KEY REFERENCES "user"(id) ON DELETE CASCADE,
        email_enabled boolean NOT NULL DEFAULT false,
        topicpush_enabled boolean NOT NULL DEFAULT false,
        topicpush_server_url text,
        topicpush_topic text,
        topicpush_token text,
        serverpush_enabled boolean NOT NULL DEFAULT false,
        serverpush_server_url text,
        serverpush_token text,
        webhook_enabled boolean NOT NULL DEFAULT false,
        webhook_url text,
        webhook_secret text,
        webhook_previous_secret text,
        webhook_secret_replaced_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE notification_rule (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        is_active boolean NOT NULL DEFAULT true,
        email_enabled boolean NOT NULL DEFAULT false,
        topicpush_enabled boolean NOT NULL DEFAULT false,
        serverpush_enabled boolean NOT NULL DEFAULT false,
        webhook_enabled boolean NOT NULL DEFAULT false,
        project_mode text NOT NULL DEFAULT 'all' CHECK (project_mode IN ('all', 'selected')),
        selected_project_ids uuid[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT notification_rule_user_workspace_key UNIQUE (user_id, workspace_id)
      )`);
    await q.query(`CREATE INDEX notification_rule_workspace_idx ON notification_rule (workspace_id)`);

    await q.query(`
      CREATE TABLE notification (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        event_id uuid NOT NULL,
        type text NOT NULL,
        title text NOT NULL,
        content text NOT NULL,
        is_read boolean NOT NULL DEFAULT false,
        task_id uuid,
        project_id uuid,
        actor_id uuid,
        actor_name text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT notification_event_user_key UNIQUE (event_id, user_id)
      )`);
    await q.query(`CREATE INDEX notification_user_idx ON notification (user_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX notification_unread_idx ON notification (user_id, workspace_id) WHERE NOT is_read`);
    await q.query(`CREATE INDEX notification_workspace_idx ON notification (workspace_id)`);

    await q.query(`
      CREATE INDEX delivery_user_pending_idx ON delivery (target_type, target_id, (payload->'task'->>'id'), created_at, id)
       WHERE status = 'pending' AND target_type IN ('email', 'topicpush', 'serverpush', 'webhook')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX delivery_user_pending_idx`);
    await q.query(`DROP TABLE notification`);
    await q.query(`DROP TABLE notification_rule`);
    await q.query(`DROP TABLE notification_preference`);
  }
}
