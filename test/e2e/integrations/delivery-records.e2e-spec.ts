import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DELIVERY_PRUNE_LOCK, DeliveryRepository } from '../../../src/modules/delivery/delivery.repository';
import { IntegrationDeliveriesRepository } from '../../../src/modules/delivery/integrations/integration-deliveries.repository';
import { TaskEvent } from '../../../src/modules/task/task-event';
import { QueueName, TASK_EVENTS_JOB } from '../../../src/queue/queues';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { until } from '../../support/until';
import { createProject, ownerWithWorkspace } from '../../support/work-items';
import { addIntegration, deliveriesOf, deliveryById, enqueue, queueOf, rand, ScriptedReceiver } from './delivery-support';

const receiver = new ScriptedReceiver();
let t: TestApp;

beforeAll(async () => {
  await receiver.start();
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
  await receiver.stop();
});

async function board() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId, { name: 'Records' });
  return { owner, workspaceId, project };
}

/** A task event as the write path snapshots it (the fan-out reads nothing else). */
const taskEvent = (workspaceId: string, project: { id: string; name: string; slug: string }): TaskEvent => ({
  id: randomUUID(),
  kind: 'taskCreated',
  occurredAt: new Date().toISOString(),
  workspaceId,
  project: { id: project.id, name: project.name, slug: project.slug },
  task: { id: randomUUID(), number: 7, title: 'Snapshot', description: null, status: 'to-do', priority: 'no-priority', assigneeId: null },
  actor: null,
  data: { number: 7, status: 'to-do', priority: 'no-priority', userId: null },
});

describe('fan-out', () => {
  it('a re-run after a crash queues what is still pending and never writes a second delivery', async () => {
    const { owner, workspaceId, project } = await board();
    const path = `/hooks/${rand()}`;
    const integrationId = await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${path}` });
    const repo = t.running.app.get(IntegrationDeliveriesRepository);
    const event = taskEvent(workspaceId, project);

    // A first run that wrote its rows and stopped before queueing the jobs.
    const [first] = await repo.fanOut(workspaceId, event);
    expect(first.target_type).toBe('generic-webhook');
    expect(receiver.to(path)).toEqual([]);

    // The run again, as the event's job (job id = event id, as the write path's outbox row).
    await enqueue(t, { queue: QueueName.TaskEvents, name: event.kind, payload: { ...event }, id: event.id });
    const [req] = await receiver.waitFor(path, 1);
    expect(req.headers['webhook-id']).toBe(first.id);
    const delivered = await until('the delivery recorded', async () => {
      const d = await deliveryById(t, first.id);
      return d?.status === 'delivered' && d;
    });
    expect(delivered).toMatchObject({ event_id: event.id, event: 'task.created', target_type: 'generic-webhook', target_id: integrationId });
    expect(delivered.payload).toEqual(event);

    // Once delivered, a further run finds nothing to do.
    expect(await repo.fanOut(workspaceId, event)).toEqual([]);
    expect(await deliveriesOf(t, integrationId)).toHaveLength(1);
  });

  it("a packed job fans out every event in it, to each event's own project; one unreadable event fails the job for good, the others are delivered", async () => {
    const a = await board();
    const b = await board();
    const pathA = `/hooks/${rand()}`;
    const pathB = `/hooks/${rand()}`;
    await addIntegration(t, a.owner.token, a.project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${pathA}` });
    await addIntegration(t, b.owner.token, b.project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${pathB}` });
    const events = [taskEvent(a.workspaceId, a.project), taskEvent(b.workspaceId, b.project), taskEvent(a.workspaceId, a.project)];
    const unreadable = { ...taskEvent(a.workspaceId, a.project), project: { id: 'not-a-uuid' } };
    const queue = queueOf(t, QueueName.TaskEvents);
    try {
      const job = await queue.add(TASK_EVENTS_JOB, { events: [events[0], unreadable, events[1], events[2]] });
      const toA = await receiver.waitFor(pathA, 2);
      const [toB] = await receiver.waitFor(pathB, 1);
      expect(toA).toHaveLength(2);
      const delivered = await sql(t.databaseUrl, `SELECT event_id, project_id FROM delivery WHERE event_id = ANY($1::uuid[]) ORDER BY project_id`, [events.map((e) => e.id)]);
      expect(delivered).toHaveLength(3);
      for (const e of events) expect(delivered).toContainEqual({ event_id: e.id, project_id: e.project.id });
      expect(toB.headers['webhook-id']).toEqual(expect.any(String));
      await until('the job to fail', async () => (await job.getState()) === 'failed');
      expect((await queue.getJob(job.id!))!.failedReason).toBe(`Not a task event: 1 of 4 in job ${job.id} (events)`);
      expect(await sql(t.databaseUrl, `SELECT 1 FROM delivery WHERE event_id = $1`, [unreadable.id])).toEqual([]);
    } finally {
      await queue.close();
    }
  });

  it('an event of a project without integrations writes nothing', async () => {
    const { workspaceId, project } = await board();
    const repo = t.running.app.get(IntegrationDeliveriesRepository);
    const event = taskEvent(workspaceId, project);
    expect(await repo.fanOut(workspaceId, event)).toEqual([]);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM delivery WHERE event_id = $1`, [event.id])).toEqual([]);
  });
});

