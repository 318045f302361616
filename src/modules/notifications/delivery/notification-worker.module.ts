import { Module, OnModuleInit } from '@nestjs/common';
import { CryptoModule } from '../../../common/crypto/crypto.module';
import { WorkerQueuesModule } from '../../../queue/queue.module';
import { UserDataModule } from '../../auth/user-data.module';
import { DeliveryWorkerModule } from '../../integrations/channels/delivery-worker.module';
import { FanOutParts } from '../../integrations/channels/fan-out-parts';
import { MailWorkerModule } from '../../mail/mail-worker.module';
import { NotificationPreferencesDataModule } from '../../notification-preferences/notification-preferences-data.module';
import { OrganizationDataModule } from '../../organization/organization-data.module';
import { NotificationFanOut } from './notification-fan-out';
import { UserChannels } from './user-channels';
import { UserDeliveryQueues } from './user-delivery-queues';
import { EmailNotificationProcessor, ServerpushNotificationProcessor, TopicpushNotificationProcessor, WebhookNotificationProcessor } from './user-delivery.processors';
import { UserDeliveryRepository } from './user-delivery.repository';
import { UserDeliveryRunner } from './user-delivery.runner';

/**
 * Worker role only, no controller: users' notifications (docs/notifications.md). It joins the
 * fan-out of task events (in-app notifications and channel deliveries of the event's recipient)
 * and runs one processor per channel: email over the shared SMTP pool, topicpush, serverpush and
 * the user webhook through the destination-guarded client of the integrations' deliveries.
 */
@Module({
  imports: [WorkerQueuesModule, CryptoModule, DeliveryWorkerModule, MailWorkerModule, NotificationPreferencesDataModule, OrganizationDataModule, UserDataModule],
  providers: [
    UserDeliveryRepository,
    UserDeliveryQueues,
    NotificationFanOut,
    UserChannels,
    UserDeliveryRunner,
    EmailNotificationProcessor,
    TopicpushNotificationProcessor,
    ServerpushNotificationProcessor,
    WebhookNotificationProcessor,
  ],
})
export class NotificationWorkerModule implements OnModuleInit {
  constructor(
    private readonly parts: FanOutParts,
    private readonly fanOut: NotificationFanOut,
  ) {}

  onModuleInit(): void {
    this.parts.register(this.fanOut);
  }
}
