import { JobsOptions } from 'bullmq';

/** Every BullMQ queue of the service, in one place. */
export enum QueueName {
  /** Transactional emails (invitations, notifications). */
  Email = 'email',
}

export interface QueueSpec {
  /** Jobs of this queue one worker process runs at once. */
  concurrency: number;
  /** Retries, backoff and retention of the queue's jobs (BullMQ defaultJobOptions). */
  jobOptions: JobsOptions;
}

/** Finished jobs stay a while for inspection, and keep their ids taken against a late re-publish. */
const RETENTION: JobsOptions = {
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

export const QUEUES: Record<QueueName, QueueSpec> = {
  [QueueName.Email]: {
    // One SMTP connection per concurrent job (MailerService pools as many).
    concurrency: 4,
    // 12 attempts from 5 s doubling: an SMTP server down for a few hours still gets the mail.
    jobOptions: { attempts: 12, backoff: { type: 'exponential', delay: 5_000 }, ...RETENTION },
  },
};

export const QUEUE_NAMES: readonly QueueName[] = Object.values(QueueName);

export const isQueueName = (name: string): name is QueueName => (QUEUE_NAMES as readonly string[]).includes(name);
