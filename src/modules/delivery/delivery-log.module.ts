import { Module } from '@nestjs/common';
import { OutboxModule } from '../../queue/outbox.module';
import { DeliveryLogRepository } from './delivery-log.repository';
import { DeliveryLogService } from './delivery-log.service';

/**
 * The API side of the delivery module: the delivery log of a project's integration and its
 * redelivery (docs/integrations.md, "Delivery log"), for the integrations' routes. The delivery
 * workers are DeliveryModule (worker role only).
 */
@Module({
  imports: [OutboxModule],
  providers: [DeliveryLogRepository, DeliveryLogService],
  exports: [DeliveryLogService],
})
export class DeliveryLogModule {}
