import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A key made while authenticated by another API key records that key as its parent
 * (`api_key.parent_key_id`), and deleting a key deletes every key minted from it, transitively:
 * the foreign key cascades, so the whole lineage goes in the statement that deletes the parent
 * (docs/decisions-local.md, "Access rules that close escalation paths" 2). Keys made with a session
 * have no parent. Keys that exist already keep `NULL`: which key made them was never recorded.
 * The index serves the cascade, which looks children up by parent.
 */
export class ApiKeyParent1763782250000 implements MigrationInterface {
  name = 'ApiKeyParent1763782250000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_key ADD COLUMN parent_key_id uuid CONSTRAINT api_key_parent_fkey REFERENCES api_key(id) ON DELETE CASCADE`);
    await q.query(`CREATE INDEX api_key_parent_idx ON api_key (parent_key_id) WHERE parent_key_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX api_key_parent_idx`);
    await q.query(`ALTER TABLE api_key DROP COLUMN parent_key_id`);
  }
}
