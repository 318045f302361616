import {
  BadGatewayException,
  BadRequestException,
  ForbiddenException,
  HttpException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
  UnauthorizedException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AuthUser } from '../../../common/decorators/current-user.decorator';
import { AccessService } from '../../../common/permissions/access.service';
import { hasPermission, insufficientPermissions } from '../../../common/permissions/permissions';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { allowedRedirect, originRule } from '../../auth/account-links';
import { AuthService } from '../../auth/auth.service';
import { readCookie } from '../../../common/http/cookies';
import { bindingCookie, bindingCookieName, bindingMatches, newBrowserBinding } from '../../oauth/oauth-browser-binding';
import { safeCode } from '../../oauth/oidc-client.service';
import { obj, posInt } from '../git-events';
import { DEFAULT_BRANCH_PATTERN, GitIntegrationRow, HostedgitIntegrationRecord, toHostedgitRecord } from '../git-integration.record';
import { GitIntegrationService } from '../git-integration.service';
import { payloadRepository, readWebhook } from '../git-payloads';
import { GitSyncService, IssueCommenter, WebhookAnswer } from '../git-sync.service';
import { hmacSha256Matches, sha256Hex } from '../webhook-signature';
import { HostedgitAuthorizeDto, HostedgitIntegrationDto, UpdateHostedgitIntegrationDto } from './dto/hostedgit.dto';
import { HostedgitApp, HostedgitRefused } from './hostedgit-app';
import { HostedgitLinkStore, PendingHostedgitLink } from './hostedgit-link.store';

export const LINK_NOT_CONFIGURED =
  'Linking a hostedgit repository is not configured on this server (HOSTEDGIT_APP_ID, HOSTEDGIT_APP_PRIVATE_KEY, HOSTEDGIT_APP_CLIENT_ID, HOSTEDGIT_APP_CLIENT_SECRET)';
export const PROOF_NEEDED = 'Link a repository through POST /hostedgit-integration/project/:projectId/authorize: the hosted git service must confirm that you administer it';
export const INSTALLATION_MISMATCH = 'installationId is not the installation of the App that covers the repository';
export const INVALID_LINK_STATE = 'Invalid or expired state';
export const LINK_NOT_THIS_BROWSER = 'This link was not started in this browser';

/** What the callback ends with: the linked record (answered as JSON) or, when the link was started with a callbackURL, where to send the browser. */
export interface LinkOutcome {
  record: HostedgitIntegrationRecord | null;
  redirectTo: string | null;
  /** Set-Cookie clearing the flow's browser cookie. */
  clearCookie: string;
}

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const ignored = (reason: string): WebhookAnswer => ({ ok: true, outcome: 'ignored', taskIds: [], reason });

/**
 * The hostedgit integration (docs/git-hosts.md, "Connecting a hostedgit repository"): a project linked to a repository
 * the service's App is installed on. One webhook URL serves every repository; a delivery is
 * verified with HOSTEDGIT_WEBHOOK_SECRET (X-Hub-Signature-256) and routed to the project whose
 * active integration links its repository. No verify and no import (the App's installation is
 * what grants access).
 */
