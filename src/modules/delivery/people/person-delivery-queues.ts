import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { CHANNELS, DELIVER_JOB, DeliveryJobData, PersonChannel } from '../channels';
import { DeliveryQueues } from '../delivery-queues';
import { PersonDeliveryRepository } from './person-delivery.repository';

/**
 * Queues the jobs of people's channel deliveries. A channel that does not gather bursts (the
 * webhook) gets a job per delivery (job id = the delivery id). A channel that does gets one job
 * per burst (docs/notifications.md, "Bursts"): it names the oldest pending delivery of the user,
 * channel and task (job id = that delivery's id, so asking again while it waits adds nothing) and
 * runs when the burst window after that delivery closes; the job then sends every delivery of the
 * burst pending by then.
 */
@Injectable()
export class PersonDeliveryQueues {
  constructor(
    private readonly deliveries: PersonDeliveryRepository,
    private readonly queues: DeliveryQueues,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Queues the job that will send delivery `deliveryId` of `channel` to `userId` about task `taskId`. */
  async schedule(channel: PersonChannel, deliveryId: string, userId: string, taskId: string): Promise<void> {
    if (!CHANNELS[channel].gathersBursts) return this.add(channel, deliveryId, 0);
    await this.scheduleBurst(channel, userId, taskId);
  }

  /** Queues the job of the burst (user, channel, task) that is pending now, if any. */
  async scheduleBurst(channel: PersonChannel, userId: string, taskId: string): Promise<void> {
    const first = await this.deliveries.firstOfBurst(channel, userId, taskId, this.config.notificationBatchWindowMs);
    if (first) await this.add(channel, first.id, first.delay_ms);
  }

  private async add(channel: PersonChannel, deliveryId: string, delay: number): Promise<void> {
    await this.queues.of(channel).add(DELIVER_JOB, { deliveryId } satisfies DeliveryJobData, { jobId: deliveryId, delay });
  }
}
