import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One-use tokens of the account emails (docs/accounts.md): email verification and password
 * reset. Only the SHA-256 of a token is stored, with the address it was sent to and its expiry.
 */
export class AccountTokens1763781200000 implements MigrationInterface {
  name = 'AccountTokens1763781200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE user_token (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        purpose text NOT NULL CONSTRAINT user_token_purpose CHECK (purpose IN ('verify-email', 'reset-password')),
        token_hash text NOT NULL,
        email text NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX user_token_hash_key ON user_token (token_hash)`);
    await q.query(`CREATE INDEX user_token_user_idx ON user_token (user_id, purpose)`);
    await q.query(`CREATE INDEX user_token_expires_idx ON user_token (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE user_token`);
  }
}
