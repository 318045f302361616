import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { GuardedQueue, GuardedWorker } from '../../../src/queue/guarded-bullmq';
import { OUTBOX_LISTENER_NAME } from '../../../src/queue/outbox-listener';
import { QueueName } from '../../../src/queue/queues';
import { redisOptionsFromUrl } from '../../../src/redis/redis-options';
import { dropRedisKeys, runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { launch, Launched } from '../../support/launcher';
import { TestSmtpServer } from '../../support/smtp';
import { HoldingProxy } from '../../support/tcp-proxy';
import { until } from '../../support/until';

const redisUrl = runRedisUrl();
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
  await until("the closed connections' timers to run out", () => liveTimers() <= timersBefore, 10_000);
});

/** The start-up of each BullMQ connection of a queue or worker (a worker has a second, blocking one). */
const startUps = (q: GuardedQueue | GuardedWorker): Promise<unknown>[] => [(q as any).connection, (q as any).blockingConnection].filter(Boolean).map((c) => c.initializing);

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
        const q = i % 2 === 0 ? new GuardedQueue('shutdown', { connection, prefix }) : new GuardedWorker('shutdown', async () => undefined, { connection, prefix });
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

/**
 * SIGTERM on a worker process (docs/decisions-local.md, "Shutdown"): the email it is sending when
 * the signal comes is sent, its job completes, and only then does the process exit (0). The SMTP
 * server sits behind a proxy that holds the connection until the test lets it through, so the job
 * is provably still in progress when the signal arrives.
 */
describe('SIGTERM on a worker process with a job in progress', () => {
  const smtp = new TestSmtpServer();
  let proxy: HoldingProxy;
  let api: TestApp;
  let queue: Queue;
  let worker: Launched | undefined;
  beforeAll(async () => {
    proxy = new HoldingProxy('127.0.0.1', await smtp.start(), { smtp: true });
    await proxy.start();
    api = await startTestApp({ APP_ROLES: 'api' });
    queue = new Queue(QueueName.Email, { connection: redisOptionsFromUrl(redisUrl), prefix: `${api.queuePrefix}:bull` });
  });
  afterAll(async () => {
    await worker?.kill('SIGKILL');
    await queue?.close();
    await api?.close();
    await proxy?.stop();
    await smtp.stop();
  });

  it('finishes the job (the email is sent, the job completes) before the process exits 0', async () => {
    worker = await launch({
      APP_ROLES: 'worker',
      DATABASE_URL: api.databaseUrl,
      DATABASE_POOL_SIZE: '2',
      QUEUE_PREFIX: api.queuePrefix,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(proxy.port),
      CLIENT_URL: 'https://client.example.test',
    });
    const owner = await api.api.signUp({ name: 'Sam Shutdown' });
    const ws = await api.api.createWorkspace(owner.token);
    const to = `shutdown.${randomBytes(4).toString('hex')}@example.test`;
    const inv = await api.api.post('/auth/organization/invite-member', { email: to, role: 'member', organizationId: ws.id }, owner.token);
    expect(inv.status).toBe(200);
    // The job's id is that of the invitation's email request (docs/decisions-local.md, "Queued emails").
    const [{ id: jobId }] = await sql(api.databaseUrl, `SELECT id FROM email_job WHERE reference->>'invitationId' = $1`, [inv.body.id]);

    // The worker is sending: connected to the SMTP server, waiting for its greeting.
    await proxy.connected();
    expect(await (await queue.getJob(jobId))!.getState()).toBe('active');

    worker.child.kill('SIGTERM');
    await until('the shutdown to begin', () => worker!.output().includes('SIGTERM received, shutting down'));
    // The relay stops first (its LISTEN connection closes), then the queue worker waits for its job.
    // Its listener only: other services on this Postgres (other test files, a benchmark) have theirs.
    await until(
      'the outbox listener to stop',
      async () => (await sql(api.databaseUrl, `SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`, [OUTBOX_LISTENER_NAME])).length === 0,
    );
    expect(worker.child.exitCode).toBeNull();
    expect(smtp.mails).toHaveLength(0);

    proxy.release();
    const [mail] = await smtp.waitFor(to);
    expect(await worker.exited).toBe(0);
    const job = (await queue.getJob(jobId))!;
    expect(await job.getState()).toBe('completed');
    expect([job.attemptsMade, job.returnvalue]).toEqual([1, { messageId: mail.parsed.messageId, smtpCode: 250 }]);
    expect(worker.output()).not.toContain('shutdown timed out');
  }, 60_000);
});
