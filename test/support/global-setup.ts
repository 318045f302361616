import { migrate } from '../../src/database/migrate';
import { DB_PREFIX, TEMPLATE_DB, urlFor, withAdmin } from './db';

/** Once per `jest` run: a freshly migrated template database that every e2e file clones. */
export default async function globalSetup(): Promise<void> {
  await withAdmin(async (c) => {
    // Databases left behind by runs that were killed.
    const like = `${DB_PREFIX.replace(/[\\_%]/g, (ch) => '\\' + ch)}%`;
    const stale = await c.query(`SELECT datname FROM pg_database WHERE datname LIKE $1 AND datname <> $2`, [like, TEMPLATE_DB]);
    for (const { datname } of stale.rows) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await c.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DB}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${TEMPLATE_DB}"`);
  });
  await migrate(urlFor(TEMPLATE_DB));
}
