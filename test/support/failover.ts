import { randomBytes } from 'node:crypto';
import { TestApp } from './app';
import { sql } from './fixtures';
import { HttpReceiver } from './http-receiver';
import { SseClient } from './sse';
import { until } from './until';
import { createProject, ownerWithWorkspace } from './work-items';
import { addIntegration } from '../e2e/integrations/delivery-support';

/** What a failover under load measured (docs/scaling.md, "Redis"). */
export interface FailoverFigures {
  changes: number;
  /** Changes answered between the kill and the service's return. */
  changesMeanwhile: number;
  /** Seconds from the kill to the promotion, and to the service working on the promoted server. */
  promotedAfter: number;
  backAfter: number;
  /** The health check's answers between the kill and the service's return, by status. */
  healthMeanwhile: Record<number, number>;
}

export interface FailoverScenario {
  /** Kills the Redis server under the service's data. */
  kill(): Promise<void>;
  /** Whether the promotion happened (asked again until it did). */
  promoted(): Promise<boolean>;
  /** Whether this health answer says the service works on the promoted server. */
  back(health: { status: number; body: any }): boolean;
}

/** Deliveries answered before the kill; the ones after are held, in flight, until the primary is dead. */
const ANSWERED = 30;
/** Changes answered after the service is back, before the stream of changes stops. */
const AFTER = 40;

/**
 * A failover under load and its proof: a project with a webhook integration and an open event
 * stream; two clients create tasks without pause; once ANSWERED deliveries went through, the
 * receiver holds the next ones (in flight) and `scenario.kill()` kills the server; the test waits
 * for the promotion and for the service to be back on it, and goes on until AFTER more changes
 * are answered. Then: every change answered 200; every committed event reached the webhook
 * exactly once (per delivery id and per task) and the event stream exactly once; one delivery
 * record per event, delivered after one attempt.
 */
export async function failoverUnderLoad(t: TestApp, receiver: HttpReceiver, scenario: FailoverScenario): Promise<FailoverFigures> {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId);
  const path = `/failover/${randomBytes(4).toString('hex')}`;
  await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${path}`, secret: 'failover-secret' });
  const stream = await SseClient.open(`${t.url}/events?workspaceId=${workspaceId}`, { authorization: `Bearer ${owner.token}` });
  expect(stream.status).toBe(200);

  // Held deliveries: recorded by the receiver at once, answered once the server is dead.
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
  // What the health check says while it happens.
  const seenByHealth: { status: number; body: any; at: number }[] = [];
  let watching = true;
  const watch = (async () => {
    while (watching) {
      const res = await t.api.get('/health');
      seenByHealth.push({ status: res.status, body: res.body, at: Date.now() });
    }
  })();

  try {
    await receiver.waitFor(path, ANSWERED + 1, 60_000);
    const killedAt = Date.now();
    await scenario.kill();
    releaseHeld();
    const promoted = await until('the promotion', async () => ((await scenario.promoted()) ? Date.now() : null), 60_000);
    const back = await until('the service to be back on the promoted server', () => seenByHealth.find((h) => h.at > killedAt && scenario.back(h)), 60_000);
    await until(`${AFTER} changes answered after the service is back`, () => answers.filter((a) => a.at > back.at).length >= AFTER, 60_000);
    stop = true;
    await changes;
    watching = false;
    await watch;

    // Every change answered, none with an error: Redis is not on the write path (the outbox is in Postgres).
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);

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
    // The worker records an attempt just after the answer: wait for the records of the last ones.
    const recordsNow = () =>
      sql<{ event_id: string; status: string; attempts: { statusCode: number | null }[] }>(
        t.databaseUrl,
        `SELECT event_id, status, attempts FROM delivery WHERE project_id = $1 AND target_type = 'generic-webhook'`,
        [project.id],
      );
    await until('no delivery record pending', async () => (await recordsNow()).every((r) => r.status !== 'pending'), 60_000);
    const records = await recordsNow();
    expect(records).toHaveLength(committed.length);
    expect(new Set(records.map((r) => r.event_id))).toEqual(new Set(committed.map((c) => c.id)));
    expect(records.filter((r) => r.status !== 'delivered' || r.attempts.length !== 1 || r.attempts[0].statusCode !== 200)).toEqual([]);

    // The event stream: every committed event once, across the failover.
    await until('every event on the stream', () => new Set(stream.of('task.created').map((e) => e.id)).size >= committed.length, 60_000);
    const streamed = stream.of('task.created').map((e) => e.id);
    expect(streamed).toHaveLength(committed.length);
    expect(new Set(streamed)).toEqual(new Set(committed.map((c) => c.id)));

    return {
      changes: answers.length,
      changesMeanwhile: answers.filter((a) => a.at > killedAt && a.at < back.at).length,
      promotedAfter: (promoted - killedAt) / 1000,
      backAfter: (back.at - killedAt) / 1000,
      healthMeanwhile: seenByHealth
        .filter((h) => h.at > killedAt && h.at < back.at)
        .reduce<Record<number, number>>((by, h) => ({ ...by, [h.status]: (by[h.status] ?? 0) + 1 }), {}),
    };
  } finally {
    stop = true;
    watching = false;
    releaseHeld();
    await changes;
    await watch;
    await stream.close();
  }
}
