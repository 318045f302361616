import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { FlagProp, IdProp, IntProp, ObjectProp, TextProp, TimeProp } from '../../common/http/schema-props';
import { WORKFLOW_EVENTS, WORKFLOW_INTEGRATION_TYPES } from './workflow-rule.record';

/** Selfgit integration record (SelfgitIntegrationRecord; docs/records.md). */
@ApiSchema({ name: 'SelfgitIntegration' })
export class SelfgitIntegrationSchema {
  @IdProp() id: string;
  @IdProp() projectId: string;
  @TextProp() baseUrl: string;
  @TextProp() repositoryOwner: string;
  @TextProp() repositoryName: string;
  @TextProp() maskedAccessToken: string;
  @FlagProp() isActive: boolean;
  @TimeProp() createdAt: string;
  @TimeProp() updatedAt: string;
  @TextProp() webhookUrl: string;
  @TextProp({ description: 'in clear for members who manage the workspace\'s settings, `""` for the others' }) webhookSecret: string;
  @TextProp() branchPattern: string;
  @FlagProp() commentTaskLinkOnSelfgitIssue: boolean;
}

/** Hostedgit integration record (HostedgitIntegrationRecord). */
@ApiSchema({ name: 'HostedgitIntegration' })
export class HostedgitIntegrationSchema {
  @IdProp() id: string;
  @IdProp() projectId: string;
  @TextProp() repositoryOwner: string;
  @TextProp() repositoryName: string;
  @IntProp({ nullable: true }) installationId: number | null;
  @FlagProp() isActive: boolean;
  @TimeProp() createdAt: string;
  @TimeProp() updatedAt: string;
  @TextProp() branchPattern: string;
  @FlagProp() commentTaskLinkOnHostedgitIssue: boolean;
}

/** Selfgit verify answer (VerifyResult). */
@ApiSchema({ name: 'SelfgitVerifyAnswer' })
export class SelfgitVerifyAnswerSchema {
  @FlagProp() isInstalled: boolean;
  @FlagProp() hasRequiredPermissions: boolean;
  @FlagProp() repositoryExists: boolean;
  @FlagProp({ nullable: true }) repositoryPrivate: boolean | null;
  @ApiProperty({ type: [String] }) missingPermissions: string[];
  @TextProp() message: string;
}

/** Selfgit import answer (ImportResult). */
@ApiSchema({ name: 'SelfgitImportAnswer' })
export class SelfgitImportAnswerSchema {
  @IntProp() imported: number;
  @IntProp() updated: number;
  @IntProp() skipped: number;
  @ApiProperty({ type: [String] }) errors: string[];
  @FlagProp() more: boolean;
  @TextProp({ nullable: true }) note: string | null;
}

/** Inbound webhook answer (WebhookAnswer). */
@ApiSchema({ name: 'GitWebhookAnswer' })
export class GitWebhookAnswerSchema {
  @ApiProperty({ type: Boolean, enum: [true] }) ok: true;
  @ApiProperty({ enum: ['applied', 'unchanged', 'duplicate', 'ignored'] }) outcome: string;
  @ApiProperty({ type: 'array', items: { type: 'string', format: 'uuid' } }) taskIds: string[];
  @TextProp({ required: false, description: 'why nothing was done (ignored only)' }) reason?: string;
}

/** The hostedgit authorize answer `{url}`. */
@ApiSchema({ name: 'AuthorizeUrlAnswer' })
export class AuthorizeUrlAnswerSchema {
  @TextProp() url: string;
}

/** Workflow rule (WorkflowRuleRecord). */
@ApiSchema({ name: 'WorkflowRule' })
export class WorkflowRuleSchema {
  @IdProp() id: string;
  @IdProp() projectId: string;
  @ApiProperty({ enum: [...WORKFLOW_INTEGRATION_TYPES] }) integrationType: string;
  @ApiProperty({ enum: [...WORKFLOW_EVENTS] }) eventType: string;
  @IdProp() columnId: string;
  @TextProp() columnName: string;
  @TextProp() columnSlug: string;
  @TimeProp() createdAt: string;
  @TimeProp() updatedAt: string;
}

/** External link (ExternalLinkRecord). */
@ApiSchema({ name: 'ExternalLink' })
export class ExternalLinkSchema {
  @IdProp() id: string;
  @IdProp() taskId: string;
  @IdProp({ nullable: true }) integrationId: string | null;
  @ApiProperty({ enum: ['issue', 'branch', 'pull_request'] }) resourceType: string;
  @TextProp() externalId: string;
  @TextProp({ nullable: true }) url: string | null;
  @TextProp({ nullable: true }) title: string | null;
  @ObjectProp() metadata: Record<string, unknown>;
  @TimeProp() createdAt: string;
  @TimeProp() updatedAt: string;
}
