import { WorkerHost } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { WorkerOptions } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { QueueName } from './queues';

/**
 * Worker settings of each queue from the configuration: concurrency is QUEUE_CONCURRENCY over the
 * defaults of src/queue/queues.ts (validated at boot by src/config/app-config.ts).
 *
 * How a processor uses them (EmailProcessor does; every new processor does the same):
 *
 * ```ts
 * @Processor(QueueName.DeliverGenericWebhook, processorOptions())
 * export class GenericWebhookProcessor extends WorkerHost implements OnApplicationBootstrap {
 *   constructor(private readonly settings: WorkerSettings) {
 *     super();
 *   }
 *   onApplicationBootstrap(): void {
 *     this.settings.start(this, QueueName.DeliverGenericWebhook);
 *   }
 *   async process(job: Job) { … }
 * }
 * ```
 *
 * processorOptions() creates the worker without starting it, and start() sets the configured
 * concurrency before the worker takes its first job, so it never runs more jobs at once than
 * configured, not even while the application boots. WorkerSettings is provided by the global
 * QueueModule: nothing to import. Shutdown needs nothing either: @nestjs/bullmq closes every
 * worker when the application closes, and close() waits for the jobs in progress.
 */
@Injectable()
export class WorkerSettings {
  private readonly logger = new Logger('QueueWorker');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Jobs of `queue` one process runs at once. */
  concurrency(queue: QueueName): number {
    return this.config.queueConcurrency[queue];
  }

  /** Applies the queue's configured concurrency to the processor's worker, then starts the worker if it is not running yet. */
  start(host: WorkerHost, queue: QueueName): void {
    const worker = host.worker;
    if (worker.name !== queue) throw new Error(`${host.constructor.name} consumes "${worker.name}", not "${queue}"`);
    worker.concurrency = this.concurrency(queue);
    this.logger.debug(`queue ${queue}: concurrency ${worker.concurrency}`);
    if (!worker.isRunning()) {
      // Resolves when the worker closes; an error while it runs is BullMQ's to retry and report ('error' events).
      worker.run().catch((err: Error) => this.logger.error(`queue ${queue}: worker stopped: ${err.message}`));
    }
  }
}

/** Options for @Processor(): the worker waits for WorkerSettings.start() (see above). */
export const processorOptions = (): WorkerOptions => ({ autorun: false }) as WorkerOptions;
