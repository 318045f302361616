import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Job, Queue, UnrecoverableError } from 'bullmq';
import { QueueName } from '../../../queue/queues';
import { WorkerSettings } from '../../../queue/worker-settings';
import { isEventKind, isIntegrationKind, TaskEvent } from '../../task/task-event';
import { DELIVER_JOB, DeliveryJobData, IntegrationType } from './channels';
import { DeliveryWorkRepository } from './delivery-work.repository';
import { FanOutParts } from './fan-out-parts';
import { closeWorker, deliveryProcessorOptions } from './worker-options';

export interface FanOutResult {
  /** Deliveries to project integrations queued. */
  queued: number;
  /** Deliveries queued by the other parts (users' notification channels), by part. */
  parts: Record<string, number>;
}

/**
 * Turns each task event into deliveries (docs/integrations.md): one `delivery` row per
 * active integration of the event's project whose flag for the event's kind is on, written in one
 * statement that creates each (event, target) once, then one job per pending delivery on its
 * channel's queue, with the delivery id as job id. A re-run (a crash between the two steps, a
 * retry) queues again what is still pending and creates no second delivery; the delivery row, not
 * BullMQ's memory of finished jobs, says whether a delivery is still to do.
 *
 * Only the six integration kinds reach integrations; the personal kinds (an assignment, a time
 * entry) go to the other parts only. Then each registered FanOutPart (users' notifications:
 * docs/notifications.md) does the same for its own targets, as idempotently.
 */
@Processor(QueueName.TaskEvents, deliveryProcessorOptions())
export class FanOutProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(FanOutProcessor.name);
  private readonly queues: Record<IntegrationType, Queue>;

  constructor(
    private readonly deliveries: DeliveryWorkRepository,
    private readonly parts: FanOutParts,
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
    if (!event || !isEventKind(event.kind)) {
      throw new UnrecoverableError(`Not a task event: job ${job.name}`);
    }
    const pending = isIntegrationKind(event.kind) ? await this.deliveries.fanOut(event.workspaceId, event) : [];
    const byType = new Map<IntegrationType, string[]>();
    for (const d of pending) byType.set(d.target_type, [...(byType.get(d.target_type) ?? []), d.id]);
    await Promise.all(
      [...byType].map(([type, ids]) =>
        this.queues[type].addBulk(ids.map((deliveryId) => ({ name: DELIVER_JOB, data: { deliveryId } satisfies DeliveryJobData, opts: { jobId: deliveryId } }))),
      ),
    );
    if (pending.length) this.logger.debug(`event ${event.id} (${event.kind}): ${pending.length} deliveries queued`);
    const parts: Record<string, number> = {};
    for (const part of this.parts.list()) parts[part.name] = await part.fanOut(event);
    return { queued: pending.length, parts };
  }

  /** Finishes the jobs in hand before the queues and the database close (they close at application shutdown, after this). */
  async onModuleDestroy(): Promise<void> {
    await closeWorker(this);
  }
}
