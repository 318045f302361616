import { randomBytes } from 'node:crypto';
import { GuardedQueue, GuardedWorker } from '../../src/queue/guarded-bullmq';
import { dropRedisKeys } from '../support/app';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `t_qs_${randomBytes(3).toString('hex')}`;
const { hostname, port } = new URL(redisUrl);
const connection = { host: hostname, port: Number(port || 6379) };
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterAll(async () => {
  await dropRedisKeys(redisUrl, prefix);
  // ioredis gives each socket it closed before connecting 2 s to finish; let those timers run
  // out here rather than keep Jest's worker alive past the end of the run.
  await pause(2_100);
});

describe('queues closed right after they were opened', () => {
  // BullMQ's own classes throw "Connection is closed." as an unhandled error in about one cycle
  // of four here (the connection's start-up fails after close() removed its listeners).
  it('raise no unhandled error, whenever in the start-up the close lands', async () => {
    const seen: string[] = [];
    const record = (err: unknown) => seen.push(String((err as Error)?.message ?? err));
    process.on('unhandledRejection', record);
    process.on('uncaughtException', record);
    try {
      for (let i = 0; i < 120; i++) {
        const q = i % 2 === 0
          ? new GuardedQueue('shutdown', { connection, prefix })
          : new GuardedWorker('shutdown', async () => undefined, { connection, prefix });
        await pause((i % 8) / 2);
        await q.close();
        // Nothing of a closed worker may keep the process alive (its stalled-job timer is 30 s).
        if (q instanceof GuardedWorker) expect((q as any).stalledCheckerRunning).toBeFalsy();
      }
      await pause(300);
    } finally {
      process.off('unhandledRejection', record);
      process.off('uncaughtException', record);
    }
    expect(seen).toEqual([]);
  });
});
