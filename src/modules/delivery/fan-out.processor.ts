import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { QueueName, TASK_EVENTS_JOB } from '../../queue/queues';
import { WorkerSettings } from '../../queue/worker-settings';
import { isUuid } from '../../common/pipes/id.pipe';
import { isEventKind, TaskEvent } from '../task/task-event';
import { TargetKind } from './channels';
import { DeliveryTargetKinds } from './delivery-target-kinds';
import { closeWorker, deliveryProcessorOptions } from './worker-options';

export interface FanOutResult {
  /** Delivery jobs asked for, by target kind (a person's burst may be one job for several deliveries). */
  queued: Record<TargetKind, number>;
}

/** A task event whose ids the fan-out statements can use (anything else would fail them for the whole batch). */
function isTaskEvent(e: unknown): e is TaskEvent {
  const event = e as TaskEvent | null;
  return !!event && isEventKind(event.kind) && isUuid(event.id) && isUuid(event.workspaceId) && isUuid(event.project?.id) && isUuid(event.task?.id);
}

/**
 * Turns task events into deliveries (docs/integrations.md, docs/notifications.md), a packed job of
 * several events at a time: each target kind writes its deliveries of the events, each (event,
 * target) once, and queues a job per pending delivery (or burst) with the delivery id as job id.
 * A re-run (a crash between the two steps, a retry, the same event in two jobs) queues again what
 * is still pending and creates no second delivery; the delivery row, not BullMQ's memory of
 * finished jobs, says whether a delivery is still to do.
 */
@Processor(QueueName.TaskEvents, deliveryProcessorOptions())
export class FanOutProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(FanOutProcessor.name);

  constructor(
    private readonly kinds: DeliveryTargetKinds,
    private readonly settings: WorkerSettings,
  ) {
    super();
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
    const queued = { integration: 0, person: 0 } satisfies Record<TargetKind, number>;
    for (const kind of this.kinds.all) queued[kind.kind] += await kind.fanOut(events);
    if (queued.integration + queued.person) this.logger.debug(`job ${job.id} (${events.length} events): ${queued.integration + queued.person} delivery jobs asked for`);
    // What could not be read is done with: the job fails for good and says so (the dashboard shows it).
    if (events.length < given.length || !given.length) {
      throw new UnrecoverableError(`Not a task event: ${given.length - events.length} of ${given.length} in job ${job.id} (${job.name})`);
    }
    return { queued };
  }

  /** Finishes the jobs in hand before the queues and the database close (they close at application shutdown, after this). */
  async onModuleDestroy(): Promise<void> {
    await closeWorker(this);
  }
}