@Injectable()
export class HostedgitIntegrationService {
  private readonly log = new Logger('HostedgitIntegration');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: GitIntegrationService,
    private readonly sync: GitSyncService,
    private readonly app: HostedgitApp,
    private readonly links: HostedgitLinkStore,
    private readonly access: AccessService,
    private readonly auth: AuthService,
  ) {}

  async get(workspaceId: string, projectId: string): Promise<HostedgitIntegrationRecord | null> {
    const row = await this.settings.find(workspaceId, projectId, 'hostedgit');
    return row ? toHostedgitRecord(row) : null;
  }

  /**
   * Replaces the settings of the project's link in place. A repository is linked only through
   * the App's authorization (`authorize`, then the host's callback), which proves that the caller
   * administers it; this route changes the settings of a link already proven: the same repository,
   * and `installationId`, when given, the one found for it. Anything else is 403.
   */
  async replace(workspaceId: string, projectId: string, dto: HostedgitIntegrationDto): Promise<HostedgitIntegrationRecord> {
    const key = repositoryKey(dto.repositoryOwner, dto.repositoryName);
    const current = await this.settings.find(workspaceId, projectId, 'hostedgit');
    if (!current || current.repository_key !== key) throw new ForbiddenException(PROOF_NEEDED);
    const installationId = current.installation_id !== null ? Number(current.installation_id) : null;
    if (dto.installationId != null && dto.installationId !== installationId) throw new BadRequestException(INSTALLATION_MISMATCH);
    return this.link(workspaceId, projectId, {
      repositoryOwner: dto.repositoryOwner,
      repositoryName: dto.repositoryName,
      installationId,
      branchPattern: dto.branchPattern ?? DEFAULT_BRANCH_PATTERN,
      commentTaskLink: dto.commentTaskLinkOnHostedgitIssue ?? false,
    });
  }

  /**
   * Starts a link (docs/git-hosts.md, "Linking proves control"): answers the host's page where the
   * user authorizes the App, and a cookie tying the flow to this browser. The callback links the
   * repository if the host shows that user as an admin or maintainer of it and the App installed on it.
   */
  async authorize(user: AuthUser, workspaceId: string, projectId: string, dto: HostedgitAuthorizeDto): Promise<{ url: string; setCookie: string }> {
    if (!this.app.userAuthorizationConfigured) throw new ServiceUnavailableException(LINK_NOT_CONFIGURED);
    let callbackURL: string | null = null;
    if (dto.callbackURL) {
      callbackURL = allowedRedirect(dto.callbackURL, this.config);
      if (!callbackURL) throw new BadRequestException(originRule('callbackURL'));
    }
    const state = randomBytes(32).toString('base64url');
    const binding = newBrowserBinding();
    await this.links.put(state, {
      userId: user.id,
      sessionId: user.sessionId ?? null,
      apiKeyId: user.apiKey?.id ?? null,
      workspaceId,
      projectId,
      repositoryOwner: dto.repositoryOwner,
      repositoryName: dto.repositoryName,
      installationId: dto.installationId ?? null,
      branchPattern: dto.branchPattern ?? DEFAULT_BRANCH_PATTERN,
      commentTaskLink: dto.commentTaskLinkOnHostedgitIssue ?? false,
      callbackURL,
      browserBinding: binding.hash,
    });
    return { url: this.app.authorizeUrl(this.redirectUri, state), setCookie: this.cookie(state, binding.secret) };
  }

  /**
   * The host's redirect after the user authorized the App (or refused). Refused unless the state is
   * live and this browser started it; then, once the proof holds, the repository is linked. Errors
   * after the state is known go to the flow's callbackURL when it has one.
   */
  async callback(query: Record<string, unknown>, cookieHeader: string | undefined): Promise<LinkOutcome> {
    const state = typeof query.state === 'string' ? query.state : '';
    const pending = await this.links.take(state);
    if (!pending) throw new BadRequestException(INVALID_LINK_STATE);
    const clearCookie = this.cookie(state, null);
    if (!bindingMatches(readCookie(cookieHeader, bindingCookieName(state)), pending.browserBinding)) throw new BadRequestException(LINK_NOT_THIS_BROWSER);
    try {
      const record = await this.prove(pending, query);
      return { record, redirectTo: pending.callbackURL ? withQuery(pending.callbackURL, { hostedgit: 'linked', projectId: pending.projectId }) : null, clearCookie };
    } catch (err) {
      if (!pending.callbackURL || !(err instanceof HttpException)) throw err;
      const message = (err.getResponse() as { message?: unknown }).message;
      return { record: null, redirectTo: withQuery(pending.callbackURL, { hostedgit: 'error', message: String(message ?? err.message) }), clearCookie };
    }
  }

  /** Checks the proof of a pending link and links the repository. */
  private async prove(pending: PendingHostedgitLink, query: Record<string, unknown>): Promise<HostedgitIntegrationRecord> {
    if (query.error !== undefined) throw new BadRequestException(`The hosted git service refused the authorization: ${safeCode(query.error)}`);
    if (typeof query.code !== 'string' || !query.code || query.code.length > 512) throw new BadRequestException('code is required');
    // The person who started the link may have lost the right, or their credential, meanwhile.
    if (!(await this.auth.credentialIsLive({ id: pending.userId, sessionId: pending.sessionId, apiKeyId: pending.apiKeyId }))) throw new UnauthorizedException('Unauthorized');
    const membership = await this.access.membership(pending.workspaceId, pending.userId);
    if (!membership) throw new NotFoundException('Project not found');
    if (!hasPermission(await this.access.permissionsFor(pending.workspaceId, membership.roles), 'workspace', 'manage_settings'))
      throw new ForbiddenException(insufficientPermissions('workspace', 'manage_settings'));

    const { repositoryOwner: owner, repositoryName: name } = pending;
    const full = `${owner}/${name}`;
    const installationId = await this.askHost(async () => {
      const userToken = await this.app.userToken(query.code as string, this.redirectUri);
      if (!userToken) throw new BadRequestException('The hosted git service refused the authorization code');
      const perms = await this.app.userPermissions(userToken, owner, name);
      if (!perms) throw new ForbiddenException(`The hosted git service does not show you ${full} through the App (is the App installed on it?)`);
      if (perms.admin !== true && perms.maintain !== true) throw new ForbiddenException(`You must be an admin or maintainer of ${full} on the hosted git service to link it`);
      const found = await this.app.installationOf(owner, name);
      if (found === null) throw new BadRequestException(`The App is not installed on ${full}`);
      return found;
    });
    if (pending.installationId !== null && pending.installationId !== installationId) throw new BadRequestException(INSTALLATION_MISMATCH);
    return this.link(pending.workspaceId, pending.projectId, { ...pending, installationId });
  }

  /** Runs calls to the host; answers 400 for a refused authorization and 502 when the host cannot be asked. */
  private async askHost<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof HttpException) throw err;
      if (err instanceof HostedgitRefused) throw new BadRequestException(err.message);
      this.log.warn(`Checking a hostedgit link failed: ${(err as Error)?.message ?? String(err)}`);
      throw new BadGatewayException('The hosted git service could not be asked; try again');
    }
  }

  private async link(
    workspaceId: string,
    projectId: string,
    v: { repositoryOwner: string; repositoryName: string; installationId: number | null; branchPattern: string; commentTaskLink: boolean },
  ): Promise<HostedgitIntegrationRecord> {
    const row = await this.settings.replace(
      workspaceId,
      projectId,
      'hostedgit',
      {
        is_active: true,
        base_url: null,
        access_token: null,
        repository_owner: v.repositoryOwner,
        repository_name: v.repositoryName,
        repository_key: repositoryKey(v.repositoryOwner, v.repositoryName),
        installation_id: v.installationId,
        branch_pattern: v.branchPattern,
        comment_task_link: v.commentTaskLink,
      },
      () => null,
    );
    return toHostedgitRecord(row);
  }

  /** Where the host sends the browser back: registered as the App's callback URL. */
  private get redirectUri(): string {
    return `${this.config.publicApiUrl}/api/hostedgit-integration/callback`;
  }

  private cookie(state: string, secret: string | null): string {
    return bindingCookie(bindingCookieName(state), secret, new URL(this.redirectUri).pathname, this.redirectUri.startsWith('https:'));
  }

  async update(workspaceId: string, projectId: string, dto: UpdateHostedgitIntegrationDto): Promise<HostedgitIntegrationRecord> {
    const row = await this.settings.update(workspaceId, projectId, 'hostedgit', {
      is_active: dto.isActive,
      comment_task_link: dto.commentTaskLinkOnHostedgitIssue,
      branch_pattern: dto.branchPattern,
    });
    return toHostedgitRecord(row);
  }

  remove(workspaceId: string, projectId: string): Promise<{ success: true }> {
    return this.settings.remove(workspaceId, projectId, 'hostedgit');
  }

  /**
   * A delivery of the App's webhook. Refused (nothing changes, {error}) unless signed with
   * HOSTEDGIT_WEBHOOK_SECRET; ignored when no active integration links its repository, or when
   * the integration names another installation.
   */
  async receiveWebhook(headers: Record<string, string | string[] | undefined>, raw: Buffer | undefined): Promise<WebhookAnswer> {
    const secret = this.config.hostedgit.webhookSecret;
    if (!secret) throw new ServiceUnavailableException('The hostedgit webhook is not configured on this server (HOSTEDGIT_WEBHOOK_SECRET)');
    if (!raw) throw new UnsupportedMediaTypeException('The webhook body must be JSON (Content-Type: application/json)');
    if (!hmacSha256Matches(secret, raw, header(headers, 'x-hub-signature-256'), 'sha256=')) throw new UnauthorizedException('Invalid signature');
    const payload: unknown = JSON.parse(raw.toString('utf8'));
    const eventName = header(headers, 'x-github-event') ?? '';
    if (eventName === 'ping') return ignored('ping');
    const repo = payloadRepository(payload);
    if (!repo) return ignored('The event names no repository');
    const integration = await this.settings.findActiveByRepository('hostedgit', `${repo.owner}/${repo.name}`.toLowerCase());
    if (!integration) return ignored('No active integration links this repository');
    const installationId = posInt(obj(obj(payload).installation).id);
    if (integration.installation_id !== null && installationId !== null && Number(integration.installation_id) !== installationId) {
      return ignored('The event comes from another installation of the App');
    }
    const event = readWebhook('hostedgit', eventName, payload);
    const ctx = await this.sync.context(integration);
    const sha = sha256Hex(raw);
    const deliveryId = header(headers, 'x-github-delivery')?.slice(0, 200) || `sha256:${sha}`;
    return this.sync.receive(ctx, { receiver: 'hostedgit', deliveryId, bodySha256: sha }, event, this.commenter(integration, installationId));
  }

  /** The task-link comment as the App's installation (the integration's, else the event's); null when the App is not configured. */
  private commenter(integration: GitIntegrationRow, eventInstallationId: number | null): IssueCommenter | null {
    const installationId = integration.installation_id !== null ? Number(integration.installation_id) : eventInstallationId;
    if (!this.app.configured || installationId === null) return null;
    return (number, body) => this.app.comment(installationId, integration.repository_owner, integration.repository_name, number, body);
  }
}

const repositoryKey = (owner: string, name: string): string => `${owner}/${name}`.toLowerCase();

/** `url` with the given query parameters added (or replaced). */
function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}
