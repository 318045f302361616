import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { ColumnModule } from '../column/column.module';
import { LabelModule } from '../label/label.module';
import { ProjectModule } from '../project/project.module';
import { TaskModule } from '../task/task.module';
import { ExternalComment, ExternalLink } from './external-link.entity';
import { ExternalLinkController } from './external-link.controller';
import { ExternalLinkRepository } from './external-link.repository';
import { ExternalLinkService } from './external-link.service';
import { GitIntegration } from './git-integration.entity';
import { GitIntegrationRepository } from './git-integration.repository';
import { GitIntegrationService } from './git-integration.service';
import { GitSyncService } from './git-sync.service';
import { GitWebhookReceipt } from './git-webhook-receipt.entity';
import { GitWebhookReceiptRepository } from './git-webhook-receipt.repository';
import { WorkflowRuleController } from './workflow-rule.controller';
import { WorkflowRule } from './workflow-rule.entity';
import { WORKFLOW_RULE_SCOPE_SQL, WorkflowRuleRepository } from './workflow-rule.repository';
import { WorkflowRuleService } from './workflow-rule.service';
import { HostedgitApp } from './hostedgit/hostedgit-app';
import { HostedgitIntegrationController } from './hostedgit/hostedgit-integration.controller';
import { HostedgitIntegrationService } from './hostedgit/hostedgit-integration.service';
import { HostedgitLinkStore } from './hostedgit/hostedgit-link.store';
import { SelfgitApi } from './selfgit/selfgit-api';
import { SelfgitIntegrationController } from './selfgit/selfgit-integration.controller';
import { SelfgitIntegrationService } from './selfgit/selfgit-integration.service';

/**
 * The git hosts (docs/git-hosts.md): selfgit/ and hostedgit/ for each host's routes, client and
 * settings; at the top level what both share (the settings rows, reading the hosts' payloads,
 * the rules, GitSyncService), with the workflow-rule and external-link routes. Imports and
 * inbound webhooks change tasks only through TaskModule's write path (TaskService), and read
 * projects, columns and labels through their modules' services. The settings routes locate the
 * workspace through the `project` scope kind (registered by ProjectModule); the workflow-rule
 * routes through `workflow-rule`, registered here. Nothing is exported.
 */
@Module({
  imports: [TypeOrmModule.forFeature([GitIntegration, ExternalLink, ExternalComment, GitWebhookReceipt, WorkflowRule]), TaskModule, LabelModule, ProjectModule, ColumnModule],
  controllers: [SelfgitIntegrationController, HostedgitIntegrationController, WorkflowRuleController, ExternalLinkController],
  providers: [
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
export class GitHostsModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('workflow-rule', { notFound: 'Workflow rule not found', sql: WORKFLOW_RULE_SCOPE_SQL });
  }
}
