import { Processor, WorkerHost } from '@nestjs/bullmq';
import { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Job } from 'bullmq';
import { DeliveryJobData } from '../../integrations/channels/channels';
import { closeWorker, deliveryProcessorOptions } from '../../integrations/channels/worker-options';
import { UserChannel } from '../../notification-preferences/channel-rules';
import { QueueName } from '../../../queue/queues';
import { WorkerSettings } from '../../../queue/worker-settings';
import { USER_CHANNEL_QUEUE } from './user-delivery-queues';
import { UserDeliveryResult, UserDeliveryRunner } from './user-delivery.runner';
import { UserChannels } from './user-channels';

/**
 * The base of the four processors of users' channels: one queue per channel, so a slow or failing
 * channel (an SMTP server down, a push server answering 503) does not hold up the others; the
 * delivery backoff and retries of the project integrations (src/queue/queues.ts).
 */
abstract class UserChannelProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  protected constructor(
    private readonly runner: UserDeliveryRunner,
    private readonly channels: UserChannels,
    private readonly settings: WorkerSettings,
    private readonly channel: UserChannel,
  ) {
    super();
  }

  /** Starts consuming with the configured concurrency (QUEUE_CONCURRENCY). */
  onApplicationBootstrap(): void {
    this.settings.start(this, USER_CHANNEL_QUEUE[this.channel]);
  }

  process(job: Job<DeliveryJobData>): Promise<UserDeliveryResult> {
    return this.runner.run(job, this.channels.of(this.channel));
  }

  /** On shutdown, lets the attempts in hand finish and record themselves before the database closes. */
  async onModuleDestroy(): Promise<void> {
    await closeWorker(this);
  }
}

@Processor(QueueName.NotifyEmail, deliveryProcessorOptions())
export class EmailNotificationProcessor extends UserChannelProcessor {
  constructor(runner: UserDeliveryRunner, channels: UserChannels, settings: WorkerSettings) {
    super(runner, channels, settings, 'email');
  }
}

@Processor(QueueName.NotifyTopicpush, deliveryProcessorOptions())
export class TopicpushNotificationProcessor extends UserChannelProcessor {
  constructor(runner: UserDeliveryRunner, channels: UserChannels, settings: WorkerSettings) {
    super(runner, channels, settings, 'topicpush');
  }
}

@Processor(QueueName.NotifyServerpush, deliveryProcessorOptions())
export class ServerpushNotificationProcessor extends UserChannelProcessor {
  constructor(runner: UserDeliveryRunner, channels: UserChannels, settings: WorkerSettings) {
    super(runner, channels, settings, 'serverpush');
  }
}

@Processor(QueueName.NotifyWebhook, deliveryProcessorOptions())
export class WebhookNotificationProcessor extends UserChannelProcessor {
  constructor(runner: UserDeliveryRunner, channels: UserChannels, settings: WorkerSettings) {
    super(runner, channels, settings, 'webhook');
  }
}
