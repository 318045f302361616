import { randomBytes } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';
import { failoverUnderLoad } from '../../support/failover';
import { HttpReceiver } from '../../support/http-receiver';
import { RedisServers } from '../../support/redis-servers';
import { until } from '../../support/until';

/**
 * A Redis failover under load (docs/scaling.md, "Redis"): a primary, its replica and three
 * sentinels, all real redis-server processes started here; the service (API and worker in one
 * process) reaches Redis only through the sentinels, with passwords on the servers and on the
 * sentinels. While tasks are created without pause and webhook deliveries are held in flight, the
 * primary is killed (SIGKILL); the sentinels promote the replica and the service follows it
 * without a restart. Every change answers 200, and every committed event reaches the webhook and
 * the event stream exactly once; the delivery records say so too.
 */
jest.setTimeout(180_000);

const NAME = 'tandem';
const PASSWORD = randomBytes(12).toString('hex');
const SENTINEL_PASSWORD = randomBytes(12).toString('hex');

const servers = new RedisServers();
const receiver = new HttpReceiver();
let primary: number;
let replica: number;
const sentinels: number[] = [];
let t: TestApp;

const info = async (port: number) => String(await servers.command(port, PASSWORD, 'INFO', 'replication'));
const sentinel = (port: number, ...args: string[]) => servers.command(port, SENTINEL_PASSWORD, 'SENTINEL', ...args);
/** The primary's port as every sentinel names it, or null while they disagree. */
async function primaryNamed(): Promise<number | null> {
  const ports = await Promise.all(sentinels.map(async (s) => ((await sentinel(s, 'get-master-addr-by-name', NAME)) as string[] | null)?.[1]));
  return ports.every((p) => p === ports[0]) && ports[0] ? Number(ports[0]) : null;
}

beforeAll(async () => {
  await receiver.start();
  const auth = [`requirepass ${PASSWORD}`, `masterauth ${PASSWORD}`];
  primary = await servers.start(auth, { password: PASSWORD });
  replica = await servers.start([...auth, `replicaof 127.0.0.1 ${primary}`], { password: PASSWORD });
  await until('the replica to be in sync', async () => /master_link_status:up/.test(await info(replica)), 30_000);
  for (let i = 0; i < 3; i++) {
    sentinels.push(
      await servers.start(
        [
          `sentinel monitor ${NAME} 127.0.0.1 ${primary} 2`,
          `sentinel auth-pass ${NAME} ${PASSWORD}`,
          // Fast for the test: down after 1 s without an answer; a failover that stalls is retried after 4 s.
          `sentinel down-after-milliseconds ${NAME} 1000`,
          `sentinel failover-timeout ${NAME} 4000`,
          `sentinel parallel-syncs ${NAME} 1`,
          `requirepass ${SENTINEL_PASSWORD}`,
          `sentinel sentinel-pass ${SENTINEL_PASSWORD}`,
        ],
        { sentinel: true, password: SENTINEL_PASSWORD },
      ),
    );
  }
  // Each sentinel must know the replica and the two other sentinels, or it cannot agree on a failover.
  await until(
    'the sentinels to know the replica and each other',
    async () => {
      for (const s of sentinels) {
        const [replicas, others] = await Promise.all([sentinel(s, 'replicas', NAME), sentinel(s, 'sentinels', NAME)]);
        if ((replicas as unknown[]).length !== 1 || (others as unknown[]).length !== 2) return false;
      }
      return true;
    },
    30_000,
  );
  t = await startTestApp({
    REDIS_SENTINELS: sentinels.map((p) => `127.0.0.1:${p}`).join(','),
    REDIS_SENTINEL_NAME: NAME,
    REDIS_PASSWORD: PASSWORD,
    REDIS_SENTINEL_PASSWORD: SENTINEL_PASSWORD,
    // Every request asks Redis for its rate-limit count.
    RATE_LIMIT_API: '1000000',
    OUTBOX_POLL_MS: '500',
  });
});
afterAll(async () => {
  await t?.close();
  await servers.stop();
  await receiver.stop();
});

describe('Redis Sentinel failover', () => {
  it('the primary killed under load: the service follows the promoted replica; every change 200, every event delivered and streamed exactly once', async () => {
    const health = await t.api.get('/health');
    expect(health.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' }, redis: { mode: 'sentinel', name: NAME, primary: `127.0.0.1:${primary}` } });

    const figures = await failoverUnderLoad(t, receiver, {
      kill: () => servers.kill(primary),
      promoted: async () => (await primaryNamed()) === replica,
      back: (h) => h.status === 200 && h.body.redis?.primary === `127.0.0.1:${replica}`,
    });
    expect(figures.changesMeanwhile).toBeGreaterThan(0);

    // The rate limits count on the promoted replica (the service's counters are there).
    const keys = (await servers.command(replica, PASSWORD, 'KEYS', `${t.queuePrefix}:rl:*`)) as string[];
    expect(keys.length).toBeGreaterThan(0);

    process.stderr.write(
      `\n[failover] Sentinel: ${figures.changes} changes (${figures.changesMeanwhile} during the failover); ` +
        `primary killed -> replica promoted ${figures.promotedAfter.toFixed(1)} s, -> service on it ${figures.backAfter.toFixed(1)} s\n`,
    );
  });
});
