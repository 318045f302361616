import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox no longer notifies from inside the writing transaction (its statement trigger):
 * a transaction that notifies serialises with every other such transaction at commit, through its
 * disk flush. Writers now wake the relay after they commit (src/queue/outbox-signal.ts).
 */
export class OutboxWakeAfterCommit1763781700000 implements MigrationInterface {
  name = 'OutboxWakeAfterCommit1763781700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS outbox_notify ON outbox`);
    await q.query(`DROP FUNCTION IF EXISTS outbox_notify()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('outbox', '');
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify()`);
  }
}
