import { sql } from './fixtures';

const NAME = /^[a-z_]+$/;
const MARKER = /^[\w .,:-]+$/;

/**
 * Runs `fn` while Postgres refuses every row inserted into `table` whose `column` is `marker` (a
 * trigger raising an exception, dropped afterwards): a server-side failure in the middle of the
 * service's transaction, with no test hook in the service. Table, column and marker are the
 * test's own constants, checked to be plain words since they are written into the SQL.
 */
export async function withFailingInsert<T>(databaseUrl: string, table: string, column: string, marker: string, fn: () => Promise<T>): Promise<T> {
  if (!NAME.test(table) || !NAME.test(column) || !MARKER.test(marker)) throw new Error(`withFailingInsert: ${table}.${column} = '${marker}' is not a plain name and marker`);
  const fnName = `test_refuse_${table}`;
  await sql(
    databaseUrl,
    `CREATE FUNCTION ${fnName}() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN IF NEW.${column}::text = TG_ARGV[0] THEN RAISE EXCEPTION 'refused by the test trigger'; END IF; RETURN NEW; END $$`,
  );
  try {
    await sql(databaseUrl, `CREATE TRIGGER ${fnName} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fnName}('${marker}')`);
    return await fn();
  } finally {
    await sql(databaseUrl, `DROP TRIGGER IF EXISTS ${fnName} ON ${table}`);
    await sql(databaseUrl, `DROP FUNCTION IF EXISTS ${fnName}()`);
  }
}
