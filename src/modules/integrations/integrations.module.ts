import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { OutboxModule } from '../../queue/outbox.module';
import { ColumnModule } from '../column/column.module';
import { LabelModule } from '../label/label.module';
import { ProjectModule } from '../project/project.module';
import { TaskModule } from '../task/task.module';
import { CommunitychatIntegrationController } from './communitychat-integration.controller';
import { DeliveryLogRepository } from './delivery-log.repository';
import { DeliveryLogService } from './delivery-log.service';
import { GenericWebhookIntegrationController } from './generic-webhook-integration.controller';
import { Integration } from './integration.entity';
import { IntegrationRepository } from './integration.repository';
import { IntegrationService } from './integration.service';
import { MessengerIntegrationController } from './messenger-integration.controller';
import { TeamchatIntegrationController } from './teamchat-integration.controller';
import { ExternalComment, ExternalLink } from './git/external-link.entity';
import { ExternalLinkController } from './git/external-link.controller';
import { ExternalLinkRepository } from './git/external-link.repository';
import { ExternalLinkService } from './git/external-link.service';
import { GitIntegration } from './git/git-integration.entity';
import { GitIntegrationRepository } from './git/git-integration.repository';
import { GitIntegrationService } from './git/git-integration.service';
import { GitSyncService } from './git/git-sync.service';
import { GitWebhookReceipt } from './git/git-webhook-receipt.entity';
import { GitWebhookReceiptRepository } from './git/git-webhook-receipt.repository';
import { WorkflowRuleController } from './git/workflow-rule.controller';
import { WorkflowRule } from './git/workflow-rule.entity';
import { WORKFLOW_RULE_SCOPE_SQL, WorkflowRuleRepository } from './git/workflow-rule.repository';
import { WorkflowRuleService } from './git/workflow-rule.service';
import { HostedgitApp } from './hostedgit/hostedgit-app';
import { HostedgitIntegrationController } from './hostedgit/hostedgit-integration.controller';
import { HostedgitIntegrationService } from './hostedgit/hostedgit-integration.service';
import { HostedgitLinkStore } from './hostedgit/hostedgit-link.store';
import { SelfgitApi } from './selfgit/selfgit-api';
import { SelfgitIntegrationController } from './selfgit/selfgit-integration.controller';
import { SelfgitIntegrationService } from './selfgit/selfgit-integration.service';

/**
 * The API of a project's integrations: the four notifying ones (docs/integrations.md), their
 * settings and delivery logs; and the two git hosts (docs/git-hosts.md: selfgit/, hostedgit/, and
 * git/ for what they share, with the workflow rules and the external links), whose imports and
 * inbound webhooks change tasks through TaskModule's write path. The routes locate the workspace through the `project` scope kind (registered by
 * ProjectModule). Nothing is exported: the delivery workers read the tables through their own
 * repository.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Integration, GitIntegration, ExternalLink, ExternalComment, GitWebhookReceipt, WorkflowRule]),
    OutboxModule,
    TaskModule,
    LabelModule,
    ProjectModule,
    ColumnModule,
  ],
  controllers: [
    MessengerIntegrationController,
    TeamchatIntegrationController,
    CommunitychatIntegrationController,
    GenericWebhookIntegrationController,
    SelfgitIntegrationController,
    HostedgitIntegrationController,
    WorkflowRuleController,
    ExternalLinkController,
  ],
  providers: [
    IntegrationService,
    IntegrationRepository,
    DeliveryLogService,
    DeliveryLogRepository,
    GitIntegrationRepository,
    GitIntegrationService,
    ExternalLinkRepository,
    GitWebhookReceiptRepository,
    GitSyncService,
    SelfgitApi,
    SelfgitIntegrationService,
    HostedgitApp,
    HostedgitIntegrationService,
    HostedgitLinkStore,
    WorkflowRuleRepository,
    WorkflowRuleService,
    ExternalLinkService,
  ],
})
export class IntegrationsModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('workflow-rule', { notFound: 'Workflow rule not found', sql: WORKFLOW_RULE_SCOPE_SQL });
  }
}
