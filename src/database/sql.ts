import type { Pool } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Runs one SQL statement and answers its rows, whatever the command. (TypeORM's `query()` answers
 * UPDATE/DELETE as `[rows, count]` but SELECT/INSERT as `rows`; this evens that out.)
 * Inside a transaction pass the transaction's manager, so the statement runs on its connection.
 */
export async function rows<T = any>(m: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  const runner = m.queryRunner ?? m.connection.createQueryRunner();
  try {
    const res = await runner.query(sql, params, true);
    return (res.records ?? []) as T[];
  } finally {
    if (!m.queryRunner) await runner.release();
  }
}

/** The first row of one statement, or undefined. */
export async function firstRow<T = any>(m: EntityManager, sql: string, params: unknown[] = []): Promise<T | undefined> {
  return (await rows<T>(m, sql, params))[0];
}

/** A timestamp column as the ISO 8601 UTC string the API speaks; null stays null. */
export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** Postgres unique_violation, optionally of one named constraint/index. */
export const isUniqueViolation = (err: any, constraint?: string): boolean => err?.code === '23505' && (!constraint || err?.constraint === constraint);

/** Postgres foreign_key_violation (the referenced row vanished meanwhile). */
export const isForeignKeyViolation = (err: any): boolean => err?.code === '23503';

/** Makes `%`, `_` and `\` literal in a LIKE/ILIKE pattern (the default escape character is `\`). */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * `col = $n, …` for the entries whose value is not undefined (null is written as NULL), numbering
 * parameters from `firstIndex`. Column names come from code, never from the request.
 */
export function setClause(values: Record<string, unknown>, firstIndex: number): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const [column, value] of Object.entries(values)) {
    if (value === undefined) continue;
    params.push(value);
    parts.push(`${column} = $${firstIndex + params.length - 1}`);
  }
  return { sql: parts.join(', '), params };
}

/**
 * Runs one hot statement as a named server-side prepared statement on the pool (outside any
 * transaction): each connection parses and plans it once and afterwards only binds and executes
 * it, with its cached generic plan (plan_cache_mode in data-source-options). `name` must be
 * unique to `text`. Meant for single auto-committed statements on request paths (session check,
 * permission guard, single-task read, move); transactions go through the EntityManager.
 */
export async function preparedRows<T = any>(ds: DataSource, name: string, text: string, values: unknown[]): Promise<T[]> {
  const pool = (ds.driver as PostgresDriver).master as Pool;
  return (await pool.query({ name, text, values: values as any[] })).rows as T[];
}
