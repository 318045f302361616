import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { bootstrap, Running } from '../../src/bootstrap';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { DB_PREFIX, TEMPLATE_DB, urlFor, withAdmin } from './db';
import { Api } from './api';

export interface TestApp {
  url: string;
  api: Api;
  running: Running;
  databaseUrl: string;
  queuePrefix: string;
  /** Closes the app only (idempotent): its HTTP server, worker and connections. */
  stop(): Promise<void>;
  /** stop(), then drops the test database and the app's Redis keys. */
  close(): Promise<void>;
}

/** Removes the Redis keys (rate limits, BullMQ queues) of one test app, after it closed. */
export async function dropRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    try {
      await redis.connect();
    } catch {
      return; // an app pointed at an unreachable Redis (a test of that) wrote no keys
    }
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    // quit() closes cleanly; disconnect() on a client whose connection failed would leave
    // ioredis's 2 s socket-destroy timer behind and hold Jest open.
    if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
    else if (redis.status !== 'end') redis.disconnect();
  }
}

/**
 * The run's Redis: REDIS_URL as the global setup left it (it starts a local redis-server when none
 * answers, test/support/local-servers.ts), else the default address. Tests that build a config of
 * their own pass it, so they never fall back to an address where nothing runs.
 */
export const runRedisUrl = (): string => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A test app's configuration: rate limits off and private destinations allowed unless `env` says otherwise. */
function testConfig(env: Record<string, string | undefined>, databaseUrl: string, queuePrefix: string): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    REDIS_URL: runRedisUrl(),
    RATE_LIMIT_AUTH: '0',
    RATE_LIMIT_INVITES: '0',
    RATE_LIMIT_API: '0',
    ALLOW_PRIVATE_DESTINATIONS: 'true',
    ...env,
    PORT: '0',
    DATABASE_URL: databaseUrl,
    QUEUE_PREFIX: queuePrefix,
    DATABASE_POOL_SIZE: env.DATABASE_POOL_SIZE ?? '5',
    // A peer app (same prefix) shares its files, as the API processes of one installation do.
    STORAGE_DIR: env.STORAGE_DIR ?? testStorageDir(queuePrefix),
  });
}

/** Where a test app keeps its files (docs/files.md, local storage): one folder per app and its peers. */
export const testStorageDir = (queuePrefix: string): string => join(tmpdir(), 'tandem-test-files', queuePrefix.replace(/[{}]/g, ''));

/**
 * Boots the real application on a random port, in its own database cloned from the migrated
 * template and with its own Redis/BullMQ prefix, so test files run in parallel without sharing data.
 */
export async function startTestApp(env: Record<string, string | undefined> = {}): Promise<TestApp> {
  const id = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const db = `${DB_PREFIX}${id}`;
  await withAdmin((c) => c.query(`CREATE DATABASE "${db}" TEMPLATE "${TEMPLATE_DB}"`));
  const databaseUrl = urlFor(db);
  // A Redis Cluster wants the prefix as a hash tag, so that every queue's keys share a slot (docs/scaling.md, "Cluster").
  const queuePrefix = env.REDIS_CLUSTER_NODES ? `{t_${id}}` : `t_${id}`;
  const config = testConfig(env, databaseUrl, queuePrefix);
  const app = await bootApp(config, databaseUrl, queuePrefix);
  return {
    ...app,
    async close() {
      await app.stop();
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`));
      await dropRedisKeys(config.redisUrl, queuePrefix);
      await rm(testStorageDir(queuePrefix), { recursive: true, force: true });
    },
  };
}

async function bootApp(config: AppConfig, databaseUrl: string, queuePrefix: string): Promise<TestApp> {
  const running = await bootstrap(config, { host: '127.0.0.1', migrate: false });
  const url = `${running.url}/api`;
  let stopping: Promise<void> | null = null;
  const stop = () => (stopping ??= running.close());
  return { url, api: new Api(url), running, databaseUrl, queuePrefix, stop, close: stop };
}

/**
 * A second instance of `t`'s service: the same database and Redis prefix (so the same rate-limit
 * counters and queues), as a second API process of one installation. Its close() only stops it;
 * `t.close()` drops what they share.
 */
export async function startPeerApp(t: TestApp, env: Record<string, string | undefined> = {}): Promise<TestApp> {
  const config = testConfig(env, t.databaseUrl, t.queuePrefix);
  return bootApp(config, t.databaseUrl, t.queuePrefix);
}
