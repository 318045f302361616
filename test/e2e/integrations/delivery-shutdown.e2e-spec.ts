import { randomBytes } from 'node:crypto';
import { runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { launch, Launched } from '../../support/launcher';
import { until } from '../../support/until';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';
import { addIntegration, deliveriesOf, rand, ScriptedReceiver } from './delivery-support';

/**
 * The roles as production runs them: the API in this process, the worker as a process of its own
 * (the built service) that a test stops with SIGTERM. Both share the database, the queue prefix
 * and the encryption key.
 */
const ENCRYPTION_KEY = randomBytes(32).toString('hex');
const receiver = new ScriptedReceiver();
let api: TestApp;
let worker: Launched | null = null;

beforeAll(async () => {
  await receiver.start();
  api = await startTestApp({ APP_ROLES: 'api', ENCRYPTION_KEY });
});
afterAll(async () => {
  await worker?.kill('SIGKILL');
  await api?.close();
  await receiver.stop();
});

describe('a worker-only process', () => {
  it('delivers, and on SIGTERM finishes the attempt in hand and records it before it exits', async () => {
    worker = await launch({
      APP_ROLES: 'worker',
      DATABASE_URL: api.databaseUrl,
      DATABASE_POOL_SIZE: '3',
      QUEUE_PREFIX: api.queuePrefix,
      REDIS_URL: runRedisUrl(),
      ENCRYPTION_KEY,
      ALLOW_PRIVATE_DESTINATIONS: 'true',
      LOG_LEVEL: 'info',
    });
    const { owner, workspaceId } = await ownerWithWorkspace(api);
    const project = await createProject(api, owner.token, workspaceId);
    const path = `/hooks/${rand()}`;
    const integrationId = await addIntegration(api, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${path}`, secret: 'split-secret' });
    // The receiver holds its answer until the worker has begun to stop: the stop lands while the attempt is in flight.
    let release = () => undefined as void;
    const answer = new Promise<void>((resolve) => (release = resolve));
    receiver.script(path, { status: 200, hold: answer });

    await createTask(api, owner.token, project.id);
    await receiver.waitFor(path, 1);
    const running = worker;
    const exited = running.kill('SIGTERM');
    try {
      await until('the worker to begin its shutdown', () => running.output().includes('SIGTERM received, shutting down'));
    } finally {
      release();
    }
    expect(await exited).toBe(0);

    // The process is gone; what it recorded is there.
    const [d] = await deliveriesOf(api, integrationId);
    expect(d).toMatchObject({ status: 'delivered' });
    expect(d.attempts).toEqual([{ at: expect.any(String), statusCode: 200, durationMs: expect.any(Number), error: null }]);
    expect(receiver.to(path)).toHaveLength(1);
    // The log names the delivery, never the URL or the secret.
    expect(worker.output()).toContain(d.id);
    expect(worker.output()).not.toContain(path);
    expect(worker.output()).not.toContain('split-secret');
  }, 60_000);
});
