import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox relay leases the rows it publishes instead of holding them in a transaction
 * (docs/architecture.md, "The path of an event"): `leased_until` marks rows a relay is publishing;
 * they are deleted once published, released when publishing failed, and free again when the lease
 * runs out (a relay that died mid-way).
 */
export class OutboxLease1763782000000 implements MigrationInterface {
  name = 'OutboxLease1763782000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox ADD COLUMN leased_until timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox DROP COLUMN leased_until`);
  }
}
