import chromium from '@sparticuz/chromium';
import { migrate } from '../../src/database/migrate';
import { BASE_PREFIX, isStaleTestDatabase, TEMPLATE_DB, urlFor, withAdmin } from './db';
import { startTestServers } from './local-servers';
import { ensureWebApp } from './web-build';

/**
 * Once per `jest` run: Postgres and Redis (started here when none answers: local-servers.ts), then
 * a freshly migrated template database (of this run) that every e2e file clones.
 */
export default async function globalSetup(): Promise<void> {
  await startTestServers();
  await withAdmin(async (c) => {
    // Databases left behind by runs that were killed long ago; a run still going is left alone.
    const like = `${BASE_PREFIX.replace(/[\\_%]/g, (ch) => '\\' + ch)}%`;
    const all = await c.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [like]);
    const now = Math.floor(Date.now() / 1000);
    for (const { datname } of all.rows) {
      if (isStaleTestDatabase(datname, now)) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    await c.query(`CREATE DATABASE "${TEMPLATE_DB}"`);
  });
  await migrate(urlFor(TEMPLATE_DB));
  // The browser tests drive the web app that the service serves (test/e2e/web), in the Chromium
  // the npm package ships: unpacked here once, not by two test files at the same time.
  ensureWebApp();
  await chromium.executablePath();
}
