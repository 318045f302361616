import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { Api, Res } from './api';
import { sql } from './fixtures';

/**
 * The tools of the secrets audit (test/e2e/platform/secrets-audit.e2e-spec.ts): a ledger of the
 * secrets a run configured or was handed, the places the service keeps or shows things (every
 * table row, every Redis key, every answer, every log line), and a search of the one in the other.
 */

/** One place something can be found: what kind, which one (table, key, request, log line) and its text. */
export interface Place {
  kind: 'table' | 'redis' | 'answer' | 'log';
  where: string;
  text: string;
  /** For answers: who asked (the caller's name in the test), to allow what docs allow to some. */
  caller?: string;
}

export interface Secret {
  purpose: string;
  value: string;
  /** Where the secret may legitimately be (e.g. the answer that issued it); nowhere else. */
  allowed?: (place: Place) => boolean;
}

export interface Leak {
  purpose: string;
  form: string;
  kind: Place['kind'];
  where: string;
  excerpt: string;
}

/** `SECRET-<purpose>-<random>`: recognisable, and unique to this run. */
export const marker = (purpose: string): string => `SECRET-${purpose}-${randomBytes(9).toString('hex')}`;

/**
 * The forms a secret could be kept in: as is, base64, base64url, hex and URL-encoded. A base64 form
 * is cut to the characters that depend on the secret alone, so it is found inside a longer encoded text
 * that starts with the secret.
 */
export function forms(value: string): Record<string, string> {
  const bytes = Buffer.from(value, 'utf8');
  const whole = Math.floor(bytes.length / 3) * 4;
  const out: Record<string, string> = {
    clear: value,
    base64: bytes.toString('base64').slice(0, whole),
    base64url: bytes.toString('base64url').slice(0, whole),
    hex: bytes.toString('hex'),
    urlencoded: encodeURIComponent(value),
  };
  return out;
}

/** Every form of every secret found in `places` where the secret is not allowed. */
export function findLeaks(secrets: Secret[], places: Place[]): Leak[] {
  const leaks: Leak[] = [];
  for (const s of secrets) {
    const seen = new Set<string>();
    for (const [form, needle] of Object.entries(forms(s.value))) {
      if (seen.has(needle)) continue;
      seen.add(needle);
      for (const p of places) {
        const at = p.text.indexOf(needle);
        if (at < 0 || s.allowed?.(p)) continue;
        leaks.push({ purpose: s.purpose, form, kind: p.kind, where: p.where, excerpt: p.text.slice(Math.max(0, at - 120), at + needle.length + 60) });
      }
    }
  }
  return leaks;
}

/** Every row of every table of the database (its own tables, migrations and outbox included), as JSON. */
export async function tableRows(databaseUrl: string): Promise<Place[]> {
  const tables = await sql<{ schema: string; name: string }>(
    databaseUrl,
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
  );
  const out: Place[] = [];
  for (const { schema, name } of tables) {
    const rows = await sql<{ row: string }>(databaseUrl, `SELECT to_jsonb(t)::text AS row FROM "${schema}"."${name}" t`);
    out.push(...rows.map((r, i) => ({ kind: 'table' as const, where: `${name}[${i}]`, text: r.row })));
  }
  return out;
}

/**
 * Every key of the app's prefix with its value read as its type says: strings, hashes (BullMQ jobs:
 * data, returnvalue, failedReason, stacktrace), lists, sets, sorted sets and streams (BullMQ's events).
 */
export async function redisEntries(redisUrl: string, prefix: string): Promise<Place[]> {
  const redis = new Redis(redisUrl);
  try {
    const out: Place[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      for (const key of keys) {
        const type = await redis.type(key);
        let value: unknown;
        if (type === 'string') value = await redis.get(key);
        else if (type === 'hash') value = await redis.hgetall(key);
        else if (type === 'list') value = await redis.lrange(key, 0, -1);
        else if (type === 'set') value = await redis.smembers(key);
        else if (type === 'zset') value = await redis.zrange(key, 0, -1, 'WITHSCORES');
        else if (type === 'stream') value = await redis.xrange(key, '-', '+');
        else value = `<${type}>`;
        out.push({ kind: 'redis', where: `${key} (${type})`, text: `${key} ${typeof value === 'string' ? value : JSON.stringify(value)}` });
      }
      cursor = next;
    } while (cursor !== '0');
    return out;
  } finally {
    redis.disconnect();
  }
}

/** One request of the run and its answer: status, every header and the body. */
export interface Exchange {
  method: string;
  path: string;
  token?: string;
  res: Res;
}

/** The test's client, recording every answer the service gave (headers and body). */
export class RecordingApi extends Api {
  readonly exchanges: Exchange[] = [];

  override async request<T = any>(method: string, path: string, body?: unknown, opts: Parameters<Api['request']>[3] = {}): Promise<Res<T>> {
    const res = await super.request<T>(method, path, body, opts);
    this.exchanges.push({ method, path, token: opts.token, res });
    return res;
  }

  /** The answers as places; `caller` names the token's holder (`names` maps tokens to names). */
  answers(names: Map<string, string>): Place[] {
    return this.exchanges.map((e, i) => {
      const headers = [...e.res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
      return {
        kind: 'answer' as const,
        where: `#${i} ${e.method} ${e.path} → ${e.res.status}`,
        text: `${headers}\n\n${e.res.text}`,
        caller: e.token ? (names.get(e.token) ?? 'someone') : 'anonymous',
      };
    });
  }
}

/** The service's output as places, one per line. */
export const logLines = (output: string): Place[] =>
  output
    .split('\n')
    .filter((l) => l.trim())
    .map((text, i) => ({ kind: 'log' as const, where: `line ${i + 1}`, text }));
