import Redis, { Cluster, RedisOptions } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import { maskPassword } from '../startup/net';
import { redisOptionsFromUrl } from './redis-options';

/**
 * A Redis connection of the service. With a Cluster it is an ioredis Cluster, which answers the
 * same commands the service sends (single-key commands, scripts and pipelines whose keys share the
 * installation's hash tag, XREAD over streams of that tag), so callers use one type for both.
 */
export type RedisClient = Redis;

/**
 * After a failover a connection can still be open to the former primary (demoted, not killed):
 * every write then fails with READONLY. Reconnecting asks the sentinels again, which name the new
 * primary; 2 also resends the command that failed.
 */
const reconnectOnReadonly = (err: Error): 2 | false => (err.message.startsWith('READONLY') ? 2 : false);

/**
 * ioredis options for one server (REDIS_URL) or a Sentinel-managed primary (REDIS_SENTINELS,
 * REDIS_SENTINEL_NAME), plus `extra`; BullMQ takes these. Not for a Cluster: clusterClient().
 */
export function redisOptions(config: Pick<AppConfig, 'redis' | 'redisUrl'>, extra: RedisOptions = {}): RedisOptions {
  const target = config.redis;
  if (target.mode === 'cluster') throw new Error('redisOptions: a Cluster needs clusterClient()');
  if (target.mode === 'single') return redisOptionsFromUrl(config.redisUrl, extra);
  return {
    sentinels: target.sentinels.map((s) => ({ host: s.host, port: s.port })),
    name: target.name,
    password: target.password,
    sentinelPassword: target.sentinelPassword,
    // Not ioredis's failoverDetector: its subscriptions to the sentinels outlive a quit() (BullMQ
    // closes its connections so) and keep the process alive. A lost primary drops the
    // connections anyway; a demoted one answers READONLY, below.
    reconnectOnError: reconnectOnReadonly,
    // Until the sentinels promote a replica, each attempt finds the lost primary: try again soon
    // (BullMQ's own default backs off to 20 s), so the service follows within a second of the promotion.
    retryStrategy: (times: number) => Math.min(100 * times, 1000),
    ...extra,
  };
}

/** A Cluster client over REDIS_CLUSTER_NODES; `extra` applies to each node's connection. */
export function clusterClient(config: Pick<AppConfig, 'redis'>, extra: RedisOptions = {}): Cluster {
  const target = config.redis;
  if (target.mode !== 'cluster') throw new Error('clusterClient: REDIS_CLUSTER_NODES is not set');
  const { enableOfflineQueue, lazyConnect, ...nodeOptions } = extra;
  return new Cluster(
    target.nodes.map((n) => ({ host: n.host, port: n.port })),
    {
      redisOptions: { ...nodeOptions, password: target.password },
      enableOfflineQueue: enableOfflineQueue ?? true,
      lazyConnect: lazyConnect ?? false,
    },
  );
}

/** A connection as configured: one server, the Sentinel-named primary, or a Cluster. */
export function redisClient(config: Pick<AppConfig, 'redis' | 'redisUrl'>, extra: RedisOptions = {}): RedisClient {
  if (config.redis.mode === 'cluster') return clusterClient(config, extra) as unknown as RedisClient;
  return new Redis(redisOptions(config, extra));
}

/** Where Redis is, for the log and messages: addresses and the primary's name, never a password. */
export function describeRedis(config: Pick<AppConfig, 'redis' | 'redisUrl'>): string {
  const target = config.redis;
  const list = (nodes: readonly { host: string; port: number }[]) => nodes.map((n) => `${n.host}:${n.port}`).join(',');
  if (target.mode === 'sentinel') {
    return `Sentinel primary "${target.name}" through ${list(target.sentinels)}${target.password ? ' (password ***)' : ''}${target.sentinelPassword ? ' (sentinel password ***)' : ''}`;
  }
  if (target.mode === 'cluster') return `Cluster through ${list(target.nodes)}${target.password ? ' (password ***)' : ''}`;
  return maskPassword(config.redisUrl);
}
