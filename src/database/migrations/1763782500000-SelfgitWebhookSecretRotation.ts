import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The selfgit webhook secret can be rotated with an overlap (docs/git-hosts.md, "Rotating the
 * webhook secret"): a rotation moves the secret to `webhook_previous_secret` (CryptoService
 * ciphertext, like `webhook_secret`; listed in src/common/crypto/encrypted-columns.ts) and stamps
 * `webhook_secret_replaced_at`; deliveries signed with the previous secret are accepted for 24
 * hours after that. Existing rows have never been rotated: both columns stay NULL.
 */
export class SelfgitWebhookSecretRotation1763782500000 implements MigrationInterface {
  name = 'SelfgitWebhookSecretRotation1763782500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE git_integration ADD COLUMN webhook_previous_secret text, ADD COLUMN webhook_secret_replaced_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE git_integration DROP COLUMN webhook_secret_replaced_at, DROP COLUMN webhook_previous_secret`);
  }
}
