import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Comments copied from git hosts keep their author's avatar and their page as links
 * (`external_user_avatar`, `external_url`). Only absolute http(s) URLs of at most 2,048 characters
 * without a user or password are stored now (docs/git-hosts.md, "Links from the hosts"); a comment
 * copied before that rule may hold another (`javascript:`, `data:`, a relative one), which a client
 * would render as a link. This sets such values to NULL. The rule is written out here, as it stands
 * on the day of this migration, rather than imported, so that the migration does the same forever.
 */
export class ExternalCommentLinks1763782600000 implements MigrationInterface {
  name = 'ExternalCommentLinks1763782600000';

  async up(q: QueryRunner): Promise<void> {
    const rows: { id: string; url: string | null; avatar: string | null }[] = await q.query(
      `SELECT id, external_url AS url, external_user_avatar AS avatar FROM activity
        WHERE external_url IS NOT NULL OR external_user_avatar IS NOT NULL`,
    );
    for (const r of rows) {
      const bad = (v: string | null) => v !== null && !isHttpUrl(v);
      if (!bad(r.url) && !bad(r.avatar)) continue;
      await q.query(
        `UPDATE activity SET external_url = CASE WHEN $2 THEN NULL ELSE external_url END,
                             external_user_avatar = CASE WHEN $3 THEN NULL ELSE external_user_avatar END
          WHERE id = $1`,
        [r.id, bad(r.url), bad(r.avatar)],
      );
    }
  }

  async down(): Promise<void> {
    // The values set to NULL are not kept.
  }
}

function isHttpUrl(v: string): boolean {
  if (v.length > 2048) return false;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return false;
  }
  return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname && !u.username && !u.password;
}
