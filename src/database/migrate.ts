import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';

/** Arbitrary constant naming "Tandem migrations" in pg_advisory_lock's key space. */
const MIGRATION_LOCK_KEY = 7_261_301_117;

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
}

/**
 * Creates the configured database when it does not exist yet (safe when several processes race).
 * Resolves true when this call created it.
 */
export async function ensureDatabase(url: string): Promise<boolean> {
  const name = databaseName(url);
  const probe = new Client({ connectionString: url });
  try {
    await probe.connect();
    return false;
  } catch (err: any) {
    if (err?.code !== '3D000') throw err; // 3D000 = invalid_catalog_name: the database is missing
  } finally {
    await probe.end().catch(() => undefined);
  }
  const admin = new Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    return true;
  } catch (err: any) {
    // 42P04 duplicate_database / 23505 unique_violation: another process created it first.
    if (err?.code !== '42P04' && err?.code !== '23505') throw err;
    return false;
  } finally {
    await admin.end();
  }
}

/**
 * Runs pending migrations while holding a session-level advisory lock, so that two
 * processes booting together migrate once: the second waits, then finds nothing to do.
 * Returns the names of the migrations this call applied.
 */
export async function migrate(url: string): Promise<string[]> {
  const lock = new Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const ds = new DataSource({ ...dataSourceOptions(url, 2) });
    await ds.initialize();
    try {
      const applied = await ds.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await ds.destroy();
    }
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.end();
  }
}
