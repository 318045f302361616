import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { CryptoService } from '../../../src/common/crypto/crypto.service';
import { IntegrationType } from '../../../src/modules/integrations/channels/channels';
import { TASK_EVENT_KINDS, TaskEventKind } from '../../../src/modules/task/task-event';
import { OutboxService } from '../../../src/queue/outbox.service';
import { QueueName } from '../../../src/queue/queues';
import { redisOptionsFromUrl } from '../../../src/redis/redis-options';
import { TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { Answer, HttpReceiver, ReceivedRequest } from '../../support/http-receiver';

/** Every event kind on, unless the test says otherwise. */
export const ALL_EVENTS: Record<TaskEventKind, boolean> = Object.fromEntries(TASK_EVENT_KINDS.map((k) => [k, true])) as Record<TaskEventKind, boolean>;

export interface IntegrationFields {
  type: IntegrationType;
  events?: Partial<Record<TaskEventKind, boolean>>;
  isActive?: boolean;
  chatId?: string;
  threadId?: number | null;
  botToken?: string;
  webhookUrl?: string;
  secret?: string | null;
  previousSecret?: string | null;
  /** An SQL expression, e.g. `now() - interval '1 hour'`. */
  secretReplacedAt?: string;
}

/**
 * Writes an integration row as the integrations API stores it: secrets (bot token, webhook URL,
 * signing secrets) encrypted with the app's CryptoService. Answers its id.
 */
export async function addIntegration(t: TestApp, workspaceId: string, projectId: string, f: IntegrationFields): Promise<string> {
  const crypto = t.running.app.get(CryptoService);
  const events = f.events ? Object.fromEntries(TASK_EVENT_KINDS.map((k) => [k, f.events![k] ?? false])) : ALL_EVENTS;
  const [row] = await sql(
    t.databaseUrl,
    `INSERT INTO integration (workspace_id, project_id, type, is_active, events, chat_id, thread_id, bot_token, webhook_url, secret, previous_secret, secret_replaced_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, ${f.secretReplacedAt ?? 'NULL'}) RETURNING id`,
    [
      workspaceId,
      projectId,
      f.type,
      f.isActive ?? true,
      JSON.stringify(events),
      f.chatId ?? null,
      f.threadId ?? null,
      crypto.encryptNullable(f.botToken),
      crypto.encryptNullable(f.webhookUrl),
      crypto.encryptNullable(f.secret),
      crypto.encryptNullable(f.previousSecret),
    ],
  );
  return row.id;
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
export function queueOf(t: TestApp, name: QueueName): Queue {
  return new Queue(name, { connection: redisOptionsFromUrl(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'), prefix: `${t.queuePrefix}:bull` });
}
