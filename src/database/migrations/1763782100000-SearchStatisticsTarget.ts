import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search chooses each column's access path from the planner's sample of that column: the share
 * of sampled values that contain the word (docs/benchmarks.md, "Words in one to three percent").
 * With the default sample (100 histogram values), a word in 3 % of descriptions was estimated at
 * 1 %, and one in 1.2 % of comments at 4 %, so mid-frequency words took the slower path (20–50 ms
 * at 100,000 tasks instead of 2–6). A sample of 1,000 values per searched column brings the
 * estimate within a few tenths of a percent. ANALYZE then reads more rows (300 × 1,000 at most),
 * which autovacuum does only after a tenth of a table has changed.
 */
export class SearchStatisticsTarget1763782100000 implements MigrationInterface {
  name = 'SearchStatisticsTarget1763782100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE task_text ALTER COLUMN title SET STATISTICS 1000, ALTER COLUMN description SET STATISTICS 1000`);
    await q.query(`ALTER STATISTICS activity_comment_content_stats SET STATISTICS 1000`);
    await q.query(`ALTER STATISTICS activity_other_content_stats SET STATISTICS 1000`);
    await q.query(`ANALYZE task_text, activity`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER STATISTICS activity_other_content_stats SET STATISTICS -1`);
    await q.query(`ALTER STATISTICS activity_comment_content_stats SET STATISTICS -1`);
    await q.query(`ALTER TABLE task_text ALTER COLUMN title SET STATISTICS -1, ALTER COLUMN description SET STATISTICS -1`);
  }
}