describe('reading and recording many deliveries in one statement', () => {
  it('answers each id in order (undefined when gone or not a uuid) and records attempts per delivery in the order given', async () => {
    const { workspaceId, project } = await board();
    const targetId = randomUUID();
    const pending = async () => {
      const [row] = await sql(
        t.databaseUrl,
        `INSERT INTO delivery (workspace_id, project_id, event_id, event, target_type, target_id, payload)
         VALUES ($1, $2, gen_random_uuid(), 'task.created', 'generic-webhook', $3, $4) RETURNING id`,
        [workspaceId, project.id, targetId, JSON.stringify(taskEvent(workspaceId, project))],
      );
      return row.id as string;
    };
    const [a, b, c] = [await pending(), await pending(), await pending()];
    const repo = t.running.app.get(IntegrationDeliveriesRepository);
    const records = t.running.app.get(DeliveryRepository);

    const read = await repo.withTargets([b, randomUUID(), 'not-a-uuid', a]);
    expect(read.map((d) => d?.id)).toEqual([b, undefined, undefined, a]);
    // The integration is not there: its columns are null.
    expect(read[0]).toMatchObject({ status: 'pending', target_id: targetId, integration_id: null });

    const attempt = (statusCode: number | null, error: string | null) => ({ at: new Date().toISOString(), statusCode, durationMs: 3, error });
    await records.recordAttempts([
      { deliveryIds: [a], attempt: attempt(503, 'HTTP 503'), status: 'pending' },
      { deliveryIds: [b], attempt: attempt(400, 'HTTP 400'), status: 'failed' },
      { deliveryIds: [a], attempt: attempt(200, null), status: 'delivered' },
    ]);
    const [ra, rb, rc] = [(await deliveryById(t, a))!, (await deliveryById(t, b))!, (await deliveryById(t, c))!];
    expect(ra.status).toBe('delivered');
    expect(ra.attempts.map((x) => x.statusCode)).toEqual([503, 200]);
    expect(ra.delivered_at).not.toBeNull();
    expect(rb).toMatchObject({ status: 'failed', delivered_at: null });
    expect(rb.attempts).toEqual([expect.objectContaining({ statusCode: 400, error: 'HTTP 400' })]);
    expect(rc).toMatchObject({ status: 'pending', attempts: [] });
  });
});

describe('a target that changed after the fan-out', () => {
  /** A pending delivery of `event` to `targetId`, written as the fan-out would, and its job. */
  async function pendingDelivery(workspaceId: string, projectId: string, targetId: string, event: TaskEvent): Promise<string> {
    const [d] = await sql(
      t.databaseUrl,
      `INSERT INTO delivery (workspace_id, project_id, event_id, event, target_type, target_id, payload)
       VALUES ($1, $2, $3, 'task.created', 'teamchat', $4, $5) RETURNING id`,
      [workspaceId, projectId, event.id, targetId, JSON.stringify(event)],
    );
    await enqueue(t, { queue: 'deliver-teamchat', name: 'deliver', payload: { deliveryId: d.id }, id: d.id });
    return d.id;
  }

  it('an integration deactivated or deleted meanwhile: the delivery fails with the reason, nothing is sent', async () => {
    const { owner, workspaceId, project } = await board();
    const path = `/teamchat/${rand()}`;
    const inactive = await addIntegration(t, owner.token, project.id, { type: 'teamchat', webhookUrl: `${receiver.url}${path}`, isActive: false });
    const event = taskEvent(workspaceId, project);
    const toInactive = await pendingDelivery(workspaceId, project.id, inactive, event);
    const toRemoved = await pendingDelivery(workspaceId, project.id, randomUUID(), event);

    for (const [id, error] of [
      [toInactive, 'Integration inactive'],
      [toRemoved, 'Integration removed'],
    ]) {
      const d = await until(`the ${error} delivery to fail`, async () => {
        const r = await deliveryById(t, id);
        return r?.status === 'failed' && r;
      });
      expect(d.attempts).toEqual([{ at: expect.any(String), statusCode: null, durationMs: 0, error }]);
    }
    expect(receiver.to(path)).toEqual([]);
  });
});

describe('pruning', () => {
  it('deletes delivered and failed records older than 7 days, keeps newer and pending ones; one pruner at a time', async () => {
    const { workspaceId, project } = await board();
    const targetId = randomUUID();
    const event = taskEvent(workspaceId, project);
    const add = async (status: string, ageDays: number, deliveredAgeDays: number | null = null) => {
      const [row] = await sql(
        t.databaseUrl,
        `INSERT INTO delivery (workspace_id, project_id, event_id, event, target_type, target_id, payload, status, created_at, delivered_at)
         VALUES ($1, $2, gen_random_uuid(), 'task.created', 'generic-webhook', $3, $4, $5, now() - make_interval(days => $6), now() - make_interval(days => $7))
         RETURNING id`,
        [workspaceId, project.id, targetId, JSON.stringify(event), status, ageDays, deliveredAgeDays],
      );
      return row.id as string;
    };
    const old = {
      delivered: await add('delivered', 8, 8),
      failed: await add('failed', 30),
    };
    const kept = {
      pending: await add('pending', 30),
      recentDelivered: await add('delivered', 6, 6),
      recentFailed: await add('failed', 1),
      redeliveredLately: await add('delivered', 9, 2),
    };
    const remaining = async () => (await sql(t.databaseUrl, `SELECT id FROM delivery WHERE target_id = $1`, [targetId])).map((r) => r.id).sort();
    const repo = t.running.app.get(DeliveryRepository);

    // Another worker pruning right now (it holds the lock): this one steps aside.
    const other = new Client({ connectionString: t.databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock($1::bigint)', [DELIVERY_PRUNE_LOCK]);
      expect(await repo.pruneFinished()).toBeNull();
      expect(await remaining()).toEqual([...Object.values(old), ...Object.values(kept)].sort());
      await other.query('COMMIT');
    } finally {
      await other.end();
    }

    expect(await repo.pruneFinished()).toBe(2);
    expect(await remaining()).toEqual(Object.values(kept).sort());
  });
});
