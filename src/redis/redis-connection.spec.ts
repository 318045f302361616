import { loadConfig } from '../config/app-config';
import { describeRedis, redisOptions } from './redis-connection';

const SENTINEL = { REDIS_SENTINELS: 's1:26379, s2:26380,s3:26381', REDIS_SENTINEL_NAME: 'tandem-main', REDIS_PASSWORD: 'pr1mary', REDIS_SENTINEL_PASSWORD: 'sent1nel' };

describe('Redis settings (docs/scaling.md, "Redis")', () => {
  it('REDIS_URL alone: one server, as before', () => {
    const c = loadConfig({ REDIS_URL: 'redis://:s3cret@r:6390/2' });
    expect(c.redis).toEqual({ mode: 'single' });
    expect(redisOptions(c)).toMatchObject({ host: 'r', port: 6390, password: 's3cret', db: 2 });
    expect(describeRedis(c)).toBe('redis://:***@r:6390/2');
  });

  it('Sentinel: the sentinels, the primary name and both passwords reach every connection; the passwords never reach the description', () => {
    const c = loadConfig({ ...SENTINEL, REDIS_URL: 'redis://ignored:6379' });
    expect(c.redis).toEqual({
      mode: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26380 },
        { host: 's3', port: 26381 },
      ],
      name: 'tandem-main',
      password: 'pr1mary',
      sentinelPassword: 'sent1nel',
      waitReplicas: 1,
    });
    expect(c.unsetUrls.redis).toBe(false);
    const options = redisOptions(c, { maxRetriesPerRequest: null });
    expect(options).toMatchObject({
      sentinels: c.redis.mode === 'sentinel' ? c.redis.sentinels : [],
      name: 'tandem-main',
      password: 'pr1mary',
      sentinelPassword: 'sent1nel',
      maxRetriesPerRequest: null,
    });
    expect(options.host).toBeUndefined();
    expect(options.reconnectOnError!(new Error("READONLY You can't write against a read only replica."))).toBe(2);
    expect(options.reconnectOnError!(new Error('ERR unknown command'))).toBe(false);
    const described = describeRedis(c);
    expect(described).toBe('Sentinel primary "tandem-main" through s1:26379,s2:26380,s3:26381 (password ***) (sentinel password ***)');
    expect(described).not.toMatch(/pr1mary|sent1nel/);
    expect(loadConfig({ ...SENTINEL, REDIS_WAIT_REPLICAS: '0' }).redis).toMatchObject({ waitReplicas: 0 });
  });

  it('refuses incomplete or contradictory settings, naming the variable', () => {
    expect(() => loadConfig({ REDIS_SENTINELS: 's1:26379' })).toThrow(/REDIS_SENTINEL_NAME: is required with REDIS_SENTINELS/);
    expect(() => loadConfig({ REDIS_SENTINELS: 's1', REDIS_SENTINEL_NAME: 'x' })).toThrow(/REDIS_SENTINELS: must be a comma list of host:port/);
    expect(() => loadConfig({ REDIS_SENTINEL_NAME: 'x' })).toThrow(/REDIS_SENTINEL_NAME: is used only with REDIS_SENTINELS/);
    expect(() => loadConfig({ REDIS_PASSWORD: 'x' })).toThrow(/REDIS_PASSWORD: is used only with REDIS_SENTINELS or REDIS_CLUSTER_NODES/);
    expect(() => loadConfig({ ...SENTINEL, REDIS_CLUSTER_NODES: 'c1:7000' })).toThrow(/set one of them/);
    expect(() => loadConfig({ ...SENTINEL, REDIS_WAIT_REPLICAS: '11' })).toThrow(/REDIS_WAIT_REPLICAS/);
  });

  it('Cluster: needs QUEUE_PREFIX in braces, which the prefix accepts', () => {
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'c1:7000,c2:7001' })).toThrow(/QUEUE_PREFIX: must be in braces with REDIS_CLUSTER_NODES/);
    const c = loadConfig({ REDIS_CLUSTER_NODES: 'c1:7000,c2:7001', QUEUE_PREFIX: '{tandem}', REDIS_PASSWORD: 'pw' });
    expect(c.redis).toEqual({
      mode: 'cluster',
      nodes: [
        { host: 'c1', port: 7000 },
        { host: 'c2', port: 7001 },
      ],
      password: 'pw',
      waitReplicas: 1,
    });
    expect(c.queuePrefix).toBe('{tandem}');
    expect(describeRedis(c)).toBe('Cluster through c1:7000,c2:7001 (password ***)');
    expect(() => redisOptions(c)).toThrow(/Cluster/);
    expect(loadConfig({ QUEUE_PREFIX: '{tandem}' }).queuePrefix).toBe('{tandem}');
    for (const bad of ['{tandem', 'tan{dem}', '{}', 'a b']) expect(() => loadConfig({ QUEUE_PREFIX: bad })).toThrow(/QUEUE_PREFIX/);
  });
});
