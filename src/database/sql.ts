import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';

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

/** A field list (`'id, name'`) with each field qualified by `alias` (`'t.id, t.name'`), for a statement that joins. */
export const qualified = (fields: string, alias: string): string =>
  fields
    .split(', ')
    .map((f) => `${alias}.${f}`)
    .join(', ');

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
 * Runs one hot statement as a named server-side prepared statement: each connection parses and
 * plans it once and afterwards only binds and executes it, with its cached generic plan
 * (plan_cache_mode in data-source-options). `name` must be unique to `text` (preparedName() makes
 * one from the text). Given the data source, or a manager outside a transaction, the statement
 * runs auto-committed on the pool; given a transaction's manager, on the transaction's connection.
 * Meant for statements whose plan does not depend on the values (key lookups, the task write
 * path, the worker's statements); the statements of the request paths and the worker run
 * thousands of times a second, and planning cost a third of the status change and more than the
 * execution of the board's lists (docs/benchmarks.md, "Statements planned once").
 */
export async function preparedRows<T = any>(on: DataSource | EntityManager, name: string, text: string, values: unknown[]): Promise<T[]> {
  const runner = on instanceof EntityManager ? (on.queryRunner as PostgresQueryRunner | undefined) : undefined;
  const ds = on instanceof EntityManager ? on.connection : on;
  const client: Pool | PoolClient = runner ? await runner.connect() : ((ds.driver as PostgresDriver).master as Pool);
  return (await client.query({ name, text, values: values as any[] })).rows as T[];
}

/**
 * A prepared statement's name for a statement whose text is put together at run time (one of a
 * few shapes): `prefix` and a digest of the text, so each shape is prepared once per connection.
 */
export const preparedName = (prefix: string, text: string): string => `${prefix}_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;

/**
 * The shapes of one assembled statement that may be prepared, at most `max` of them per process:
 * every connection keeps each prepared shape's plan for its lifetime, and a large statement's plan
 * is big (the task update with its history and outbox rows: ~330 KB per connection, measured with
 * pg_backend_memory_contexts). The first `max` shapes seen are prepared; a shape beyond them runs
 * unnamed (planned on every call), so however many shapes requests make, the plan
 * cache stays bounded.
 */
export class PreparedShapes {
  private readonly names = new Set<string>();

  constructor(
    private readonly prefix: string,
    private readonly max: number,
  ) {}

  /** The name to prepare `text` under, or null when it is to run unnamed. */
  nameFor(text: string): string | null {
    const name = preparedName(this.prefix, text);
    if (this.names.has(name)) return name;
    if (this.names.size >= this.max) return null;
    this.names.add(name);
    return name;
  }
}
