import { Client } from 'pg';
import { sql } from './fixtures';
import { until } from './until';

/**
 * Tables whose rows an accepted credential touches on any request (the session's and the key's
 * last use), so their contents are compared by row count only.
 */
const TOUCHED_BY_ANY_REQUEST = new Set(['session', 'api_key', 'migrations']);

let tablesOf: Promise<string[]> | undefined;

async function tables(databaseUrl: string): Promise<string[]> {
  tablesOf ??= sql<{ name: string }>(databaseUrl, `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`).then((rows) => rows.map((r) => r.name));
  return tablesOf;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The row count of every table of the app's database, in one statement. */
export async function tableCounts(databaseUrl: string): Promise<Record<string, number>> {
  const names = await tables(databaseUrl);
  const cols = names.map((n) => `(SELECT count(*)::int FROM ${ident(n)}) AS ${ident(n)}`).join(', ');
  return (await sql(databaseUrl, `SELECT ${cols}`))[0];
}

/** The snapshot statement: every table's row count and, but for TOUCHED_BY_ANY_REQUEST, a checksum of its rows. */
const snapshotStatement = (names: string[]) =>
  `SELECT ${names
    .map((n) =>
      TOUCHED_BY_ANY_REQUEST.has(n)
        ? `(SELECT count(*)::text FROM ${ident(n)}) AS ${ident(n)}`
        : `(SELECT count(*) || ':' || coalesce(md5(string_agg(r::text, ',' ORDER BY r::text)), '') FROM ${ident(n)} r) AS ${ident(n)}`,
    )
    .join(', ')}`;

/**
 * Snapshots of the whole database (the outbox included) over one kept connection, for tests that
 * take thousands: equal snapshots mean nothing was written in between. close() when done.
 */
export async function databaseSnapshots(databaseUrl: string): Promise<{ take(): Promise<Record<string, string>>; close(): Promise<void> }> {
  const statement = snapshotStatement(await tables(databaseUrl));
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  return {
    take: async () => (await client.query(statement)).rows[0],
    close: () => client.end(),
  };
}

/**
 * Waits until the outbox relay (in the test's app) has taken every outbox row: take it before a
 * "nothing was written" snapshot, so the rows of the test's own set-up do not vanish between two.
 */
export async function outboxDrained(databaseUrl: string): Promise<void> {
  await until('the outbox to be relayed', async () => (await sql<{ n: number }>(databaseUrl, `SELECT count(*)::int AS n FROM outbox`))[0].n === 0);
}
