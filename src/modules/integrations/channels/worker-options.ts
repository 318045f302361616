import { WorkerHost } from '@nestjs/bullmq';
import { Worker, WorkerOptions } from 'bullmq';
import { deliveryBackoffMs, QUEUES, QueueName } from '../../../queue/queues';

/**
 * How many jobs of `queue` one worker process runs at once. The hook for a configured override
 * (per-queue concurrency settings): today the value of src/queue/queues.ts.
 */
export function workerConcurrency(queue: QueueName): number {
  return QUEUES[queue].concurrency;
}

/** The error a transient delivery failure throws: what the receiver asked for with Retry-After, if it did. */
export interface RetryAfterCarrier {
  retryAfterMs?: number | null;
}

/**
 * Worker options of the fan-out and the delivery processors: their concurrency, and the backoff
 * of delivery jobs (their job options name the `delivery` backoff type, src/queue/queues.ts):
 * deliveryBackoffMs with the Retry-After the failed attempt carried, else 5 s doubling.
 */
export function workerOptions(queue: QueueName): Pick<WorkerOptions, 'concurrency' | 'settings'> {
  return {
    concurrency: workerConcurrency(queue),
    settings: {
      backoffStrategy: (attemptsMade: number, _type?: string, err?: Error) =>
        deliveryBackoffMs(attemptsMade, (err as (Error & RetryAfterCarrier) | undefined)?.retryAfterMs),
    },
  };
}

/**
 * Closes a processor's worker, waiting for its jobs in hand. Processors call it in
 * onModuleDestroy, which runs before any onApplicationShutdown: @nestjs/bullmq closes workers at
 * application shutdown too, but in no fixed order with the database and the queues, which a
 * finishing job still needs. (close() is idempotent: the later close is a no-op.)
 */
export async function closeWorker(host: WorkerHost): Promise<void> {
  const worker = (host as unknown as { _worker?: Worker })._worker;
  await worker?.close();
}
