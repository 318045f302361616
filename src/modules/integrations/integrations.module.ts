import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxModule } from '../../queue/outbox.module';
import { CommunitychatIntegrationController } from './communitychat-integration.controller';
import { DeliveryLogRepository } from './delivery-log.repository';
import { DeliveryLogService } from './delivery-log.service';
import { GenericWebhookIntegrationController } from './generic-webhook-integration.controller';
import { Integration } from './integration.entity';
import { IntegrationRepository } from './integration.repository';
import { IntegrationService } from './integration.service';
import { MessengerIntegrationController } from './messenger-integration.controller';
import { TeamchatIntegrationController } from './teamchat-integration.controller';

/**
 * The API of the four notifying integrations of a project (docs/integrations.md): their settings
 * and their delivery logs. The routes locate the workspace through the `project` scope kind
 * (registered by ProjectModule). Nothing is exported: the delivery workers read the tables
 * through their own repository.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Integration]), OutboxModule],
  controllers: [MessengerIntegrationController, TeamchatIntegrationController, CommunitychatIntegrationController, GenericWebhookIntegrationController],
  providers: [IntegrationService, IntegrationRepository, DeliveryLogService, DeliveryLogRepository],
})
export class IntegrationsModule {}
