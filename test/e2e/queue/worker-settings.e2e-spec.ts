import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { EmailProcessor } from '../../../src/modules/mail/email.processor';
import { QueueName, QUEUES } from '../../../src/queue/queues';
import { redisOptionsFromUrl } from '../../../src/redis/redis-options';
import { runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { launch } from '../../support/launcher';
import { until } from '../../support/until';

const REDIS_URL = runRedisUrl();

/** Per-queue concurrency from QUEUE_CONCURRENCY (docs/decisions-local.md, "Queued jobs"). */
describe('QUEUE_CONCURRENCY', () => {
  let t: TestApp;
  let queue: Queue;
  beforeAll(async () => {
    t = await startTestApp({ QUEUE_CONCURRENCY: 'email=2,deliver-generic-webhook=64', SMTP_HOST: undefined });
    queue = new Queue(QueueName.Email, { connection: redisOptionsFromUrl(REDIS_URL), prefix: `${t.queuePrefix}:bull` });
  });
  afterAll(async () => {
    await queue?.close();
    await t?.close();
  });

  it('the email worker runs with the configured concurrency, not the default, and takes jobs', async () => {
    expect(QUEUES[QueueName.Email].concurrency).not.toBe(2);
    const worker = t.running.app.get(EmailProcessor).worker;
    expect(worker.concurrency).toBe(2);
    expect(worker.isRunning()).toBe(true);
    // A job for an invitation that does not exist: skipped (no SMTP), but taken and finished.
    const job = await queue.add('invitation', { invitationId: randomUUID(), send: 1 });
    const done = await until('the job to finish', async () => {
      const j = await queue.getJob(job.id!);
      return j?.finishedOn ? j : null;
    });
    expect(done.returnvalue).toEqual({ skipped: 'smtp-not-configured' });
  });
});

describe('a bad QUEUE_CONCURRENCY', () => {
  it('stops start-up of the process with a message naming the variable and the problem', async () => {
    await expect(launch({ APP_ROLES: 'worker', QUEUE_CONCURRENCY: 'emails=4', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/never' })).rejects.toThrow(
      /exited before starting:[\s\S]*QUEUE_CONCURRENCY: unknown queue "emails" \(queues: email, task-events, deliver-messenger/,
    );
    await expect(launch({ APP_ROLES: 'worker', QUEUE_CONCURRENCY: 'email=0', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/never' })).rejects.toThrow(
      /QUEUE_CONCURRENCY: email=0: the count must be a whole number from 1 to 1000/,
    );
  });
});
