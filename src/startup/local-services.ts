import type { AppConfig } from '../config/app-config';
import { databaseName } from '../database/migrate';
import { describeRedis } from '../redis/redis-connection';
import { LocalServer, startEmbeddedPostgres } from './embedded-postgres';
import { startLocalRedis } from './local-redis';
import { addressOf, answers, maskPassword } from './net';
import { StartupError } from './startup-error';

export interface LocalServices {
  /** The configuration to run with: the local servers' URLs in place of the defaults they replace. */
  config: AppConfig;
  /**
   * For the log, one line per server in use and where it came from (set by DATABASE_URL /
   * REDIS_URL, found at the default address, or started here), passwords masked; plus what the
   * embedded Postgres said while starting (e.g. that it created its cluster).
   */
  notices: string[];
  /** Stops the servers this process started (after the service has closed its connections). */
  stop(): Promise<void>;
}

/**
 * Two commands on a fresh machine (docs/decisions-local.md, "Local Postgres and Redis"): outside
 * production, when DATABASE_URL is not set and no Postgres answers at the default address, a
 * real Postgres from the embedded-postgres package serves from `<TANDEM_DATA_DIR>/postgres`;
 * when REDIS_URL is not set and nothing answers at the default address, a redis-server from the
 * PATH serves from `<TANDEM_DATA_DIR>/redis`. Set variables are never replaced: a configured
 * server that does not answer is reported by checkServices (src/startup/checks.ts).
 */
export async function startLocalServices(config: AppConfig, opts: { redis?: boolean } = {}): Promise<LocalServices> {
  const started: LocalServer[] = [];
  const notices: string[] = [];
  const log = (line: string) => notices.push(line);
  let stopping: Promise<void> | null = null;
  // Last started, first stopped; the service has closed its connections by then.
  const stop = () =>
    (stopping ??= (async () => {
      for (const server of [...started].reverse()) await server.stop().catch(() => undefined);
    })());
  let { databaseUrl, redisUrl } = config;
  const local = config.nodeEnv !== 'production';
  try {
    const db = addressOf(config.databaseUrl);
    if (local && config.unsetUrls.database && !(await answers(db.host, db.port))) {
      const lead = `DATABASE_URL is not set and no Postgres answers at ${db.text}, so Tandem tries to start its embedded Postgres.`;
      const pg = await startEmbeddedPostgres({ dataDir: config.dataDir, database: databaseName(config.databaseUrl), log }).catch((err) => {
        throw err instanceof StartupError ? new StartupError(`${lead} ${err.message}`) : err;
      });
      started.push(pg);
      databaseUrl = pg.url;
      notices.push(
        `DATABASE_URL is not set and no Postgres answers at ${db.text}: using ${pg.owned ? 'the embedded Postgres it started' : 'the embedded Postgres already running'} ` +
          `(${maskPassword(pg.url)}, pid ${pg.pid}, data in ${pg.dataDir}${pg.owned ? ', stopped with the service' : ', left running'}). ` +
          'Set DATABASE_URL to use your own Postgres.',
      );
    }
    if (!config.unsetUrls.database) notices.push(`Postgres: ${maskPassword(config.databaseUrl)} (set by DATABASE_URL)`);
    else if (databaseUrl === config.databaseUrl) notices.push(`Postgres: ${maskPassword(databaseUrl)} (found at the default address; DATABASE_URL is not set)`);
    const redis = addressOf(config.redisUrl);
    if (local && opts.redis !== false && config.unsetUrls.redis && !(await answers(redis.host, redis.port))) {
      const lead = `REDIS_URL is not set and no Redis answers at ${redis.text}, so Tandem tries to start a local redis-server.`;
      const server = await startLocalRedis({ dataDir: config.dataDir }).catch((err) => {
        throw err instanceof StartupError ? new StartupError(`${lead} ${err.message}`) : err;
      });
      started.push(server);
      redisUrl = server.url;
      notices.push(
        `REDIS_URL is not set and no Redis answers at ${redis.text}: using ${server.owned ? 'the local redis-server it started' : 'the local redis-server already running'} ` +
          `(${maskPassword(server.url)}, pid ${server.pid}, data in ${server.dataDir}${server.owned ? ', stopped with the service' : ', left running'}). ` +
          'Set REDIS_URL to use your own Redis.',
      );
    }
    if (opts.redis !== false) {
      if (config.redis.mode !== 'single')
        notices.push(`Redis: ${describeRedis(config)} (set by ${config.redis.mode === 'sentinel' ? 'REDIS_SENTINELS' : 'REDIS_CLUSTER_NODES'}; REDIS_URL is not used)`);
      else if (!config.unsetUrls.redis) notices.push(`Redis: ${maskPassword(config.redisUrl)} (set by REDIS_URL)`);
      else if (redisUrl === config.redisUrl) notices.push(`Redis: ${maskPassword(redisUrl)} (found at the default address; REDIS_URL is not set)`);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { config: Object.freeze({ ...config, databaseUrl, redisUrl }), notices, stop };
}
