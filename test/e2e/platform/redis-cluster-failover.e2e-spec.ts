import { randomBytes } from 'node:crypto';
import { Cluster } from 'ioredis';
import { GuardedQueue, GuardedWorker } from '../../../src/queue/guarded-bullmq';
import { startTestApp, TestApp } from '../../support/app';
import { failoverUnderLoad } from '../../support/failover';
import { HttpReceiver } from '../../support/http-receiver';
import { clusterServiceEnv, RedisServers } from '../../support/redis-servers';
import { until } from '../../support/until';

/**
 * A failover inside a Redis Cluster under load (docs/scaling.md, "Cluster"): three primaries with
 * a replica each, real redis-server processes in cluster mode started here, with a password; the
 * service (API and worker in one process) knows two of the nodes. While tasks are created without
 * pause and webhook deliveries are held in flight, the primary that serves the service's slot is
 * killed (SIGKILL); its replica takes the slot over and the service follows without a restart.
 * Every change answers 200, and every committed event reaches the webhook and the event stream
 * exactly once; the delivery records say so too. Then the service stops: its queue workers'
 * close does not wait for ever on their blocking connections (src/queue/guarded-bullmq.ts). The
 * failover sets off the reconnect that made it wait only now and then: the last two tests set it
 * off directly.
 */
jest.setTimeout(180_000);

const PASSWORD = randomBytes(12).toString('hex');
// Not a wait for anything: the reconnect tests pause a different few milliseconds in each round
// so that close() lands at every moment of the reconnect.
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const servers = new RedisServers();
const receiver = new HttpReceiver();
let nodes: number[] = [];
let t: TestApp;

beforeAll(async () => {
  await receiver.start();
  nodes = await servers.startCluster(PASSWORD);
  t = await startTestApp(clusterServiceEnv(nodes, PASSWORD));
});
afterAll(async () => {
  await t?.close();
  await servers.stop();
  await receiver.stop();
});

describe('Redis Cluster failover', () => {
  it("the primary of the service's slot killed under load: the service follows its replica; every change 200, every event delivered and streamed exactly once; then it stops", async () => {
    const key = `${t.queuePrefix}:x`;
    const { primary, replicas } = await servers.slotNodes(nodes[0], PASSWORD, key);
    expect(replicas).toHaveLength(1);
    const [replica] = replicas;
    const alive = nodes.find((p) => p !== primary && p !== replica)!;
    const health = await t.api.get('/health');
    expect(health.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' }, redis: { mode: 'cluster', primary: `127.0.0.1:${primary}` } });

    const figures = await failoverUnderLoad(t, receiver, {
      kill: () => servers.kill(primary),
      // The cluster gives the slot to the replica (as a node that stayed up says).
      promoted: async () => (await servers.slotNodes(alive, PASSWORD, key).catch(() => null))?.primary === replica,
      back: (h) => h.status === 200 && h.body.redis?.primary === `127.0.0.1:${replica}`,
    });
    expect(figures.changesMeanwhile).toBeGreaterThan(0);

    // The rate limits count on the promoted replica (the service's counters are there).
    const keys = (await servers.command(replica, PASSWORD, 'KEYS', `${t.queuePrefix}:rl:*`)) as string[];
    expect(keys.length).toBeGreaterThan(0);

    // The service stops after the failover (SIGTERM runs the same close): the queue workers let
    // their jobs finish and do not wait for ever on the blocking connections the failover left.
    const stopping = Date.now();
    const stop: { at?: number; err?: unknown } = {};
    t.stop().then(
      () => (stop.at = Date.now()),
      (err) => (stop.err = err ?? 'failed'),
    );
    await until('the service to stop after the failover', () => stop.at ?? stop.err, 60_000);
    expect(stop.err).toBeUndefined();
    const stoppedAfter = (stop.at! - stopping) / 1000;

    process.stderr.write(
      `\n[failover] Cluster: ${figures.changes} changes (${figures.changesMeanwhile} during the failover); ` +
        `primary killed -> replica promoted ${figures.promotedAfter.toFixed(1)} s, -> service on it ${figures.backAfter.toFixed(1)} s; ` +
        `health meanwhile ${JSON.stringify(figures.healthMeanwhile)}; stopped in ${stoppedAfter.toFixed(1)} s\n`,
    );
  });
});

describe('a queue worker closed while its blocking Cluster client reconnects', () => {
  // BullMQ reconnects a worker's blocking Cluster client (disconnect, then connect at once) when a
  // read on it fails with the cluster in disarray, as in a failover. A close that landed a few
  // milliseconds into that reconnect waited for ever for the client's 'end' (12 of the 20 rounds
  // of the first test below with BullMQ's own close).
  let connection: Cluster;
  let queue: GuardedQueue;
  const name = 'reconnect-close';
  beforeAll(async () => {
    // The nodes still up after the failover above.
    const up = await Promise.all(
      nodes.map((port) =>
        servers.command(port, PASSWORD, 'PING').then(
          () => port,
          () => null,
        ),
      ),
    );
    connection = new Cluster(
      up.filter((port): port is number => port !== null).map((port) => ({ host: '127.0.0.1', port })),
      { redisOptions: { password: PASSWORD, maxRetriesPerRequest: null } },
    );
    connection.on('error', () => undefined);
    queue = new GuardedQueue(name, { connection, prefix: `{t_reconnect_${randomBytes(3).toString('hex')}}:bull` });
  });
  afterAll(async () => {
    await queue?.obliterate({ force: true });
    await queue?.close();
    connection?.disconnect();
  });

  /** A worker of the queue, ready (its blocking client connected), and what BullMQ does to that client in a failover. */
  async function workerOf(processor: () => Promise<unknown>): Promise<{ worker: GuardedWorker; reconnect(): void }> {
    const worker = new GuardedWorker(name, processor, { connection, prefix: queue.opts.prefix });
    worker.on('error', () => undefined);
    const blocking = (await worker.waitUntilReady()) as unknown as Cluster;
    const reconnect = () => {
      blocking.disconnect();
      blocking.connect().catch(() => undefined);
    };
    return { worker, reconnect };
  }

  it('an idle worker stops every time, whenever in the reconnect the close lands', async () => {
    const hung: number[] = [];
    for (let i = 0; i < 20; i++) {
      const { worker, reconnect } = await workerOf(async () => undefined);
      reconnect();
      await pause(i);
      let closed = false;
      void worker.close().then(() => (closed = true));
      await until(`round ${i}: the worker to close`, () => closed, 10_000).catch(() => hung.push(i));
    }
    expect(hung).toEqual([]);
  });

  it('a worker with a job in hand stops once the job is done and recorded, not before', async () => {
    for (let i = 0; i < 10; i++) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let started = false;
      const { worker, reconnect } = await workerOf(async () => {
        started = true;
        await gate;
        return 'done';
      });
      const job = await queue.add('held', { round: i });
      await until(`round ${i}: the job to start`, () => started);
      reconnect();
      await pause(i);
      // What the close finds when it is done: the job's outcome must be in Redis by then.
      const closed = worker.close().then(async () => queue.getJob(job.id!).then((j) => j && Promise.all([j.getState(), j.returnvalue])));
      // Let a close that does not wait for the job show itself before the job ends.
      await pause(50);
      release();
      expect(await closed).toEqual(['completed', 'done']);
    }
  });
});
