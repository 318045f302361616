import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { DELIVER_JOB, DeliveryJobData } from '../../integrations/channels/channels';
import { UserChannel } from '../../notification-preferences/channel-rules';
import { QueueName } from '../../../queue/queues';
import { UserDeliveryRepository } from './user-delivery.repository';

/** The queue of each of a user's channels. */
export const USER_CHANNEL_QUEUE: Record<UserChannel, QueueName> = {
  email: QueueName.NotifyEmail,
  topicpush: QueueName.NotifyTopicpush,
  serverpush: QueueName.NotifyServerpush,
  webhook: QueueName.NotifyWebhook,
};

/**
 * Channels whose notifications about one task are gathered into one message when several come
 * within the burst window (docs/notifications.md, "Bursts"). The webhook is for programs: it gets
 * every event on its own, in the same format as a project's generic webhook.
 */
export const BATCHED: Readonly<Record<UserChannel, boolean>> = { email: true, topicpush: true, serverpush: true, webhook: false };

/**
 * Queues the jobs of users' channel deliveries. A webhook delivery gets its own job (job id = the
 * delivery id). A batched channel gets one job per burst: it names the oldest pending delivery of
 * the user, channel and task (job id = that delivery's id, so asking again while it waits adds
 * nothing) and runs when the burst window after that delivery closes; the job then sends every
 * delivery of the burst pending by then.
 */
@Injectable()
export class UserDeliveryQueues {
  private readonly queues: Record<UserChannel, Queue>;

  constructor(
    private readonly deliveries: UserDeliveryRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectQueue(QueueName.NotifyEmail) email: Queue,
    @InjectQueue(QueueName.NotifyTopicpush) topicpush: Queue,
    @InjectQueue(QueueName.NotifyServerpush) serverpush: Queue,
    @InjectQueue(QueueName.NotifyWebhook) webhook: Queue,
  ) {
    this.queues = { email, topicpush, serverpush, webhook };
  }

  /** Queues the job that will send delivery `deliveryId` of `channel` to `userId` about task `taskId`. */
  async schedule(channel: UserChannel, deliveryId: string, userId: string, taskId: string): Promise<void> {
    if (!BATCHED[channel]) return this.add(channel, deliveryId, 0);
    await this.scheduleBurst(channel, userId, taskId);
  }

  /** Queues the job of the burst (user, channel, task) that is pending now, if any. */
  async scheduleBurst(channel: UserChannel, userId: string, taskId: string): Promise<void> {
    const lead = await this.deliveries.leadOfBurst(channel, userId, taskId, this.config.notificationBatchWindowMs);
    if (lead) await this.add(channel, lead.id, lead.delay_ms);
  }

  private async add(channel: UserChannel, deliveryId: string, delay: number): Promise<void> {
    await this.queues[channel].add(DELIVER_JOB, { deliveryId } satisfies DeliveryJobData, { jobId: deliveryId, delay });
  }
}
