import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Job, Queue, UnrecoverableError } from 'bullmq';
import { QueueName } from '../../../queue/queues';
import { WorkerSettings } from '../../../queue/worker-settings';
import { TASK_EVENT_KINDS, TaskEvent } from '../../task/task-event';
import { DELIVER_JOB, DELIVERY_QUEUE, DeliveryJobData, IntegrationType } from './channels';
import { DeliveryWorkRepository } from './delivery-work.repository';
import { closeWorker, deliveryProcessorOptions } from './worker-options';

export interface FanOutResult {
  queued: number;
}

/**
 * Turns each task event into deliveries (docs/integrations.md): one `delivery` row per
 * active integration of the event's project whose flag for the event's kind is on, written in one
 * statement that creates each (event, target) once, then one job per pending delivery on its
 * channel's queue, with the delivery id as job id. A re-run (a crash between the two steps, a
 * retry) queues again what is still pending and creates no second delivery; the delivery row, not
 * BullMQ's memory of finished jobs, says whether a delivery is still to do.
 */
@Processor(QueueName.TaskEvents, deliveryProcessorOptions())
export class FanOutProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(FanOutProcessor.name);
  private readonly queues: Record<IntegrationType, Queue>;

  constructor(
    private readonly deliveries: DeliveryWorkRepository,
    private readonly settings: WorkerSettings,
    @InjectQueue(QueueName.DeliverMessenger) messenger: Queue,
    @InjectQueue(QueueName.DeliverTeamchat) teamchat: Queue,
    @InjectQueue(QueueName.DeliverCommunitychat) communitychat: Queue,
    @InjectQueue(QueueName.DeliverGenericWebhook) genericWebhook: Queue,
  ) {
    super();
    this.queues = { messenger, teamchat, communitychat, 'generic-webhook': genericWebhook };
  }

  /** Starts consuming with the configured concurrency (QUEUE_CONCURRENCY). */
  onApplicationBootstrap(): void {
    this.settings.start(this, QueueName.TaskEvents);
  }

  async process(job: Job<TaskEvent>): Promise<FanOutResult> {
    const event = job.data;
    if (!event || !(TASK_EVENT_KINDS as readonly string[]).includes(event.kind)) {
      throw new UnrecoverableError(`Not a task event: job ${job.name}`);
    }
    const pending = await this.deliveries.fanOut(event.workspaceId, event);
    const byType = new Map<IntegrationType, string[]>();
    for (const d of pending) byType.set(d.target_type, [...(byType.get(d.target_type) ?? []), d.id]);
    await Promise.all(
      [...byType].map(([type, ids]) =>
        this.queues[type].addBulk(ids.map((deliveryId) => ({ name: DELIVER_JOB, data: { deliveryId } satisfies DeliveryJobData, opts: { jobId: deliveryId } }))),
      ),
    );
    if (pending.length) this.logger.debug(`event ${event.id} (${event.kind}): ${pending.length} deliveries queued`);
    return { queued: pending.length };
  }

  /** Finishes the jobs in hand before the queues and the database close (they close at application shutdown, after this). */
  async onModuleDestroy(): Promise<void> {
    await closeWorker(this);
  }
}
