import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search walks comments (or the other activities) newest first when a word is common in them
 * (docs/benchmarks.md, "Memory" and "How search stays fast"). One created_at index over both
 * kinds made that walk step over every newer activity of the other kind: after a busy spell of
 * status changes and moves, a common word in comments skipped 77,614 newer activities to find 20
 * comments (38 ms at 100,000 tasks). One partial index per kind walks only that kind; each insert
 * still updates one created_at index, and nothing else read the index over both kinds.
 */
export class ActivityKindCreatedIndexes1763782000000 implements MigrationInterface {
  name = 'ActivityKindCreatedIndexes1763782000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX activity_comment_created_idx ON activity (created_at DESC) WHERE type = 'comment'`);
    await q.query(`CREATE INDEX activity_other_created_idx ON activity (created_at DESC) WHERE type <> 'comment'`);
    await q.query(`DROP INDEX activity_created_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX activity_created_idx ON activity (created_at DESC)`);
    await q.query(`DROP INDEX activity_other_created_idx`);
    await q.query(`DROP INDEX activity_comment_created_idx`);
  }
}
