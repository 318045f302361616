import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiKeyScope } from '../../../common/decorators/api-key-scope.decorator';
import { AuthUser, CurrentUser } from '../../../common/decorators/current-user.decorator';
import { ErrorBodyKey } from '../../../common/decorators/error-body-key.decorator';
import { Public } from '../../../common/decorators/public.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../../common/decorators/require-permission.decorator';
import { ApiAnswer, ApiErrors } from '../../../common/http/api-errors';
import { AnswersJsonNull } from '../../../common/http/json-null';
import { Id } from '../../../common/pipes/id.pipe';
import { GIT_GET_ERRORS, GIT_REMOVE_ERRORS, GIT_UPDATE_ERRORS, GIT_WRITE_ERRORS, WEBHOOK_ERRORS, PROJECT } from '../git-routes';
import { ImportIssuesDto, SelfgitIntegrationDto, UpdateSelfgitIntegrationDto, VerifySelfgitDto } from './dto/selfgit.dto';
import { SelfgitIntegrationService } from './selfgit-integration.service';
import { SuccessAnswer } from '../../../common/http/answers.schema';
import { GitWebhookAnswerSchema, SelfgitImportAnswerSchema, SelfgitIntegrationSchema, SelfgitVerifyAnswerSchema } from '../../git-hosts/git-hosts.schema';

const SERVER_400 = [
  400,
  'baseUrl must be an http(s) URL',
  'Webhook destination resolves to a non-routable address',
  'The selfgit server could not be reached: <why>',
  'No selfgit server answers at <baseUrl> (…)',
] as const;

@ApiTags('selfgit-integration')
@Controller('selfgit-integration')
export class SelfgitIntegrationController {
  constructor(private readonly selfgit: SelfgitIntegrationService) {}

  @Get('project/:projectId')
  @ApiBearerAuth()
  @AnswersJsonNull()
  @ApiAnswer('Selfgit integration record, or null when the project has none', SelfgitIntegrationSchema, { nullable: true })
  @RequirePermission('workspace', 'read', PROJECT)
  @ApiErrors(...GIT_GET_ERRORS)
  @ApiOperation({ summary: "The project's selfgit integration; webhookSecret in clear only for members with workspace:manage_settings" })
  get(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('projectId', Id('Project')) projectId: string) {
    return this.selfgit.get(scope, user, projectId);
  }

  @Post('project/:projectId')
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiAnswer('Selfgit integration record', SelfgitIntegrationSchema)
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors([...SERVER_400, 'Repository not found, or the token cannot see it.', 'The selfgit server refused the access token'], ...GIT_WRITE_ERRORS)
  @ApiOperation({ summary: "Create or replace the project's selfgit integration, after checking the token can write to the repository's issues" })
  replace(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: SelfgitIntegrationDto) {
    return this.selfgit.replace(scope.workspaceId, projectId, dto);
  }

  @Patch('project/:projectId')
  @ApiBearerAuth()
  @ApiAnswer('Selfgit integration record', SelfgitIntegrationSchema)
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...GIT_UPDATE_ERRORS)
  @ApiOperation({ summary: 'Change isActive, commentTaskLinkOnSelfgitIssue or branchPattern' })
  update(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: UpdateSelfgitIntegrationDto) {
    return this.selfgit.update(scope.workspaceId, projectId, dto);
  }

  @Delete('project/:projectId')
  @ApiBearerAuth()
  @ApiAnswer('{success: true}', SuccessAnswer)
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...GIT_REMOVE_ERRORS)
  @ApiOperation({ summary: "Delete the project's selfgit integration" })
  remove(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
    return this.selfgit.remove(scope.workspaceId, projectId);
  }

  @Post('project/:projectId/rotate-webhook-secret')
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiAnswer('Selfgit integration record', SelfgitIntegrationSchema)
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...GIT_REMOVE_ERRORS)
  @ApiOperation({
    summary:
      'Give the integration a new webhook secret (answered in the record); deliveries signed with the secret it replaces are still accepted for 24 hours, then only the new one',
  })
  rotateWebhookSecret(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('projectId', Id('Project')) projectId: string) {
    return this.selfgit.rotateWebhookSecret(scope, user, projectId);
  }

  @Post('verify')
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiKeyScope('workspace', 'manage_settings')
  @ApiAnswer('{isInstalled, hasRequiredPermissions, repositoryExists, repositoryPrivate, missingPermissions, message}', SelfgitVerifyAnswerSchema)
  @ApiErrors(
    [...SERVER_400],
    [401, 'The selfgit server refused the access token'],
    [403, 'Insufficient permissions: workspace:manage_settings is needed', 'Insufficient API key scope'],
    [404, 'Project not found'],
  )
  @ApiOperation({ summary: 'Check what an access token can do on a selfgit repository (nothing is stored)' })
  verify(@CurrentUser() user: AuthUser, @Body() dto: VerifySelfgitDto) {
    return this.selfgit.verify(user, dto);
  }

  @Post('import-issues')
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiAnswer(
    'Selfgit import answer {imported, updated, skipped, errors, more, note}: more is true when the run stopped at one of its bounds (500 issues imported or updated, 30 s, 100 new comments of an issue, by default; docs/git-hosts.md, "Importing issues") and the next run goes on with the rest, note says which; a page of more than the 100 issues asked for is cut to 100 and reported in errors',
    SelfgitImportAnswerSchema,
  )
  @RequirePermission('workspace', 'manage_settings', { kind: 'project', from: 'body', key: 'projectId' })
  @ApiErrors(
    [
      400,
      'projectId is required',
      'The selfgit integration is not active',
      'The selfgit server refused the access token',
      'The selfgit server answered more than 4 MiB for one page of issues',
    ],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Project not found', 'Integration not found'],
    [409, 'An import is already running for this project'],
  )
  @ApiOperation({ summary: "Import the repository's open issues as tasks, in bounded runs (again: updates, never duplicates, goes on where the last run stopped)" })
  importIssues(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Body() dto: ImportIssuesDto) {
    return this.selfgit.importIssues(scope.workspaceId, user, dto);
  }

  @Post('webhook/:integrationId')
  @Public()
  @HttpCode(200)
  @ErrorBodyKey('error')
  @ApiHeader({ name: 'X-Gitea-Signature', required: true, description: 'hex HMAC-SHA256 of the raw body with the webhookSecret' })
  @ApiHeader({ name: 'X-Gitea-Event', required: true, description: 'issues, issue_comment, push, pull_request (others are ignored)' })
  @ApiHeader({ name: 'X-Gitea-Delivery', required: false, description: 'the delivery id (a replay of one changes nothing)' })
  @ApiBody({ description: "the selfgit server's webhook payload (JSON)", schema: { type: 'object', additionalProperties: true } })
  @ApiAnswer('{ok: true, outcome: applied | unchanged | duplicate | ignored, taskIds, reason?}', GitWebhookAnswerSchema)
  @ApiErrors(...WEBHOOK_ERRORS)
  @ApiOperation({ summary: "The selfgit repository's webhook (no login: the signature proves the sender); errors answer {error}" })
  receive(@Param('integrationId') integrationId: string, @Headers() headers: Record<string, string>, @Req() req: Request & { rawBody?: Buffer }) {
    return this.selfgit.receiveWebhook(integrationId, headers, req.rawBody);
  }
}
