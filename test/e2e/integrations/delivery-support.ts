import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { IntegrationChannel as IntegrationType } from '../../../src/modules/delivery/channels';
import { EVENT_FLAGS, EventFlag, TASK_EVENT_KINDS, TaskEventKind } from '../../../src/modules/task/task-event';
import { OutboxService } from '../../../src/queue/outbox.service';
import { QueueName, TASK_EVENTS_JOB } from '../../../src/queue/queues';
import { redisOptionsFromUrl } from '../../../src/redis/redis-options';
import { runRedisUrl, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { Answer, HttpReceiver, ReceivedRequest } from '../../support/http-receiver';
import { until } from '../../support/until';

/** The spec's six event kinds on, unless the test says otherwise (the flags beyond them off). */
export const ALL_EVENTS: Record<TaskEventKind, boolean> = Object.fromEntries(TASK_EVENT_KINDS.map((k) => [k, true])) as Record<TaskEventKind, boolean>;

export interface IntegrationFields {
  type: IntegrationType;
  /** Flags left out are off; without `events`, the six kinds are on. */
  events?: Partial<Record<EventFlag, boolean>>;
  isActive?: boolean;
  chatId?: string;
  threadId?: number | null;
  botToken?: string;
  webhookUrl?: string;
  secret?: string | null;
  /** A secret the integration had before `secret` replaced it (the API records the rotation, replaced now). */
  previousSecret?: string;
}

/** A bot token of the shape the API accepts (digits, `:`, 35 characters). */
export const botToken = () => `123456789:${randomBytes(27).toString('base64url').slice(0, 35)}`;

/** Creates the integration through the API (as a project admin would); answers its id. */
export async function addIntegration(t: TestApp, token: string, projectId: string, f: IntegrationFields): Promise<string> {
  const route = `/${f.type}-integration/project/${projectId}`;
  const events = f.events ? Object.fromEntries(EVENT_FLAGS.map((k) => [k, f.events![k] ?? false])) : ALL_EVENTS;
  const body: Record<string, unknown> = { events };
  if (f.type === 'messenger') Object.assign(body, { botToken: f.botToken, chatId: f.chatId, threadId: f.threadId ?? null });
  else body.webhookUrl = f.webhookUrl;
  if (f.type === 'generic-webhook') body.secret = f.previousSecret ?? f.secret ?? null;
  const must = (res: { status: number; text: string; body: any }, what: string) => {
    if (res.status !== 200) throw new Error(`${what} failed: ${res.status} ${res.text}`);
    return res.body;
  };
  const created = must(await t.api.post(route, body, token), `creating the ${f.type} integration`);
  if (f.previousSecret !== undefined) must(await t.api.patch(route, { secret: f.secret }, token), 'replacing the secret');
  if (f.isActive === false) must(await t.api.patch(route, { isActive: false }, token), 'deactivating the integration');
  return created.id;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  event: string;
  target_type: string;
  target_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Array<{ at: string; statusCode: number | null; durationMs: number; error: string | null }>;
  delivered_at: Date | null;
  payload: any;
}

/** The deliveries of a task's events to one integration, oldest first. */
export const deliveriesOf = (t: TestApp, integrationId: string): Promise<DeliveryRow[]> =>
  sql<DeliveryRow>(t.databaseUrl, `SELECT * FROM delivery WHERE target_id = $1 ORDER BY created_at, payload->>'occurredAt'`, [integrationId]);

export const deliveryById = async (t: TestApp, id: string): Promise<DeliveryRow | undefined> =>
  (await sql<DeliveryRow>(t.databaseUrl, `SELECT * FROM delivery WHERE id = $1`, [id]))[0];

/** A fresh random path segment: each test's receiver URL is its own. */
export const rand = () => randomBytes(6).toString('hex');

/**
 * Answers per path: `script(path, a, b)` makes the receiver answer the next requests to `path`
 * with a, then b, then 200 (or the messenger's `{ok: true}`). Tests of one file share a receiver,
 * so a script must not leak into another test's requests.
 */
export class ScriptedReceiver extends HttpReceiver {
  private readonly scripts = new Map<string, Answer[]>();

  constructor() {
    super();
    this.answer((req: ReceivedRequest) => {
      const path = req.url.split('?')[0];
      const next = this.scripts.get(path)?.shift();
      return next ?? { status: 200, body: { ok: true } };
    });
  }

  script(path: string, ...answers: Answer[]): this {
    this.scripts.set(path, [...(this.scripts.get(path) ?? []), ...answers]);
    return this;
  }
}

/** Adds a job through the outbox in its own transaction, as the API does (e.g. a redelivery). */
export async function enqueue(t: TestApp, job: { queue: QueueName; name: string; payload: Record<string, unknown>; id?: string }): Promise<string> {
  const ds = t.running.app.get(DataSource);
  const outbox = t.running.app.get(OutboxService);
  return ds.transaction((m) => outbox.enqueue(m, job));
}

/** The outside view of one of the app's queues (close it after use). */
/** The task-events job holding event `eventId`, in any state (the relay packs several events to a job: src/queue/queues.ts). */
export async function jobOfEvent(queue: Queue, eventId: string) {
  const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized']);
  return jobs.find((j) => j?.name === TASK_EVENTS_JOB && (j.data.events as { id: string }[]).some((e) => e.id === eventId));
}

export function queueOf(t: TestApp, name: QueueName): Queue {
  return new Queue(name, { connection: redisOptionsFromUrl(runRedisUrl()), prefix: `${t.queuePrefix}:bull` });
}

/**
 * The requests to `path` once `count` have arrived, as `receiver.waitFor` gives them, but failing
 * at once with the recorded error when the project's events stop on the way instead: a delivery
 * of the project failed or recorded a failed attempt, or a fan-out job failed (an event the
 * audience or a format cannot take, e.g. one without an actor). Without this such a test only
 * fails when its deadline runs out, naming nothing. For tests whose deliveries all succeed.
 */
export async function requestsOrFailure(t: TestApp, receiver: HttpReceiver, projectId: string, path: string, count: number, timeoutMs = 15_000): Promise<ReceivedRequest[]> {
  const fanOut = queueOf(t, QueueName.TaskEvents);
  try {
    return await until(
      `${count} request(s) to ${path}`,
      async () => {
        const got = receiver.to(path);
        if (got.length >= count) return got;
        const [bad] = await sql(
          t.databaseUrl,
          `SELECT event, target_type, status, attempts->-1->>'error' AS error FROM delivery
            WHERE project_id = $1 AND (status = 'failed' OR attempts->-1->>'error' IS NOT NULL) LIMIT 1`,
          [projectId],
        );
        if (bad)
          throw new Error(
            `waiting for ${count} request(s) to ${path}: a delivery of ${bad.event} to ${bad.target_type} ${bad.status === 'failed' ? 'failed' : 'failed an attempt'}: ${bad.error}`,
          );
        const failed = (await fanOut.getJobs(['failed', 'delayed'])).find((j) => j?.failedReason);
        if (failed) throw new Error(`waiting for ${count} request(s) to ${path}: a fan-out job of task events failed: ${failed.failedReason}`);
        return null;
      },
      timeoutMs,
    );
  } finally {
    await fanOut.close();
  }
}

/**
 * The delay BullMQ holds job `jobId` of `queue` for after its attempt `attemptsMade` failed: the
 * retry schedule as the worker computed it (src/queue/queues.ts, deliveryBackoffMs), read instead
 * of waited for. Fails at once, with the job's reason, when the job failed for good instead.
 */
export async function retryDelay(queue: Queue, jobId: string, attemptsMade: number): Promise<number> {
  const job = await until(`job ${jobId} of ${queue.name} held for a retry after attempt ${attemptsMade}`, async () => {
    const j = await queue.getJob(jobId);
    if (!j) return null;
    const state = await j.getState();
    if (state === 'failed') throw new Error(`job ${jobId} of ${queue.name} failed after ${j.attemptsMade} attempt(s): ${j.failedReason}`);
    return state === 'delayed' && j.attemptsMade === attemptsMade && j;
  });
  return job.delay;
}

/** Runs the delayed job `jobId` of `queue` now instead of after its delay (unless its delay ran out first). */
export async function runNow(queue: Queue, jobId: string): Promise<void> {
  const job = await queue.getJob(jobId);
  if (!job) throw new Error(`no job ${jobId} in ${queue.name}`);
  await job.promote().catch(async (err) => {
    if ((await job.getState()) === 'delayed') throw err;
  });
}
