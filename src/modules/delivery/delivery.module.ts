import { Module } from '@nestjs/common';
import { CryptoModule } from '../../common/crypto/crypto.module';
import { OutboundHttp } from '../../common/net/outbound-http';
import { WorkerQueuesModule } from '../../queue/queue.module';
import { UserDataModule } from '../auth/user-data.module';
import { MailWorkerModule } from '../mail/mail-worker.module';
import { NotificationPreferencesDataModule } from '../notification-preferences/notification-preferences-data.module';
import { OrganizationDataModule } from '../organization/organization-data.module';
import { TaskWatchDataModule } from '../task/task-watch-data.module';
import { DeliveryPruner } from './delivery-pruner';
import { DeliveryQueues } from './delivery-queues';
import { DeliveryRecorder } from './delivery-recorder';
import { DeliveryTargetKinds } from './delivery-target-kinds';
import { DELIVERY_PROCESSORS } from './delivery.processors';
import { DeliveryRepository } from './delivery.repository';
import { DeliveryRunner } from './delivery.runner';
import { FanOutProcessor } from './fan-out.processor';
import { IntegrationDeliveriesRepository } from './integrations/integration-deliveries.repository';
import { IntegrationTargets } from './integrations/integration-targets';
import { PersonChannels } from './people/person-channels';
import { PersonDeliveryQueues } from './people/person-delivery-queues';
import { PersonDeliveryRepository } from './people/person-delivery.repository';
import { PersonTargets } from './people/person-targets';
import { LiveTap } from './live-tap';
import { TaskEventFilter } from './task-event-filter';

/**
 * Worker role only, no controller: everything that takes a task event out of the service
 * (docs/architecture.md, "Delivery"). The relay's filter (TaskEventFilter), the fan-out of task
 * events into deliveries, the two target kinds (project integrations, people's channels), one
 * processor per channel of the channel table, the runner, recorder and policy every channel
 * shares, and the daily pruning of old delivery records. CryptoModule decrypts the targets'
 * secrets (a worker-only process loads no API infrastructure); the destination guard comes from
 * the global NetModule; email goes over the shared SMTP pool (MailWorkerModule).
 */
@Module({
  imports: [WorkerQueuesModule, CryptoModule, MailWorkerModule, NotificationPreferencesDataModule, OrganizationDataModule, UserDataModule, TaskWatchDataModule],
  providers: [
    OutboundHttp,
    DeliveryQueues,
    DeliveryRepository,
    DeliveryRecorder,
    DeliveryRunner,
    DeliveryPruner,
    DeliveryTargetKinds,
    TaskEventFilter,
    LiveTap,
    FanOutProcessor,
    IntegrationDeliveriesRepository,
    IntegrationTargets,
    PersonDeliveryRepository,
    PersonDeliveryQueues,
    PersonChannels,
    PersonTargets,
    ...Object.values(DELIVERY_PROCESSORS),
  ],
})
export class DeliveryModule {}
