import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AuthUser, CurrentUser } from '../../../common/decorators/current-user.decorator';
import { ErrorBodyKey } from '../../../common/decorators/error-body-key.decorator';
import { Public } from '../../../common/decorators/public.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../../common/decorators/require-permission.decorator';
import { ApiAnswer, ApiErrors } from '../../../common/http/api-errors';
import { AnswersJsonNull } from '../../../common/http/json-null';
import { Id } from '../../../common/pipes/id.pipe';
import { GIT_GET_ERRORS, GIT_REMOVE_ERRORS, GIT_UPDATE_ERRORS, GIT_WRITE_ERRORS, PROJECT } from '../git-routes';
import { HostedgitAuthorizeDto, HostedgitIntegrationDto, UpdateHostedgitIntegrationDto } from './dto/hostedgit.dto';
import { INSTALLATION_MISMATCH, INVALID_LINK_STATE, LINK_NOT_CONFIGURED, LINK_NOT_THIS_BROWSER, HostedgitIntegrationService, PROOF_NEEDED } from './hostedgit-integration.service';
import { SuccessAnswer } from '../../../common/http/answers.schema';
import { AuthorizeUrlAnswerSchema, GitWebhookAnswerSchema, HostedgitIntegrationSchema } from '../../git-hosts/git-hosts.schema';

@ApiTags('hostedgit-integration')
@Controller('hostedgit-integration')
export class HostedgitIntegrationController {
  constructor(private readonly hostedgit: HostedgitIntegrationService) {}

  @Get('project/:projectId')
  @ApiBearerAuth()
  @AnswersJsonNull()
  @ApiAnswer('Hostedgit integration record, or null when the project has none', HostedgitIntegrationSchema, { nullable: true })
  @RequirePermission('workspace', 'read', PROJECT)
  @ApiErrors(...GIT_GET_ERRORS)
  @ApiOperation({ summary: "The project's hostedgit integration" })
  get(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
    return this.hostedgit.get(scope.workspaceId, projectId);
  }

  @Post('project/:projectId')
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiAnswer('Hostedgit integration record', HostedgitIntegrationSchema)
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...GIT_WRITE_ERRORS, [403, PROOF_NEEDED], [400, INSTALLATION_MISMATCH])
  @ApiOperation({
    summary: "Change the settings of the project's link to a repository (replace in place); a new repository is linked through …/authorize",
  })
  replace(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: HostedgitIntegrationDto) {
    return this.hostedgit.replace(scope.workspaceId, projectId, dto);
  }

  @Post('project/:projectId/authorize')
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiAnswer('{url}: the hosted git service page where the user authorizes the App; sets the HttpOnly cookie of this browser', AuthorizeUrlAnswerSchema)
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors([503, LINK_NOT_CONFIGURED], [400, 'callbackURL must be on the origin of CLIENT_URL or PUBLIC_API_URL'])
  @ApiOperation({
    summary: 'Start linking a repository: the user authorizes the App on the hosted git service, which must show them as an admin or maintainer of it',
    description:
      'Open the answered url in the same browser; the service links the repository at its callback once the host confirms the user administers it and the App is installed on it.',
  })
  async authorize(
    @CurrentUser() user: AuthUser,
    @Scope() scope: ResolvedScope,
    @Param('projectId', Id('Project')) projectId: string,
    @Body() dto: HostedgitAuthorizeDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { url, setCookie } = await this.hostedgit.authorize(user, scope.workspaceId, projectId, dto);
    res.append('set-cookie', setCookie);
    res.setHeader('cache-control', 'no-store');
    return { url };
  }

  @Get('callback')
  @Public()
  @ApiAnswer('Hostedgit integration record, or 302 to the callbackURL with ?hostedgit=linked|error', HostedgitIntegrationSchema)
  @ApiQuery({ name: 'code', required: false })
  @ApiQuery({ name: 'state', required: true })
  @ApiErrors([400, INVALID_LINK_STATE], [400, LINK_NOT_THIS_BROWSER], [403, 'You must be an admin or maintainer of <owner>/<name> on the hosted git service to link it'])
  @ApiOperation({ summary: "The hosted git service's redirect after the user authorized the App: checks the proof and links the repository" })
  async callback(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    const out = await this.hostedgit.callback(query, req.get('cookie'));
    res.append('set-cookie', out.clearCookie);
    res.setHeader('cache-control', 'no-store');
    if (out.redirectTo) return res.redirect(302, out.redirectTo);
    res.status(200).json(out.record);
  }

  @Patch('project/:projectId')
  @ApiBearerAuth()
  @ErrorBodyKey('error')
  @ApiAnswer('Hostedgit integration record', HostedgitIntegrationSchema)
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...GIT_UPDATE_ERRORS)
  @ApiOperation({ summary: 'Change isActive, commentTaskLinkOnHostedgitIssue or branchPattern; errors answer {error}' })
  update(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: UpdateHostedgitIntegrationDto) {
    return this.hostedgit.update(scope.workspaceId, projectId, dto);
  }

  @Delete('project/:projectId')
  @ApiBearerAuth()
  @ApiAnswer('{success: true}', SuccessAnswer)
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
  @ApiBody({ description: "the App's webhook payload (JSON)", schema: { type: 'object', additionalProperties: true } })
  @ApiAnswer('{ok: true, outcome: applied | unchanged | duplicate | ignored, taskIds, reason?}', GitWebhookAnswerSchema)
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
