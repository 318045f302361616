import { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts at outside identity providers (custom OpenID Connect), with their tokens encrypted. */
export class OAuthAccount1763780400000 implements MigrationInterface {
  name = 'OAuthAccount1763780400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE account (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        provider_id text NOT NULL,
        account_id text NOT NULL,
        id_token text,
        access_token text,
        refresh_token text,
        id_token_expires_at timestamptz,
        access_token_expires_at timestamptz,
        scope text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One user per provider account, and one account per provider for a user.
    await q.query(`CREATE UNIQUE INDEX account_provider_account_key ON account (provider_id, account_id)`);
    await q.query(`CREATE UNIQUE INDEX account_user_provider_key ON account (user_id, provider_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS account`);
  }
}
