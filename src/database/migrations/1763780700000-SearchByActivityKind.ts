import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search treats comments and the other activities as two sections, and a word can be common in
 * one and absent from the other (a word in every third comment appears in no status change).
 * - Trigram indexes per kind (partial), so a word common in comments costs nothing when the
 *   activities section looks it up: one index over both kinds returned every matching comment
 *   for the heap to discard (measured 34 ms for such a word at 150k activities).
 * - Expression statistics per kind, which SearchStatsService reads to choose each section's
 *   access path. They cost nothing on writes; ANALYZE (and autovacuum's) fills them.
 */
export class SearchByActivityKind1763780700000 implements MigrationInterface {
  name = 'SearchByActivityKind1763780700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX activity_comment_content_trgm ON activity USING gin (content gin_trgm_ops) WITH (fastupdate = off) WHERE type = 'comment'`);
    await q.query(`CREATE INDEX activity_other_content_trgm ON activity USING gin (content gin_trgm_ops) WITH (fastupdate = off) WHERE type <> 'comment'`);
    await q.query(`DROP INDEX activity_content_trgm`);
    await q.query(`CREATE STATISTICS activity_comment_content_stats ON (CASE WHEN type = 'comment' THEN content END) FROM activity`);
    await q.query(`CREATE STATISTICS activity_other_content_stats ON (CASE WHEN type <> 'comment' THEN content END) FROM activity`);
    await q.query(`ANALYZE activity`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP STATISTICS activity_other_content_stats`);
    await q.query(`DROP STATISTICS activity_comment_content_stats`);
    await q.query(`CREATE INDEX activity_content_trgm ON activity USING gin (content gin_trgm_ops) WITH (fastupdate = off)`);
    await q.query(`DROP INDEX activity_other_content_trgm`);
    await q.query(`DROP INDEX activity_comment_content_trgm`);
  }
}
