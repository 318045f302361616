import { randomBytes } from 'node:crypto';
import { runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { HttpReceiver, ReceivedRequest } from '../../support/http-receiver';
import { Launched, launchWorker } from '../../support/launcher';
import { TcpProxy } from '../../support/tcp-proxy';
import { until } from '../../support/until';
import { createProject, ownerWithWorkspace } from '../../support/work-items';
import { addIntegration, rand } from './delivery-support';

/**
 * The promises of the delivery path under failure (docs/integrations.md, "Events"): no event lost
 * while Redis is away, none lost when a worker is killed mid-burst, none invented, and one
 * delivery per event and target when workers run side by side. Processes are real and killed for
 * real; Redis is cut with a TCP proxy.
 */
jest.setTimeout(180_000);

const REDIS_URL = runRedisUrl();
const receiver = new HttpReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

/** The requests that reached `path`, by webhook-id (one id = one delivery of one event to one target). */
function byWebhookId(path: string): Map<string, ReceivedRequest[]> {
  const out = new Map<string, ReceivedRequest[]>();
  for (const r of receiver.to(path)) {
    const id = String(r.headers['webhook-id']);
    out.set(id, [...(out.get(id) ?? []), r]);
  }
  return out;
}

/** `n` task creations, `parallel` at a time; answers every response status. */
async function createTasks(t: TestApp, token: string, projectId: string, n: number, parallel = 10): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = next++; i < n; i = next++) statuses.push((await t.api.post(`/task/${projectId}`, { title: `Burst ${i}` }, token)).status);
    }),
  );
  return statuses;
}

