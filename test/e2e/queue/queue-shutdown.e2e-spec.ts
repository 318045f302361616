import { randomBytes } from 'node:crypto';
import { GuardedQueue, GuardedWorker } from '../../../src/queue/guarded-bullmq';
import { dropRedisKeys } from '../../support/app';
import { until } from '../../support/until';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `t_qs_${randomBytes(3).toString('hex')}`;
const { hostname, port } = new URL(redisUrl);
const connection = { host: hostname, port: Number(port || 6379) };
// Not a wait for anything: the race test below pauses for a different few milliseconds in each
// round so that close() lands at every moment of a connection's start-up.
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Timers keeping this process alive (Jest's own timeout of the running hook or test included). */
const liveTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
let timersBefore = 0;

beforeAll(() => {
  timersBefore = liveTimers();
});

afterAll(async () => {
  await dropRedisKeys(redisUrl, prefix);
  // ioredis leaves a 2 s socket-destroy timer behind for a connection closed during its start-up;
  // wait until those have run out rather than keep Jest's worker alive past the end of the run.
  await until('the closed connections\' timers to run out', () => liveTimers() <= timersBefore, 10_000);
});

/** The start-up of each BullMQ connection of a queue or worker (a worker has a second, blocking one). */
const startUps = (q: GuardedQueue | GuardedWorker): Promise<unknown>[] =>
  [(q as any).connection, (q as any).blockingConnection].filter(Boolean).map((c) => c.initializing);

describe('queues closed right after they were opened', () => {
  // BullMQ's own classes throw "Connection is closed." as an unhandled error in about one cycle
  // of four here (the connection's start-up fails after close() removed its listeners).
  it('raise no unhandled error, whenever in the start-up the close lands', async () => {
    const seen: string[] = [];
    const record = (err: unknown) => seen.push(String((err as Error)?.message ?? err));
    process.on('unhandledRejection', record);
    process.on('uncaughtException', record);
    const started: Promise<unknown>[] = [];
    try {
      for (let i = 0; i < 120; i++) {
        const q = i % 2 === 0
          ? new GuardedQueue('shutdown', { connection, prefix })
          : new GuardedWorker('shutdown', async () => undefined, { connection, prefix });
        started.push(...startUps(q));
        await pause((i % 8) / 2);
        await q.close();
        // Nothing of a closed worker may keep the process alive (its stalled-job timer is 30 s).
        if (q instanceof GuardedWorker) expect((q as any).stalledCheckerRunning).toBeFalsy();
      }
      // A failed start-up reports its error as soon as it settles; once every start-up has
      // settled, one turn of the event loop lets Node deliver any unhandled error it caused.
      await Promise.allSettled(started);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', record);
      process.off('uncaughtException', record);
    }
    expect(started).toHaveLength(180);
    expect(seen).toEqual([]);
  });
});
