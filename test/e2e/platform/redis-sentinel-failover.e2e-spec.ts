import { randomBytes } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { HttpReceiver } from '../../support/http-receiver';
import { RedisServers } from '../../support/redis-servers';
import { SseClient } from '../../support/sse';
import { until } from '../../support/until';
import { createProject, ownerWithWorkspace } from '../../support/work-items';
import { addIntegration } from '../integrations/delivery-support';

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
/** Deliveries answered before the kill; the ones after are held, in flight, until the primary is dead. */
const ANSWERED = 30;
/** Changes answered after the service is back on the promoted replica, before the stream of changes stops. */
const AFTER = 40;

const servers = new RedisServers();
const receiver = new HttpReceiver();
let primary: number;
let replica: number;
const sentinels: number[] = [];
let t: TestApp;
let stream: SseClient | null = null;

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
  await stream?.close();
  await t?.close();
  await servers.stop();
  await receiver.stop();
});

describe('Redis Sentinel failover', () => {
  it('the primary killed under load: the service follows the promoted replica; every change 200, every event delivered and streamed exactly once', async () => {
    const health = await t.api.get('/health');
    expect(health.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' }, redis: { mode: 'sentinel', name: NAME, primary: `127.0.0.1:${primary}` } });

    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    const path = `/failover/${randomBytes(4).toString('hex')}`;
    await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${path}`, secret: 'failover-secret' });
    stream = await SseClient.open(`${t.url}/events?workspaceId=${workspaceId}`, { authorization: `Bearer ${owner.token}` });
    expect(stream.status).toBe(200);

    // Held deliveries: recorded by the receiver at once, answered once the primary is dead.
    let releaseHeld!: () => void;
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    let seen = 0;
    receiver.answer((req) => (req.url.startsWith(path) && ++seen > ANSWERED ? { status: 200, hold: held } : { status: 200 }));

    // The steady stream of changes: two clients creating tasks one after the other until told to stop.
    const answers: { status: number; at: number }[] = [];
    let stop = false;
    let n = 0;
    const changes = Promise.all(
      [0, 1].map(async () => {
        while (!stop) {
          const res = await t.api.post(`/task/${project.id}`, { title: `Failover ${n++}` }, owner.token);
          answers.push({ status: res.status, at: Date.now() });
        }
      }),
    );
    // What the health check says while it happens (status, and the primary it names).
    const seenByHealth: { status: number; primary?: string; at: number }[] = [];
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const res = await t.api.get('/health');
        seenByHealth.push({ status: res.status, primary: res.body?.redis?.primary, at: Date.now() });
      }
    })();

    try {
      await receiver.waitFor(path, ANSWERED + 1, 60_000);
      const killedAt = Date.now();
      await servers.kill(primary);
      releaseHeld();
      const promoted = await until('the sentinels to promote the replica', async () => ((await primaryNamed()) === replica ? Date.now() : null), 60_000);
      const back = await until(
        'the service to report the promoted replica as its primary',
        () => seenByHealth.find((h) => h.at > killedAt && h.status === 200 && h.primary === `127.0.0.1:${replica}`),
        60_000,
      );
      await until(`${AFTER} changes answered after the service is back`, () => answers.filter((a) => a.at > back.at).length >= AFTER, 60_000);
      stop = true;
      await changes;
      watching = false;
      await watch;

      // Every change answered, none with an error: Redis is not on the write path (the outbox is in Postgres).
      expect(answers.filter((a) => a.status !== 200)).toEqual([]);
      expect(answers.filter((a) => a.at > killedAt && a.at < back.at).length).toBeGreaterThan(0);

      // Every committed event reaches the webhook once, and nothing else does.
      const committed = await sql<{ id: string; task_id: string }>(
        t.databaseUrl,
        `SELECT a.id, a.task_id FROM activity a JOIN task k ON k.id = a.task_id WHERE k.project_id = $1 AND a.type = 'created'`,
        [project.id],
      );
      expect(committed).toHaveLength(answers.length);
      const taskIds = new Set(committed.map((c) => c.task_id));
      await until(`${committed.length} deliveries`, () => new Set(receiver.to(path).map((r) => r.json.task.id)).size >= committed.length, 60_000).catch(async (err) => {
        // Say where the missing events are: still in the outbox (and why), or past it without a delivery.
        const [outbox] = await sql(t.databaseUrl, `SELECT count(*)::int AS rows, max(last_error) AS error FROM outbox`);
        throw new Error(`${(err as Error).message}; outbox: ${JSON.stringify(outbox)}`);
      });
      const received = receiver.to(path);
      const byWebhookId = new Map<string, number>();
      for (const r of received) byWebhookId.set(String(r.headers['webhook-id']), (byWebhookId.get(String(r.headers['webhook-id'])) ?? 0) + 1);
      expect([...byWebhookId.values()].filter((count) => count !== 1)).toEqual([]);
      expect(received).toHaveLength(committed.length);
      expect(new Set(received.map((r) => r.json.task.id))).toEqual(taskIds);

      // The delivery records: one per event, delivered, after one attempt that the receiver answered 200.
      const records = await sql<{ event_id: string; status: string; attempts: { statusCode: number | null }[] }>(
        t.databaseUrl,
        `SELECT event_id, status, attempts FROM delivery WHERE project_id = $1 AND target_type = 'generic-webhook'`,
        [project.id],
      );
      expect(records).toHaveLength(committed.length);
      expect(new Set(records.map((r) => r.event_id))).toEqual(new Set(committed.map((c) => c.id)));
      expect(records.filter((r) => r.status !== 'delivered' || r.attempts.length !== 1 || r.attempts[0].statusCode !== 200)).toEqual([]);

      // The event stream: every committed event once, across the failover.
      await until('every event on the stream', () => new Set(stream!.of('task.created').map((e) => e.id)).size >= committed.length, 60_000);
      const streamed = stream.of('task.created').map((e) => e.id);
      expect(streamed).toHaveLength(committed.length);
      expect(new Set(streamed)).toEqual(new Set(committed.map((c) => c.id)));

      // The rate limits count on the promoted replica (the service's keys are there, the counter of this minute is written).
      const keys = (await servers.command(replica, PASSWORD, 'KEYS', `${t.queuePrefix}:rl:*`)) as string[];
      expect(keys.length).toBeGreaterThan(0);

      const firstDown = seenByHealth.find((h) => h.at > killedAt && h.status !== 200);
      process.stderr.write(
        `\n[failover] ${answers.length} changes (${answers.filter((a) => a.at > killedAt && a.at < back.at).length} during the failover), ${committed.length} events; ` +
          `primary killed -> replica promoted ${((promoted - killedAt) / 1000).toFixed(1)} s, -> service on it ${((back.at - killedAt) / 1000).toFixed(1)} s; ` +
          `health 503 first after ${firstDown ? ((firstDown.at - killedAt) / 1000).toFixed(1) : '-'} s\n`,
      );
    } finally {
      stop = true;
      watching = false;
      releaseHeld();
      await changes;
      await watch;
    }
  });
});
