import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveryLogModule } from '../delivery/delivery-log.module';
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
 * exported: the delivery workers (src/modules/delivery, worker role) read the table through their own
 * repository, and the delivery log is the delivery module's (DeliveryLogModule). The git hosts are a module of their own (src/modules/git-hosts, GitHostsModule).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Integration]), DeliveryLogModule],
  controllers: [MessengerIntegrationController, TeamchatIntegrationController, CommunitychatIntegrationController, GenericWebhookIntegrationController],
  providers: [IntegrationService, IntegrationRepository],
})
export class IntegrationsModule {}
