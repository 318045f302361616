import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Emails are now stored NFKC-normalised before lower-casing, so a full-width look-alike of an
 * address is the same address. Rows stored before in another form are rewritten, except a user
 * whose normalised email another user already has, or that an older user's normalises to too (that account keeps its form; an operator
 * merges such pairs by hand). Needs a UTF8 database, as Postgres's normalize() does; others are
 * left as they are.
 */
export class EmailNfkc1763780800000 implements MigrationInterface {
  name = 'EmailNfkc1763780800000';

  async up(q: QueryRunner): Promise<void> {
    const [{ encoding }] = await q.query(`SELECT current_setting('server_encoding') AS encoding`);
    if (encoding !== 'UTF8') return;
    await q.query(`
      UPDATE "user" u SET email = n.email, updated_at = now()
        FROM (SELECT DISTINCT ON (lower(normalize(email, NFKC))) id, lower(normalize(email, NFKC)) AS email
                FROM "user" WHERE email <> lower(normalize(email, NFKC))
               ORDER BY lower(normalize(email, NFKC)), created_at) n
       WHERE n.id = u.id AND NOT EXISTS (SELECT 1 FROM "user" o WHERE o.email = n.email)`);
    await q.query(`UPDATE invitation SET email = lower(normalize(email, NFKC)) WHERE email <> lower(normalize(email, NFKC))`);
  }

  async down(): Promise<void> {
    // The original forms are not kept: nothing to undo.
  }
}
