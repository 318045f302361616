import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ErrorBodyKey } from '../../../common/decorators/error-body-key.decorator';
import { Public } from '../../../common/decorators/public.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../../common/decorators/require-permission.decorator';
import { ApiAnswer, ApiErrors } from '../../../common/http/api-errors';
import { AnswersJsonNull } from '../../../common/http/json-null';
import { Id } from '../../../common/pipes/id.pipe';
import { PROJECT } from '../integration-routes';
import { GIT_GET_ERRORS, GIT_REMOVE_ERRORS, GIT_UPDATE_ERRORS, GIT_WRITE_ERRORS } from '../git/git-routes';
import { HostedgitIntegrationDto, UpdateHostedgitIntegrationDto } from './dto/hostedgit.dto';
import { HostedgitIntegrationService } from './hostedgit-integration.service';

@ApiTags('hostedgit-integration')
@Controller('hostedgit-integration')
export class HostedgitIntegrationController {
  constructor(private readonly hostedgit: HostedgitIntegrationService) {}

  @Get('project/:projectId')
  @ApiBearerAuth()
  @AnswersJsonNull()
  @ApiAnswer('Hostedgit integration record, or null when the project has none')
  @RequirePermission('workspace', 'read', PROJECT)
  @ApiErrors(...GIT_GET_ERRORS)
  @ApiOperation({ summary: "The project's hostedgit integration" })
  get(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
    return this.hostedgit.get(scope.workspaceId, projectId);
  }

  @Post('project/:projectId')
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiAnswer('Hostedgit integration record')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...GIT_WRITE_ERRORS)
  @ApiOperation({ summary: "Link the project to a repository the service's App is installed on (create or replace)" })
  replace(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: HostedgitIntegrationDto) {
    return this.hostedgit.replace(scope.workspaceId, projectId, dto);
  }

  @Patch('project/:projectId')
  @ApiBearerAuth()
  @ErrorBodyKey('error')
  @ApiAnswer('Hostedgit integration record')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...GIT_UPDATE_ERRORS)
  @ApiOperation({ summary: 'Change isActive, commentTaskLinkOnHostedgitIssue or branchPattern; errors answer {error}' })
  update(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: UpdateHostedgitIntegrationDto) {
    return this.hostedgit.update(scope.workspaceId, projectId, dto);
  }

  @Delete('project/:projectId')
  @ApiBearerAuth()
  @ApiAnswer('{success: true}')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...GIT_REMOVE_ERRORS)
  @ApiOperation({ summary: "Delete the project's hostedgit integration" })
  remove(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
    return this.hostedgit.remove(scope.workspaceId, projectId);
  }

  @Post('webhook')
  @Public()
  @HttpCode(200)
  @ErrorBodyKey('error')
  @ApiHeader({ name: 'X-Hub-Signature-256', required: true, description: 'sha256=<hex HMAC-SHA256 of the raw body with HOSTEDGIT_WEBHOOK_SECRET>' })
  @ApiHeader({ name: 'X-GitHub-Event', required: true, description: 'issues, issue_comment, push, pull_request (others are ignored)' })
  @ApiHeader({ name: 'X-GitHub-Delivery', required: false, description: 'the delivery id (a replay of one changes nothing)' })
  @ApiBody({ description: "the App's webhook payload (JSON)", schema: { type: 'object' } })
  @ApiAnswer('{ok: true, outcome: applied | unchanged | duplicate | ignored, taskIds, reason?}')
  @ApiErrors(
    [401, 'Invalid signature'],
    [415, 'The webhook body must be JSON (Content-Type: application/json)'],
    [503, 'The hostedgit webhook is not configured on this server (HOSTEDGIT_WEBHOOK_SECRET)'],
  )
  @ApiOperation({ summary: "The hostedgit App's webhook, for every linked repository (no login: the signature proves the sender); errors answer {error}" })
  receive(@Headers() headers: Record<string, string>, @Req() req: Request & { rawBody?: Buffer }) {
    return this.hostedgit.receiveWebhook(headers, req.rawBody);
  }
}
