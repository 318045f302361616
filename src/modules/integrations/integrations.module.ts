import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxModule } from '../../queue/outbox.module';
import { DeliveryLogRepository } from './delivery-log.repository';
import { DeliveryLogService } from './delivery-log.service';
import { Integration } from './integration.entity';
import { IntegrationRepository } from './integration.repository';
import { IntegrationService } from './integration.service';
import {
  CommunitychatIntegrationController,
  GenericWebhookIntegrationController,
  MessengerIntegrationController,
  TeamchatIntegrationController,
} from './notifying-integration.controller';

/**
 * The API of a project's notifying integrations (docs/integrations.md): the four types' settings
 * and delivery logs, one controller per type made by notifyingIntegrationController(). The routes
 * locate the workspace through the `project` scope kind (registered by ProjectModule). Nothing is
 * exported: the delivery workers (channels/, worker role) read the tables through their own
 * repository. The git hosts are a module of their own (src/modules/git-hosts, GitHostsModule).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Integration]), OutboxModule],
  controllers: [MessengerIntegrationController, TeamchatIntegrationController, CommunitychatIntegrationController, GenericWebhookIntegrationController],
  providers: [IntegrationService, IntegrationRepository, DeliveryLogService, DeliveryLogRepository],
})
export class IntegrationsModule {}
