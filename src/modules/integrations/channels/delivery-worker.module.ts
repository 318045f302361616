import { Module } from '@nestjs/common';
import { CryptoModule } from '../../../common/crypto/crypto.module';
import { WorkerQueuesModule } from '../../../queue/queue.module';
import { DeliveryPruner } from './delivery-pruner';
import { DeliveryWorkRepository } from './delivery-work.repository';
import { CommunitychatDeliveryProcessor, GenericWebhookDeliveryProcessor, MessengerDeliveryProcessor, TeamchatDeliveryProcessor } from './delivery.processors';
import { DeliveryRunner } from './delivery.runner';
import { FanOutParts } from './fan-out-parts';
import { FanOutProcessor } from './fan-out.processor';
import { OutboundHttp } from './outbound-http';
import { TaskEventAudience } from './task-event-audience';

/**
 * Worker role only, no controller: the fan-out of task events into deliveries (and, before it,
 * TaskEventAudience, which keeps events nobody hears of out of the queue), the four channel
 * processors, the outbound HTTP client and the daily pruning of old delivery records
 * (docs/integrations.md). CryptoModule decrypts the integrations' secrets (a worker-only
 * process loads no API infrastructure); the destination guard comes from the global NetModule.
 * Exported for other delivery targets (users' notification channels): FanOutParts, where they
 * join the fan-out, and OutboundHttp, the guarded client they send with.
 */
@Module({
  imports: [WorkerQueuesModule, CryptoModule],
  exports: [FanOutParts, OutboundHttp],
  providers: [
    FanOutParts,
    DeliveryWorkRepository,
    OutboundHttp,
    DeliveryRunner,
    DeliveryPruner,
    FanOutProcessor,
    TaskEventAudience,
    MessengerDeliveryProcessor,
    TeamchatDeliveryProcessor,
    CommunitychatDeliveryProcessor,
    GenericWebhookDeliveryProcessor,
  ],
})
export class DeliveryWorkerModule {}
