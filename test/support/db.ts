import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * Read at each use: the global setup may point it at an embedded Postgres of its own
 * (test/support/local-servers.ts), after this file was first imported in Jest's main process.
 */
export const adminUrl = (): string => process.env.TEST_DATABASE_ADMIN_URL ?? DEFAULT_ADMIN_URL;
/** The admin URL as it was when this file was imported: right in test files (workers start after the global setup). */
export const ADMIN_URL = adminUrl();
/** Prefix shared by the databases of every test run (TEST_DB_PREFIX overrides it). */
export const BASE_PREFIX = process.env.TEST_DB_PREFIX ?? 'tandem_t_';

/**
 * Each `jest` run names its databases `<BASE_PREFIX><run>_…`, the run id being its start time in
 * base 36 (seconds) plus 4 random hex digits. The first import (in Jest's main process, through
 * the global setup) picks it and puts it in the environment, so the workers started afterwards
 * share it; several runs on one Postgres (two checkouts, CI beside a developer) never touch each
 * other's databases.
 */
export const RUN_ID = (process.env.TANDEM_TEST_RUN ??= `${Math.floor(Date.now() / 1000)
  .toString(36)
  .padStart(6, '0')}${randomBytes(2).toString('hex')}`);
export const DB_PREFIX = `${BASE_PREFIX}${RUN_ID}_`;
export const TEMPLATE_DB = `${DB_PREFIX}template`;

/** Databases of runs that started more than `maxAgeS` ago (or of the old unnumbered scheme): left by killed runs. */
export function isStaleTestDatabase(name: string, nowS: number, maxAgeS = 3 * 3600): boolean {
  if (!name.startsWith(BASE_PREFIX)) return false;
  const m = /^([0-9a-z]{6})[0-9a-f]{4}_/.exec(name.slice(BASE_PREFIX.length));
  if (!m) return true;
  return nowS - parseInt(m[1], 36) > maxAgeS;
}

export function urlFor(db: string): string {
  const u = new URL(adminUrl());
  u.pathname = `/${db}`;
  return u.toString();
}

export async function withAdmin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}
