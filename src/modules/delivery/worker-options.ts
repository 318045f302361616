import { WorkerHost } from '@nestjs/bullmq';
import { Worker, WorkerOptions } from 'bullmq';
import { deliveryBackoffMs } from '../../queue/queues';
import { processorOptions } from '../../queue/worker-settings';

/** The error a transient delivery failure throws: what the receiver asked for with Retry-After, if it did. */
export interface RetryAfterCarrier {
  retryAfterMs?: number | null;
}

/**
 * @Processor options of the fan-out and the delivery processors: created without starting
 * (WorkerSettings.start() applies the configured concurrency at bootstrap, src/queue/worker-settings.ts),
 * and the backoff of delivery jobs, whose job options name the `delivery` backoff type
 * (src/queue/queues.ts): deliveryBackoffMs with the Retry-After the failed attempt carried, else
 * 5 s doubling.
 */
export function deliveryProcessorOptions(): WorkerOptions {
  return {
    ...processorOptions(),
    // A killed worker's jobs go back to the queue within about 20 s (lock expiry + the next check),
    // instead of BullMQ's default of up to a minute; a live worker renews its locks every 7.5 s.
    lockDuration: 15_000,
    stalledInterval: 5_000,
    settings: {
      backoffStrategy: (attemptsMade: number, _type?: string, err?: Error) => deliveryBackoffMs(attemptsMade, (err as (Error & RetryAfterCarrier) | undefined)?.retryAfterMs),
    },
  };
}

/**
 * Closes a processor's worker, waiting for its jobs in hand. Processors call it in
 * onModuleDestroy, which runs before any onApplicationShutdown: @nestjs/bullmq closes workers at
 * application shutdown too, but in no fixed order with the database and the queues, which a
 * finishing delivery still needs to record its attempt (test/e2e/integrations/delivery-shutdown).
 * close() is idempotent: the later close is a no-op.
 */
export async function closeWorker(host: WorkerHost): Promise<void> {
  const worker = (host as unknown as { _worker?: Worker })._worker;
  await worker?.close();
}
