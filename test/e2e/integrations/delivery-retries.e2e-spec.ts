import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { TaskChangesRepository } from '../../../src/modules/task/task-changes.repository';
import { deliveryBackoffMs } from '../../../src/queue/queues';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { until } from '../../support/until';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';
import { addIntegration, deliveriesOf, DeliveryRow, queueOf, rand, retryDelay, runNow, ScriptedReceiver } from './delivery-support';

/**
 * Retries are not waited for: once an attempt failed, a test reads the delay BullMQ holds the job
 * for (the schedule as computed, src/queue/queues.ts deliveryBackoffMs) and promotes the job to
 * run now. No test measures time between attempts.
 */
const receiver = new ScriptedReceiver();
let t: TestApp;
let webhookQueue: Queue;

beforeAll(async () => {
  await receiver.start();
  t = await startTestApp();
  webhookQueue = queueOf(t, 'deliver-generic-webhook');
});
afterAll(async () => {
  await webhookQueue?.close();
  await t?.close();
  await receiver.stop();
});

/** A project with a generic webhook to a path of its own. */
async function hooked(events?: Record<string, boolean>) {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId);
  const path = `/hooks/${rand()}`;
  const integrationId = await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${path}`, secret: 'retry-secret', events });
  return { owner, workspaceId, project, path, integrationId };
}

/** A task event as the write path would snapshot it, for deliveries written by hand. */
const syntheticEvent = (workspaceId: string, project: { id: string; name: string; slug: string }) => ({
  id: randomUUID(),
  kind: 'taskCreated',
  occurredAt: new Date().toISOString(),
  workspaceId,
  project: { id: project.id, name: project.name, slug: project.slug },
  task: { id: randomUUID(), number: 1, title: 'By hand', description: null, status: 'to-do', priority: 'no-priority', assigneeId: null },
  actor: null,
  data: {},
});

/** The one delivery of the integration once it reached `status`. */
const settled = (integrationId: string, status: DeliveryRow['status'], attempts: number, timeoutMs = 30_000) =>
  until(
    `a ${status} delivery after ${attempts} attempt(s)`,
    async () => {
      const [d] = await deliveriesOf(t, integrationId);
      return d?.status === status && d.attempts.length === attempts && d;
    },
    timeoutMs,
  );

describe('retries and failures', () => {
  it('503, 503, then 200: delivered on the third attempt held for the computed backoff before each retry, the same webhook-id each time, three attempts recorded', async () => {
    const { owner, project, path, integrationId } = await hooked();
    receiver.script(path, { status: 503, body: 'down for maintenance' }, { status: 503 });
    await createTask(t, owner.token, project.id);
    const id = String((await receiver.waitFor(path, 1))[0].headers['webhook-id']);
    expect(await retryDelay(webhookQueue, id, 1)).toBe(deliveryBackoffMs(1));
    await runNow(webhookQueue, id);
    expect(await retryDelay(webhookQueue, id, 2)).toBe(deliveryBackoffMs(2));
    await runNow(webhookQueue, id);
    const reqs = await receiver.waitFor(path, 3);
    const d = await settled(integrationId, 'delivered', 3);
    expect(d.id).toBe(id);
    expect(reqs.map((r) => r.headers['webhook-id'])).toEqual([d.id, d.id, d.id]);
    expect(reqs[1].raw).toBe(reqs[0].raw);
    expect(reqs[2].raw).toBe(reqs[0].raw);
    expect(d.attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [503, 'HTTP 503: down for maintenance'],
      [503, 'HTTP 503'],
      [200, null],
    ]);
    expect(d.delivered_at).not.toBeNull();
  });

  it('400: exactly one attempt, the delivery fails and the job stops', async () => {
    const { owner, project, path, integrationId } = await hooked();
    receiver.script(path, { status: 400, body: { error: 'bad payload' } });
    await createTask(t, owner.token, project.id);
    const d = await settled(integrationId, 'failed', 1);
    expect(d.attempts).toEqual([{ at: expect.any(String), statusCode: 400, durationMs: expect.any(Number), error: 'HTTP 400: {"error":"bad payload"}' }]);
    expect(d.delivered_at).toBeNull();
    const job = await until('the failed job', async () => {
      const j = await webhookQueue.getJob(d.id);
      return j && (await j.getState()) === 'failed' && j;
    });
    expect(job.attemptsMade).toBe(1);
    expect(receiver.to(path)).toHaveLength(1);
  });

  it('a redirect is not followed: the 3xx fails the delivery', async () => {
    const { owner, project, path, integrationId } = await hooked();
    const elsewhere = `/hooks/${rand()}`;
    receiver.script(path, { status: 301, headers: { location: `${receiver.url}${elsewhere}` } });
    await createTask(t, owner.token, project.id);
    const d = await settled(integrationId, 'failed', 1);
    expect(d.attempts[0]).toMatchObject({ statusCode: 301, error: 'HTTP 301 (redirects are not followed)' });
    expect(receiver.to(elsewhere)).toEqual([]);
  });

  it('429 with Retry-After: 2 is retried after 2 s, not after the default 5 s', async () => {
    const { owner, project, path, integrationId } = await hooked();
    receiver.script(path, { status: 429, headers: { 'retry-after': '2' } });
    await createTask(t, owner.token, project.id);
    const id = String((await receiver.waitFor(path, 1))[0].headers['webhook-id']);
    expect(await retryDelay(webhookQueue, id, 1)).toBe(2_000);
    await runNow(webhookQueue, id);
    const d = await settled(integrationId, 'delivered', 2);
    expect(d.attempts.map((a) => a.statusCode)).toEqual([429, 200]);
  });

  it('a transient failure on the last attempt fails the delivery, and that attempt is recorded too', async () => {
    // No event wanted: the only delivery is the one written here, with a job allowed one attempt.
    const { workspaceId, project, path, integrationId } = await hooked({});
    receiver.script(path, { status: 503 });
    const [d] = await sql(
      t.databaseUrl,
      `INSERT INTO delivery (workspace_id, project_id, event_id, event, target_type, target_id, payload)
       VALUES ($1, $2, gen_random_uuid(), 'task.created', 'generic-webhook', $3, $4) RETURNING id`,
      [workspaceId, project.id, integrationId, JSON.stringify(syntheticEvent(workspaceId, project))],
    );
    await webhookQueue.add('deliver', { deliveryId: d.id }, { jobId: d.id, attempts: 1 });
    const failed = await settled(integrationId, 'failed', 1);
    expect(failed.attempts[0]).toMatchObject({ statusCode: 503, error: 'HTTP 503' });
    expect(receiver.to(path)).toHaveLength(1);
  });
});

describe('transactions', () => {
  it('a change rolled back inside its transaction sends nothing; a later committed change arrives', async () => {
    const { owner, project, path, integrationId } = await hooked({ taskTitleChanged: true });
    const task = await createTask(t, owner.token, project.id, { title: 'Kept' });
    const ds = t.running.app.get(DataSource);
    const changes = t.running.app.get(TaskChangesRepository);
    const [row] = await sql(t.databaseUrl, `SELECT * FROM task WHERE id = $1`, [task.id]);
    await expect(
      ds.transaction(async (m) => {
        const written = await changes.update(
          row,
          { set: { title: 'Lost' }, activities: [{ type: 'title_changed', content: 'x', eventData: { oldTitle: 'Kept', newTitle: 'Lost' } }] },
          owner.user.id,
          m,
        );
        expect(written?.title).toBe('Lost');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');

    expect((await t.api.put(`/task/title/${task.id}`, { title: 'Committed' }, owner.token)).status).toBe(200);
    const [req] = await receiver.waitFor(path, 1);
    expect(req.json.data).toEqual({ oldTitle: 'Kept', newTitle: 'Committed' });
    await settled(integrationId, 'delivered', 1);
    // The rolled-back change wrote no event, so no delivery exists for it and none can come.
    expect((await deliveriesOf(t, integrationId)).map((d) => d.payload.data)).toEqual([{ oldTitle: 'Kept', newTitle: 'Committed' }]);
    expect(receiver.to(path)).toHaveLength(1);
  });
});
