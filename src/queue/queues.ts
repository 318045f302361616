import { JobsOptions } from 'bullmq';
import { ALL_CHANNELS, CHANNELS, DeliveryQueueName, queueOf } from '../modules/delivery/channels';

/**
 * Every BullMQ queue of the service, in one place: these two, and one queue per delivery channel
 * (`deliver-<integration type>`, `notify-<person channel>`), derived from the channel table
 * (src/modules/delivery/channels.ts).
 */
export const QueueName = {
  /** Transactional emails (invitations, account emails). */
  Email: 'email',
  /**
   * Task-change events, several to a job (job name `events`, data `{events: [snapshot, …]}`: the
   * outbox relay packs what one batch holds); the fan-out consumes them.
   */
  TaskEvents: 'task-events',
} as const;
/** A queue's name: one of QueueName's, or a delivery channel's (one delivery, or a burst of a person's notifications, per job; job data: the delivery id). */
export type QueueName = (typeof QueueName)[keyof typeof QueueName] | DeliveryQueueName;

export interface QueueSpec {
  /** Jobs of this queue one worker process runs at once. */
  concurrency: number;
  /** Retries, backoff and retention of the queue's jobs (BullMQ defaultJobOptions). */
  jobOptions: JobsOptions;
  /**
   * When set, the outbox relay publishes the rows of one batch as jobs of this name holding up to
   * PACKED_JOB_MAX rows each (`{events: payloads}`) instead of one job per row: fewer jobs for
   * the consumer to take and finish. The consumer must be idempotent per row, since a packed job
   * has no row's id to deduplicate by.
   */
  packedJob?: string;
}

/** Rows in one packed job at most. */
export const PACKED_JOB_MAX = 25;
/** Job name of packed task events. */
export const TASK_EVENTS_JOB = 'events';

/** Finished jobs stay a while for inspection, and keep their ids taken against a late re-publish. */
const RETENTION: JobsOptions = {
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** Backoff type of delivery jobs: the delivery workers compute it (deliveryBackoffMs). */
export const DELIVERY_BACKOFF = 'delivery';
/** First retry after this long, then doubling. */
const DELIVERY_FIRST_RETRY_MS = 5_000;
/** Attempts of one delivery: 5 s doubling, 11 waits, about 2.8 h in all (at least an hour, docs/integrations.md). */
export const DELIVERY_ATTEMPTS = 12;

/**
 * Wait before retry number `attemptsMade` (1 = the first retry) of a delivery: what the target
 * asked for with Retry-After when it did (capped at an hour), else 5 s doubling.
 */
export function deliveryBackoffMs(attemptsMade: number, retryAfterMs?: number | null): number {
  if (retryAfterMs !== undefined && retryAfterMs !== null && retryAfterMs >= 0) return Math.min(retryAfterMs, 3_600_000);
  return DELIVERY_FIRST_RETRY_MS * 2 ** Math.max(0, attemptsMade - 1);
}

/** A delivery channel's queue: its concurrency, and the delivery retries (DELIVERY_ATTEMPTS, backoff computed by the workers). */
const deliveryQueue = (concurrency: number): QueueSpec => ({
  concurrency,
  jobOptions: { attempts: DELIVERY_ATTEMPTS, backoff: { type: DELIVERY_BACKOFF }, ...RETENTION },
});

export const QUEUES: Record<QueueName, QueueSpec> = {
  [QueueName.Email]: {
    // One SMTP connection per concurrent job (MailerService pools as many).
    concurrency: 4,
    // 12 attempts from 5 s doubling: an SMTP server down for a few hours still gets the mail.
    jobOptions: { attempts: 12, backoff: { type: 'exponential', delay: 5_000 }, ...RETENTION },
  },
  [QueueName.TaskEvents]: {
    // The fan-out writes delivery rows and queues their jobs: short database work.
    concurrency: 16,
    jobOptions: { attempts: 20, backoff: { type: 'exponential', delay: 1_000 }, ...RETENTION },
    packedJob: TASK_EVENTS_JOB,
  },
  ...(Object.fromEntries(ALL_CHANNELS.map((c) => [queueOf(c), deliveryQueue(CHANNELS[c].concurrency)])) as Record<DeliveryQueueName, QueueSpec>),
};

export const QUEUE_NAMES: readonly QueueName[] = [...Object.values(QueueName), ...ALL_CHANNELS.map(queueOf)];

export const isQueueName = (name: string): name is QueueName => (QUEUE_NAMES as readonly string[]).includes(name);
