import { Inject, Injectable, ServiceUnavailableException, UnauthorizedException, UnsupportedMediaTypeException } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { obj, posInt } from '../git/git-events';
import { DEFAULT_BRANCH_PATTERN, GitIntegrationRow, HostedgitIntegrationRecord, toHostedgitRecord } from '../git/git-integration.record';
import { GitIntegrationService } from '../git/git-integration.service';
import { payloadRepository, readWebhook } from '../git/git-payloads';
import { GitSyncService, IssueCommenter, WebhookAnswer } from '../git/git-sync.service';
import { hmacSha256Matches, sha256Hex } from '../git/webhook-signature';
import { HostedgitIntegrationDto, UpdateHostedgitIntegrationDto } from './dto/hostedgit.dto';
import { HostedgitApp } from './hostedgit-app';

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
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: GitIntegrationService,
    private readonly sync: GitSyncService,
    private readonly app: HostedgitApp,
  ) {}

  async get(workspaceId: string, projectId: string): Promise<HostedgitIntegrationRecord | null> {
    const row = await this.settings.find(workspaceId, projectId, 'hostedgit');
    return row ? toHostedgitRecord(row) : null;
  }

  async replace(workspaceId: string, projectId: string, dto: HostedgitIntegrationDto): Promise<HostedgitIntegrationRecord> {
    const row = await this.settings.replace(
      workspaceId,
      projectId,
      'hostedgit',
      {
        is_active: true,
        base_url: null,
        access_token: null,
        repository_owner: dto.repositoryOwner,
        repository_name: dto.repositoryName,
        repository_key: `${dto.repositoryOwner}/${dto.repositoryName}`.toLowerCase(),
        installation_id: dto.installationId ?? null,
        branch_pattern: dto.branchPattern ?? DEFAULT_BRANCH_PATTERN,
        comment_task_link: dto.commentTaskLinkOnHostedgitIssue ?? false,
      },
      () => null,
    );
    return toHostedgitRecord(row);
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
