import { Processor, WorkerHost } from '@nestjs/bullmq';
import { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Job } from 'bullmq';
import { QueueName } from '../../../queue/queues';
import { WorkerSettings } from '../../../queue/worker-settings';
import { ChannelFormat, COMMUNITYCHAT, GENERIC_WEBHOOK, MESSENGER, TEAMCHAT } from './channel-formats';
import { DeliveryJobData } from './channels';
import { DeliveryJobResult, DeliveryRunner } from './delivery.runner';
import { closeWorker, deliveryProcessorOptions } from './worker-options';

/**
 * The base of the four channel processors: one queue per channel, so a slow or failing channel
 * does not hold up the others, and one way of delivering (DeliveryRunner). Jobs `deliver` (the
 * fan-out's) and `redeliver` (an admin's, added by the API through the outbox after it set the
 * delivery back to pending) are handled the same way.
 */
export abstract class DeliveryProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  protected constructor(
    private readonly runner: DeliveryRunner,
    private readonly settings: WorkerSettings,
    private readonly queue: QueueName,
    private readonly channel: ChannelFormat,
  ) {
    super();
  }

  /** Starts consuming with the configured concurrency (QUEUE_CONCURRENCY, default 32). */
  onApplicationBootstrap(): void {
    this.settings.start(this, this.queue);
  }

  process(job: Job<DeliveryJobData>): Promise<DeliveryJobResult> {
    return this.runner.run(job, this.channel);
  }

  /** On shutdown (SIGTERM), lets the attempts in hand finish and record themselves before the database closes. */
  async onModuleDestroy(): Promise<void> {
    await closeWorker(this);
  }
}

@Processor(QueueName.DeliverMessenger, deliveryProcessorOptions())
export class MessengerDeliveryProcessor extends DeliveryProcessor {
  constructor(runner: DeliveryRunner, settings: WorkerSettings) {
    super(runner, settings, QueueName.DeliverMessenger, MESSENGER);
  }
}

@Processor(QueueName.DeliverTeamchat, deliveryProcessorOptions())
export class TeamchatDeliveryProcessor extends DeliveryProcessor {
  constructor(runner: DeliveryRunner, settings: WorkerSettings) {
    super(runner, settings, QueueName.DeliverTeamchat, TEAMCHAT);
  }
}

@Processor(QueueName.DeliverCommunitychat, deliveryProcessorOptions())
export class CommunitychatDeliveryProcessor extends DeliveryProcessor {
  constructor(runner: DeliveryRunner, settings: WorkerSettings) {
    super(runner, settings, QueueName.DeliverCommunitychat, COMMUNITYCHAT);
  }
}

@Processor(QueueName.DeliverGenericWebhook, deliveryProcessorOptions())
export class GenericWebhookDeliveryProcessor extends DeliveryProcessor {
  constructor(runner: DeliveryRunner, settings: WorkerSettings) {
    super(runner, settings, QueueName.DeliverGenericWebhook, GENERIC_WEBHOOK);
  }
}
