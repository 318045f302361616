import { sql } from './fixtures';

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

/**
 * Every table's row count and, but for the tables any request touches, a checksum of its rows (the
 * outbox's included), in one statement: equal snapshots mean nothing was written in between.
 */
export async function databaseSnapshot(databaseUrl: string): Promise<Record<string, string>> {
  const names = await tables(databaseUrl);
  const cols = names.map((n) =>
    TOUCHED_BY_ANY_REQUEST.has(n)
      ? `(SELECT count(*)::text FROM ${ident(n)}) AS ${ident(n)}`
      : `(SELECT count(*) || ':' || coalesce(md5(string_agg(r::text, ',' ORDER BY r::text)), '') FROM ${ident(n)} r) AS ${ident(n)}`,
  );
  return (await sql(databaseUrl, `SELECT ${cols.join(', ')}`))[0];
}
