import { Client } from 'pg';

export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Prefix of every database a test run makes; give parallel checkouts different prefixes. */
export const DB_PREFIX = process.env.TEST_DB_PREFIX ?? 'tandem_t_';
export const TEMPLATE_DB = `${DB_PREFIX}template`;

export function urlFor(db: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${db}`;
  return u.toString();
}

export async function withAdmin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}
