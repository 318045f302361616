import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DB_PREFIX, RUN_ID, withAdmin } from './db';
import { stopTestServers } from './local-servers';

/**
 * Drops what this run left: its template and the database of any file that did not clean up;
 * then stops the Postgres and Redis the global setup started, if it started any.
 */
export default async function globalTeardown(): Promise<void> {
  try {
    await withAdmin(async (c) => {
      const like = `${DB_PREFIX.replace(/[\\_%]/g, (ch) => '\\' + ch)}%`;
      const mine = await c.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [like]);
      for (const { datname } of mine.rows) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    });
  } finally {
    await stopTestServers();
  }
  // The build that test/support/launcher.ts made for this run.
  rmSync(join(__dirname, '../../.tmp', `dist-${RUN_ID}`), { recursive: true, force: true });
}
