import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Job, Queue, UnrecoverableError } from 'bullmq';
import { QueueName, TASK_EVENTS_JOB } from '../../../queue/queues';
import { WorkerSettings } from '../../../queue/worker-settings';
import { isUuid } from '../../../common/pipes/id.pipe';
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

/** A task event whose ids the fan-out statement can use (anything else would fail it for the whole batch). */
function isTaskEvent(e: unknown): e is TaskEvent {
  const event = e as TaskEvent | null;
  return !!event && isEventKind(event.kind) && isUuid(event.id) && isUuid(event.workspaceId) && isUuid(event.project?.id) && isUuid(event.task?.id);
}

/**
 * Turns task events into deliveries (docs/integrations.md), a packed job of several events at a
 * time: one `delivery` row per event and active integration of the event's project whose flag for
 * the event's kind is on, written for the whole job in one statement that creates each (event,
 * target) once, then one job per pending delivery on its channel's queue, with the delivery id as
 * job id. A re-run (a crash between the two steps, a retry, the same event in two jobs) queues
 * again what is still pending and creates no second delivery; the delivery row, not BullMQ's
 * memory of finished jobs, says whether a delivery is still to do.
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

  async process(job: Job<{ events?: unknown } | TaskEvent>): Promise<FanOutResult> {
    // A packed job (the relay's, src/queue/queues.ts) holds several events; a job of one event
    // (named after its kind) is what a redelivery tool or an older relay queues.
    const given: unknown[] =
      job.name === TASK_EVENTS_JOB ? (Array.isArray((job.data as { events?: unknown }).events) ? (job.data as { events: unknown[] }).events : []) : [job.data];
    const events = given.filter(isTaskEvent);
    const pending = await this.deliveries.fanOutMany(events.filter((e) => isIntegrationKind(e.kind)));
    const byType = new Map<IntegrationType, string[]>();
    for (const d of pending) byType.set(d.target_type, [...(byType.get(d.target_type) ?? []), d.id]);
    await Promise.all(
      [...byType].map(([type, ids]) =>
        this.queues[type].addBulk(ids.map((deliveryId) => ({ name: DELIVER_JOB, data: { deliveryId } satisfies DeliveryJobData, opts: { jobId: deliveryId } }))),
      ),
    );
    if (pending.length) this.logger.debug(`job ${job.id} (${events.length} events): ${pending.length} deliveries queued`);
    const parts: Record<string, number> = {};
    for (const part of this.parts.list()) {
      parts[part.name] = 0;
      for (const event of events) if (part.hears(event)) parts[part.name] += await part.fanOut(event);
    }
    // What could not be read is done with: the job fails for good and says so (the dashboard shows it).
    if (events.length < given.length || !given.length) {
      throw new UnrecoverableError(`Not a task event: ${given.length - events.length} of ${given.length} in job ${job.id} (${job.name})`);
    }
    return { queued: pending.length, parts };
  }

  /** Finishes the jobs in hand before the queues and the database close (they close at application shutdown, after this). */
  async onModuleDestroy(): Promise<void> {
    await closeWorker(this);
  }
}