/** A project with a generic webhook to a path of its own on the receiver. */
async function hookedProject(t: TestApp) {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId);
  const path = `/proof/${rand()}`;
  const integrationId = await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${path}`, secret: 'proof-secret' });
  return { owner, project, path, integrationId };
}

/** Ids of the task-created events that committed for the project (the history rows of type created). */
const committedEvents = async (t: TestApp, projectId: string) =>
  new Set(
    (await sql<{ id: string }>(t.databaseUrl, `SELECT a.id FROM activity a JOIN task k ON k.id = a.task_id WHERE k.project_id = $1 AND a.type = 'created'`, [projectId])).map(
      (r) => r.id,
    ),
  );

const eventIdsReceived = (path: string) => new Set(receiver.to(path).map((r) => r.json.task.id as string));

describe('Redis cut during task changes', () => {
  const proxy = new TcpProxy(new URL(REDIS_URL).hostname, Number(new URL(REDIS_URL).port || 6379));
  let t: TestApp;
  beforeAll(async () => {
    await proxy.start();
    // API and worker in one process, both on Redis through the proxy; the API rate limit is on,
    // so every request asks Redis for its count.
    t = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${proxy.port}`, RATE_LIMIT_API: '100000', OUTBOX_POLL_MS: '500' });
  });
  afterAll(async () => {
    await t?.close();
    await proxy.stop();
  });

  it('all 50 changes answer 200 while Redis is away; once it is back each of the 50 events reaches the target exactly once', async () => {
    const { owner, project, path } = await hookedProject(t);
    await proxy.cut();
    const statuses = await createTasks(t, owner.token, project.id, 50);
    expect(statuses).toEqual(Array(50).fill(200));
    // Nothing can have left while Redis was away: the events wait in the outbox.
    expect(receiver.to(path)).toHaveLength(0);
    const waiting = await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM outbox WHERE queue = 'task-events' AND payload->'project'->>'id' = $1`, [project.id]);
    expect(waiting[0].n).toBe(50);

    await proxy.restore();
    await until('50 deliveries', () => byWebhookId(path).size >= 50, 60_000);
    const received = byWebhookId(path);
    expect(received.size).toBe(50);
    expect([...received.values()].every((requests) => requests.length === 1)).toBe(true);
    expect(new Set(receiver.to(path).map((r) => r.json.task.id)).size).toBe(50);
  });
});

describe('worker processes', () => {
  const ENCRYPTION_KEY = randomBytes(32).toString('hex');
  let api: TestApp;
  const workers: Launched[] = [];
  const startWorker = async () => {
    const w = await launchWorker(api, ENCRYPTION_KEY, { ALLOW_PRIVATE_DESTINATIONS: 'true' });
    workers.push(w);
    return w;
  };
  beforeAll(async () => {
    api = await startTestApp({ APP_ROLES: 'api', ENCRYPTION_KEY });
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.kill('SIGKILL')));
  });
  afterAll(() => api?.close());

  it('a worker killed with SIGKILL in the middle of 200 deliveries, then started again: every committed event arrives, nothing else does', async () => {
    const { owner, project, path } = await hookedProject(api);
    // The receiver answers the first ANSWERED requests to the path at once and holds every later
    // one (recorded, not answered) until the worker is dead: the kill lands mid-stream by
    // construction, with deliveries in flight and the rest still queued, however fast the machine.
    const ANSWERED = 40;
    let releaseHeld!: () => void;
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    let seen = 0;
    receiver.answer((req) => (req.url.startsWith(path) && ++seen > ANSWERED ? { status: 200, hold: held } : { status: 200 }));
    try {
      const first = await startWorker();
      const statuses = await createTasks(api, owner.token, project.id, 200);
      expect(statuses).toEqual(Array(200).fill(200));
      // The condition for the kill: ANSWERED requests answered and at least one more in flight, held.
      await receiver.waitFor(path, ANSWERED + 1, 60_000);
      await first.kill('SIGKILL');
      const beforeRestart = eventIdsReceived(path).size;
      expect(beforeRestart).toBeLessThan(200);
      // The dead worker recorded no delivery it had no answer for.
      const deliveredBefore = await sql<{ n: number }>(api.databaseUrl, `SELECT count(*)::int AS n FROM delivery WHERE project_id = $1 AND status = 'delivered'`, [project.id]);
      expect(deliveredBefore[0].n).toBeLessThanOrEqual(ANSWERED);
    } finally {
      // From now on every request is answered at once; the held ones' connections died with the worker.
      receiver.answer({ status: 200 });
      releaseHeld();
    }

    await startWorker();
    await until('every event delivered after the restart', () => eventIdsReceived(path).size >= 200, 150_000);
    const committed = await committedEvents(api, project.id);
    expect(committed.size).toBe(200);
    // Every committed event arrived (at least once), and every request was one of them.
    const received = byWebhookId(path);
    const eventIds = new Set(receiver.to(path).map((r) => r.json.task.id));
    expect(eventIds.size).toBe(200);
    const tasks = new Set((await sql<{ id: string }>(api.databaseUrl, `SELECT id FROM task WHERE project_id = $1`, [project.id])).map((r) => r.id));
    expect([...eventIds].every((id) => tasks.has(id))).toBe(true);
    expect(received.size).toBe(200);
    // An attempt is recorded once the receiver's answer is back, a moment after the request arrived.
    const recorded = async () => sql(api.databaseUrl, `SELECT status, count(*)::int AS n FROM delivery WHERE project_id = $1 GROUP BY status`, [project.id]);
    await until('every delivery recorded', async () => (await recorded()).every((r) => r.status !== 'pending'), 30_000);
    expect(await recorded()).toEqual([{ status: 'delivered', n: 200 }]);
  });

  it('two workers side by side: each event reaches each target once', async () => {
    const { owner, project, path } = await hookedProject(api);
    const second = await hookedProject(api);
    // A second target on the same project: the other integration type pointed at its own path.
    const chatPath = `/proof-chat/${rand()}`;
    await addIntegration(api, owner.token, project.id, { type: 'teamchat', webhookUrl: `${receiver.url}${chatPath}` });
    await Promise.all([startWorker(), startWorker()]);
    const statuses = await createTasks(api, owner.token, project.id, 100);
    expect(statuses).toEqual(Array(100).fill(200));
    await until('100 deliveries to each target', () => byWebhookId(path).size >= 100 && receiver.to(chatPath).length >= 100, 60_000);
    const received = byWebhookId(path);
    expect(received.size).toBe(100);
    expect([...received.values()].every((requests) => requests.length === 1)).toBe(true);
    expect(receiver.to(chatPath)).toHaveLength(100);
    // Another project's target hears nothing of these.
    expect(receiver.to(second.path)).toHaveLength(0);
  });
});
