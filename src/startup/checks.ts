import type { Cluster } from 'ioredis';
import { Client } from 'pg';
import type { AppConfig } from '../config/app-config';
import { describeRedis, redisClient } from '../redis/redis-connection';
import { addressOf, maskPassword } from './net';
import { StartupError } from './startup-error';

const TIMEOUT_MS = 5_000;

/** Why a connection failed, in words (Node's and the servers' codes). */
function reason(err: any, host: string): string {
  const code = err?.code ?? err?.errno;
  const message = String(err?.message ?? err);
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message)) return 'nothing accepts connections there (connection refused)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || /ENOTFOUND|EAI_AGAIN/.test(message)) return `the host name ${host} does not resolve`;
  if (['ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code) || /timeout|timed out|ETIMEDOUT/i.test(message)) return `no answer within ${TIMEOUT_MS / 1000} s`;
  if (code === '28P01' || code === '28000' || /NOAUTH|WRONGPASS|invalid password|password authentication failed/i.test(message)) return `the server refused to log in (${message})`;
  return message.replace(/\.+$/, '');
}

function source(name: string, url: string, unset: boolean, production: boolean): string {
  if (!unset) return `${name} is ${maskPassword(url)}`;
  return `${name} is not set, so Tandem tried the default ${maskPassword(url)}${production ? ' (in production it starts no server of its own)' : ''}`;
}

async function databaseProblem(config: AppConfig): Promise<string | null> {
  const client = new Client({ connectionString: config.databaseUrl, connectionTimeoutMillis: TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return null;
  } catch (err: any) {
    if (err?.code === '3D000') return null; // the database does not exist yet: start-up creates it
    const at = addressOf(config.databaseUrl);
    const ways = [
      `start Postgres at ${at.text}, or set DATABASE_URL=postgres://user:password@host:port/database to a Postgres that runs`,
      ...(config.nodeEnv !== 'production' && !config.unsetUrls.database
        ? ['unset DATABASE_URL: Tandem then uses a Postgres at 127.0.0.1:5432, or starts its embedded one when nothing answers there']
        : []),
      'or run docker compose up -d postgres and set DATABASE_URL=postgres://tandem:tandem@127.0.0.1:5432/tandem',
    ];
    return `Cannot use Postgres at ${at.text}: ${reason(err, at.host)}. ${source('DATABASE_URL', config.databaseUrl, config.unsetUrls.database, config.nodeEnv === 'production')}. Ways forward:\n${ways.map((w) => `  - ${w}`).join(';\n')}.`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function redisProblem(config: AppConfig): Promise<string | null> {
  // Fail fast: one attempt, no reconnection (through the sentinels or the Cluster's nodes alike).
  const redis = redisClient(config, {
    lazyConnect: true,
    retryStrategy: () => null,
    sentinelRetryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: TIMEOUT_MS,
  });
  if (config.redis.mode === 'cluster') (redis as unknown as Cluster).options.clusterRetryStrategy = () => null;
  // connect() rejects with "Connection is closed." once ioredis gives up; the cause came as 'error'.
  let cause: Error | undefined;
  redis.on('error', (err) => (cause ??= err));
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (thrown: any) {
    const err = cause ?? thrown;
    if (config.redis.mode !== 'single') {
      const variables = config.redis.mode === 'sentinel' ? 'REDIS_SENTINELS, REDIS_SENTINEL_NAME' : 'REDIS_CLUSTER_NODES';
      return `Cannot use Redis (${describeRedis(config)}): ${String(err?.message ?? err).replace(/\.+$/, '')}. Check ${variables} and REDIS_PASSWORD${config.redis.mode === 'sentinel' ? ', REDIS_SENTINEL_PASSWORD' : ''} (docs/scaling.md, "Redis").`;
    }
    const at = addressOf(config.redisUrl);
    const ways = [
      `start Redis at ${at.text}, or set REDIS_URL=redis://host:port to a Redis that runs`,
      ...(config.nodeEnv !== 'production' && !config.unsetUrls.redis
        ? ['unset REDIS_URL: Tandem then uses a Redis at 127.0.0.1:6379, or starts a local redis-server from the PATH when nothing answers there']
        : []),
      'or run docker compose up -d redis (it answers on 127.0.0.1:6379)',
    ];
    return `Cannot use Redis at ${at.text}: ${reason(err, at.host)}. ${source('REDIS_URL', config.redisUrl, config.unsetUrls.redis, config.nodeEnv === 'production')}. Ways forward:\n${ways.map((w) => `  - ${w}`).join(';\n')}.`;
  } finally {
    // disconnect() on a client that already ended would leave ioredis's socket timer behind.
    if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
    else if (redis.status !== 'end') redis.disconnect();
  }
}

/**
 * At start-up, before anything else uses them: the database and (unless `redis: false`) Redis
 * must answer. Each one that does not is described (the variable, the address, why, and what to
 * try) in one StartupError, so a newcomer reads what to do instead of a stack trace.
 */
export async function checkServices(config: AppConfig, opts: { redis?: boolean } = {}): Promise<void> {
  const problems = await Promise.all([databaseProblem(config), opts.redis === false ? null : redisProblem(config)]);
  const found = problems.filter((p): p is string => !!p);
  if (found.length) throw new StartupError(found.join('\n\n'));
}
