import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  HttpException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  UnauthorizedException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { keyScopeAllows } from '../../../common/decorators/api-key-scope.decorator';
import { AuthUser } from '../../../common/decorators/current-user.decorator';
import { ResolvedScope } from '../../../common/decorators/require-permission.decorator';
import { CryptoService } from '../../../common/crypto/crypto.service';
import { DestinationGuard, DestinationRefusedError } from '../../../common/net/destination-guard';
import { isUuid } from '../../../common/pipes/id.pipe';
import { AccessService } from '../../../common/permissions/access.service';
import { hasPermission, insufficientPermissions } from '../../../common/permissions/permissions';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { GitComment, obj } from '../git-events';
import { GitIntegrationRow, SelfgitIntegrationRecord, toSelfgitRecord, DEFAULT_BRANCH_PATTERN } from '../git-integration.record';
import { GitIntegrationService, INTEGRATION_NOT_FOUND } from '../git-integration.service';
import { payloadRepository, readComment, readIssue, readWebhook } from '../git-payloads';
import { GitSyncService, IssueCommenter, WebhookAnswer } from '../git-sync.service';
import { hmacSha256Matches, sha256Hex } from '../webhook-signature';
import { ImportIssuesDto, SelfgitConnectionDto, SelfgitIntegrationDto, UpdateSelfgitIntegrationDto, VerifySelfgitDto } from './dto/selfgit.dto';
import { Answer, ISSUES_PER_PAGE, MAX_LIST_BYTES, SelfgitAnswerTooLarge, SelfgitApi, SelfgitConnection, SelfgitError } from './selfgit-api';

/** The answer of verify (docs/git-hosts.md, "Verify"). */
export interface VerifyResult {
  isInstalled: boolean;
  hasRequiredPermissions: boolean;
  repositoryExists: boolean;
  repositoryPrivate: boolean | null;
  missingPermissions: string[];
  message: string;
}

/** The answer of an import (docs/git-hosts.md, "Importing issues"). */
export interface ImportResult {
  imported: number;
  updated: number;
  skipped: number;
  errors: string[];
  /** The run stopped at one of its bounds with issues (or comments) left: the next run goes on with them. */
  more: boolean;
  /** Which bound stopped the run, in words; null when it read the list to its end. */
  note: string | null;
}

export const VERIFY_OK = 'Token can access the repository.';
export const VERIFY_NO_WRITE = 'Token can read the repository but cannot write to its issues.';
export const VERIFY_NO_REPOSITORY = 'Repository not found, or the token cannot see it.';
export const TOKEN_REFUSED = 'The selfgit server refused the access token';
export const WRITE_PERMISSION = 'issues (write)';

/** Pages read at most by one import (100 issues each): a bound against a server that never ends a list. */
const MAX_PAGES = 1000;
/** Comments of one issue copied at most by one import; the others are copied by the next one. */
export const MAX_COMMENTS_PER_ISSUE = 100;

/** A size in whole MiB, for messages. */
const mib = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MiB`;

/** A 48-hex-character webhook secret (24 random bytes). */
const newWebhookSecret = () => randomBytes(24).toString('hex');

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * The selfgit integration (docs/git-hosts.md, "Connecting a selfgit repository"): settings (the access token encrypted,
 * the base URL through the destination guard, access verified before anything is stored), verify,
 * the issue import, and the inbound webhook. Task changes go through GitSyncService.
 */
@Injectable()
export class SelfgitIntegrationService {
  private readonly logger = new Logger('SelfgitIntegration');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: GitIntegrationService,
    private readonly sync: GitSyncService,
    private readonly api: SelfgitApi,
    private readonly crypto: CryptoService,
    private readonly destinations: DestinationGuard,
    private readonly access: AccessService,
  ) {}

  // ---- settings ----

  /** The project's integration, or null. The webhook secret shows in clear only to those who manage the settings. */
  async get(scope: ResolvedScope, user: AuthUser, projectId: string): Promise<SelfgitIntegrationRecord | null> {
    const row = await this.settings.find(scope.workspaceId, projectId, 'selfgit');
    return row ? this.toRecord(row, this.managesSettings(scope, user)) : null;
  }

  /** Creates or replaces the integration in place after checking the token can write to the repository's issues. */
  async replace(workspaceId: string, projectId: string, dto: SelfgitIntegrationDto): Promise<SelfgitIntegrationRecord> {
    const conn = await this.connection(dto);
    let verified: VerifyResult;
    try {
      verified = await this.check(conn, dto.repositoryOwner, dto.repositoryName);
    } catch (err) {
      // A refused token is bad input here (a 401 would read as the caller's own session failing).
      if (err instanceof SelfgitError) throw new BadRequestException(err.message);
      throw err;
    }
    if (!verified.repositoryExists) throw new BadRequestException(VERIFY_NO_REPOSITORY);
    if (!verified.hasRequiredPermissions) throw new BadRequestException(`The access token lacks a permission on the repository: ${WRITE_PERMISSION}`);
    const row = await this.settings.replace(
      workspaceId,
      projectId,
      'selfgit',
      {
        is_active: true,
        base_url: conn.baseUrl,
        access_token: this.crypto.encrypt(conn.accessToken),
        repository_owner: dto.repositoryOwner,
        repository_name: dto.repositoryName,
        repository_key: `${conn.baseUrl}/${dto.repositoryOwner}/${dto.repositoryName}`.toLowerCase(),
        installation_id: null,
        branch_pattern: dto.branchPattern ?? DEFAULT_BRANCH_PATTERN,
        comment_task_link: dto.commentTaskLinkOnSelfgitIssue ?? false,
      },
      () => this.crypto.encrypt(newWebhookSecret()),
    );
    return this.toRecord(row, true);
  }

  async update(workspaceId: string, projectId: string, dto: UpdateSelfgitIntegrationDto): Promise<SelfgitIntegrationRecord> {
    const row = await this.settings.update(workspaceId, projectId, 'selfgit', {
      is_active: dto.isActive,
      comment_task_link: dto.commentTaskLinkOnSelfgitIssue,
      branch_pattern: dto.branchPattern,
    });
    return this.toRecord(row, true);
  }

  remove(workspaceId: string, projectId: string): Promise<{ success: true }> {
    return this.settings.remove(workspaceId, projectId, 'selfgit');
  }

  /**
   * A new webhook secret for the integration (docs/git-hosts.md, "Rotating the webhook secret"):
   * answered in the record, as the record shows it; deliveries signed with the secret it replaces
   * are still accepted for 24 hours, so the git server can be given the new one meanwhile.
   */
  async rotateWebhookSecret(scope: ResolvedScope, user: AuthUser, projectId: string): Promise<SelfgitIntegrationRecord> {
    const row = await this.settings.rotateWebhookSecret(scope.workspaceId, projectId, 'selfgit', this.crypto.encrypt(newWebhookSecret()));
    return this.toRecord(row, this.managesSettings(scope, user));
  }

  // ---- verify ----

  /**
   * Checks what the token can do on the repository. The caller must hold workspace:manage_settings
   * in the project's workspace when `projectId` is given, else in at least one workspace.
   */
  async verify(user: AuthUser, dto: VerifySelfgitDto): Promise<VerifyResult> {
    await this.assertMayVerify(user, dto.projectId);
    const conn = await this.connection(dto);
    try {
      return await this.check(conn, dto.repositoryOwner, dto.repositoryName);
    } catch (err) {
      if (err instanceof SelfgitError) throw err.status === 401 ? new UnauthorizedException(err.message) : new BadRequestException(err.message);
      throw err;
    }
  }

  /**
   * GET /user (is this a selfgit server, does it take the token), then GET the repository (does
   * it exist for the token, may the token write: `permissions.admin || permissions.push`).
   */
  private async check(conn: SelfgitConnection, owner: string, name: string): Promise<VerifyResult> {
    const user = await this.api.get(conn, '/user');
    if (user.status === 401 || user.status === 403) throw new SelfgitError(401, TOKEN_REFUSED);
    if (user.status !== 200 || typeof obj(user.json).login !== 'string') {
      throw new SelfgitError(400, `No selfgit server answers at ${conn.baseUrl} (GET /api/v1/user answered HTTP ${user.status}${user.json === undefined ? ', not JSON' : ''})`);
    }
    const repo = await this.api.get(conn, SelfgitApi.repoPath(owner, name));
    if (repo.status === 404) {
      return { isInstalled: false, hasRequiredPermissions: false, repositoryExists: false, repositoryPrivate: null, missingPermissions: [], message: VERIFY_NO_REPOSITORY };
    }
    if (repo.status === 401 || repo.status === 403) throw new SelfgitError(401, TOKEN_REFUSED);
    const body = obj(repo.json);
    if (repo.status !== 200 || typeof body.name !== 'string') throw new SelfgitError(400, `The selfgit server answered HTTP ${repo.status} for the repository`);
    const permissions = obj(body.permissions);
    const write = permissions.admin === true || permissions.push === true;
    const repositoryPrivate = body.private === true;
    if (!write) {
      return { isInstalled: true, hasRequiredPermissions: false, repositoryExists: true, repositoryPrivate, missingPermissions: [WRITE_PERMISSION], message: VERIFY_NO_WRITE };
    }
    return { isInstalled: true, hasRequiredPermissions: true, repositoryExists: true, repositoryPrivate, missingPermissions: [], message: VERIFY_OK };
  }

  private async assertMayVerify(user: AuthUser, projectId: string | undefined): Promise<void> {
    if (projectId !== undefined) {
      const found = isUuid(projectId) ? await this.access.locate('project', projectId.toLowerCase(), user.id) : null;
      if (!found?.memberId) throw new NotFoundException('Project not found');
      if (!hasPermission(await this.access.permissionsFor(found.workspaceId, found.roles), 'workspace', 'manage_settings')) {
        throw new ForbiddenException(insufficientPermissions('workspace', 'manage_settings'));
      }
      return;
    }
    if (!(await this.access.holdsInAnyWorkspace(user.id, 'workspace', 'manage_settings'))) throw new ForbiddenException(insufficientPermissions('workspace', 'manage_settings'));
  }

  // ---- import ----

  /**
   * Imports the repository's open issues (pages of 100), each in a transaction of its own, so a
   * large repository never holds one transaction open and its tasks appear as they are made. One
   * import per project at a time (409 while another runs). A run is bounded (docs/git-hosts.md,
   * "Importing issues"): never more than 100 issues of a page, pages and comment lists of at most
   * 4 MiB, SELFGIT_IMPORT_MAX_ISSUES issues imported or updated, MAX_COMMENTS_PER_ISSUE comments
   * copied per issue, and no new issue or page taken after SELFGIT_IMPORT_TIME_LIMIT_MS; what is
   * left is reported (`more`) for the next run.
   */
  async importIssues(workspaceId: string, user: AuthUser, dto: ImportIssuesDto): Promise<ImportResult> {
    const projectId = dto.projectId.toLowerCase();
    const integration = await this.settings.find(workspaceId, projectId, 'selfgit');
    if (!integration) throw new NotFoundException(INTEGRATION_NOT_FOUND);
    if (!integration.is_active) throw new BadRequestException('The selfgit integration is not active');
    if (!(await this.settings.claimImport(workspaceId, integration.id))) throw new ConflictException('An import is already running for this project');
    try {
      return await this.runImport(integration, user);
    } finally {
      await this.settings.releaseImport(workspaceId, integration.id);
    }
  }

  private async runImport(integration: GitIntegrationRow, user: AuthUser): Promise<ImportResult> {
    const conn = this.storedConnection(integration);
    const ctx = await this.sync.context(integration);
    const commenter = this.commenter(integration, conn);
    const repoPath = SelfgitApi.repoPath(integration.repository_owner, integration.repository_name);
    const { maxIssues, timeLimitMs } = this.config.selfgitImport;
    const deadline = Date.now() + timeLimitMs;
    const result: ImportResult = { imported: 0, updated: 0, skipped: 0, errors: [], more: false, note: null };
    // What stopped the run is its note; comments left on an issue are noted only when nothing stopped it.
    const stop = (note: string) => {
      result.more = true;
      result.note = note;
    };
    const again = 'run the import again for the rest';
    let seen = 0;
    pages: for (let page = 1; ; page++) {
      if (page > MAX_PAGES) {
        stop(`Stopped after ${MAX_PAGES} pages of issues: ${again}`);
        break;
      }
      if (Date.now() >= deadline) {
        stop(`Stopped after ${timeLimitMs / 1000} s, the longest one import runs: ${again}`);
        break;
      }
      let list: unknown[];
      let total: number;
      try {
        const answer = await this.api.get(conn, `${repoPath}/issues?state=open&type=issues&page=${page}&limit=${ISSUES_PER_PAGE}`, MAX_LIST_BYTES);
        if (answer.status === 401 || answer.status === 403) throw new SelfgitError(400, TOKEN_REFUSED);
        if (answer.status === 404) throw new SelfgitError(400, VERIFY_NO_REPOSITORY);
        if (answer.status !== 200 || !Array.isArray(answer.json)) throw new SelfgitError(400, `The selfgit server answered HTTP ${answer.status} for the issue list`);
        list = answer.json;
        total = Number(answer.headers['x-total-count']);
      } catch (err) {
        if (!(err instanceof SelfgitError)) throw err;
        const why = err instanceof SelfgitAnswerTooLarge ? `The selfgit server answered more than ${mib(err.maxBytes)} for one page of issues` : err.message;
        // Nothing read yet: the import as a whole fails; later, what was imported stays and the rest is reported.
        if (page === 1) throw new BadRequestException(why);
        result.errors.push(`Listing issues stopped at page ${page}: ${why}`);
        break;
      }
      if (!list.length) break;
      // A server that answers more than it was asked for does not page as asked: the issues past the
      // page size are not taken, and no further page is read.
      const oversized = list.length > ISSUES_PER_PAGE;
      if (oversized) {
        result.errors.push(
          `Listing issues stopped at page ${page}: the selfgit server answered ${list.length} issues for a page of ${ISSUES_PER_PAGE}; the ${list.length - ISSUES_PER_PAGE} beyond were not imported`,
        );
      }
      for (const raw of oversized ? list.slice(0, ISSUES_PER_PAGE) : list) {
        const issue = readIssue(raw);
        if (!issue || issue.state !== 'open') continue; // pull requests, and anything not open
        if (result.imported + result.updated >= maxIssues) {
          stop(`Stopped after ${maxIssues} issues imported or updated, the most one import takes: ${again}`);
          break pages;
        }
        if (Date.now() >= deadline) {
          stop(`Stopped after ${timeLimitMs / 1000} s, the longest one import runs: ${again}`);
          break pages;
        }
        try {
          const count = obj(raw).comments;
          const comments = typeof count === 'number' && count === 0 ? [] : await this.comments(conn, repoPath, issue.number);
          const done = await this.sync.importIssue(ctx, issue, comments, user.id, commenter, MAX_COMMENTS_PER_ISSUE);
          result[done.outcome]++;
          if (done.commentsLeft) {
            result.more = true;
            result.note ??= `Issue #${issue.number} has more new comments than one import copies (${MAX_COMMENTS_PER_ISSUE}): ${again}`;
          }
        } catch (err) {
          result.errors.push(`Issue #${issue.number}: ${this.reason(err, integration.id, issue.number)}`);
        }
      }
      if (oversized) break;
      seen += list.length;
      if (Number.isFinite(total) && seen >= total) break;
    }
    return result;
  }

  private async comments(conn: SelfgitConnection, repoPath: string, number: number): Promise<GitComment[]> {
    let answer: Answer;
    try {
      answer = await this.api.get(conn, `${repoPath}/issues/${number}/comments`, MAX_LIST_BYTES);
    } catch (err) {
      if (err instanceof SelfgitAnswerTooLarge) throw new SelfgitError(400, `its comments could not be read (the answer is larger than ${mib(err.maxBytes)})`);
      throw err;
    }
    if (answer.status !== 200 || !Array.isArray(answer.json)) throw new SelfgitError(400, `its comments could not be read (HTTP ${answer.status})`);
    return answer.json.map(readComment).filter((c): c is GitComment => c !== null);
  }

  /** Why one issue failed, for `errors`: our own messages as they are, anything else logged and named generically. */
  private reason(err: unknown, integrationId: string, issueNumber: number): string {
    if (err instanceof SelfgitError || err instanceof HttpException) return err.message;
    this.logger.error(`Importing issue #${issueNumber} (selfgit integration ${integrationId}) failed`, (err as Error)?.stack);
    return 'Internal error';
  }

  // ---- inbound webhook ----

  /**
   * A delivery of the repository's webhook: the integration named in the URL, the body signed
   * with its webhook secret (X-Gitea-Signature, hex HMAC-SHA256, compared in constant time);
   * anything else changes nothing. Errors answer {error} (the route says so).
   */
  async receiveWebhook(integrationId: string, headers: Record<string, string | string[] | undefined>, raw: Buffer | undefined): Promise<WebhookAnswer> {
    const integration = isUuid(integrationId) ? await this.settings.findForWebhook('selfgit', integrationId.toLowerCase()) : undefined;
    if (!integration) throw new NotFoundException(INTEGRATION_NOT_FOUND);
    if (!raw) throw new UnsupportedMediaTypeException('The webhook body must be JSON (Content-Type: application/json)');
    // The current secret, or the one a rotation replaced while its 24-hour overlap lasts (findForWebhook answers it only then).
    const signature = header(headers, 'x-gitea-signature');
    const signedBy = (cipher: string | null) => {
      const secret = this.crypto.decryptNullable(cipher);
      return !!secret && hmacSha256Matches(secret, raw, signature);
    };
    if (!signedBy(integration.webhook_secret) && !signedBy(integration.webhook_previous_secret)) throw new UnauthorizedException('Invalid signature');
    const payload: unknown = JSON.parse(raw.toString('utf8'));
    if (!integration.is_active) return { ok: true, outcome: 'ignored', taskIds: [], reason: 'The integration is not active' };
    const repo = payloadRepository(payload);
    if (repo && `${repo.owner}/${repo.name}`.toLowerCase() !== `${integration.repository_owner}/${integration.repository_name}`.toLowerCase()) {
      return { ok: true, outcome: 'ignored', taskIds: [], reason: 'The event is about another repository' };
    }
    const event = readWebhook('selfgit', header(headers, 'x-gitea-event') ?? '', payload);
    const ctx = await this.sync.context(integration);
    const sha = sha256Hex(raw);
    const deliveryId = header(headers, 'x-gitea-delivery')?.slice(0, 200) || `sha256:${sha}`;
    return this.sync.receive(ctx, { receiver: `selfgit:${integration.id}`, deliveryId, bodySha256: sha }, event, this.commenter(integration, this.storedConnection(integration)));
  }

  // ---- helpers ----

  /** Posts the task-link comment through the API with the integration's token. */
  private commenter(integration: GitIntegrationRow, conn: SelfgitConnection): IssueCommenter {
    const repoPath = SelfgitApi.repoPath(integration.repository_owner, integration.repository_name);
    return async (number, body) => {
      const answer = await this.api.post(conn, `${repoPath}/issues/${number}/comments`, { body });
      const id = obj(answer.json).id;
      if (answer.status !== 201 && answer.status !== 200) throw new Error(`the selfgit server answered HTTP ${answer.status}`);
      return String(id ?? '');
    };
  }

  /** The base URL as stored (no trailing slash, credentials, query or fragment), checked by the destination guard. */
  private async connection(dto: SelfgitConnectionDto): Promise<SelfgitConnection> {
    let u: URL;
    try {
      u = new URL(dto.baseUrl);
    } catch {
      throw new BadRequestException('baseUrl must be an http(s) URL');
    }
    if (u.username || u.password || u.search || u.hash) throw new BadRequestException('baseUrl must not carry credentials, a query or a fragment');
    // The API's own address (…/api/v1) is accepted for the server's.
    const path = u.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/i, '');
    const baseUrl = `${u.origin}${path}`;
    try {
      await this.destinations.check(baseUrl);
    } catch (err) {
      if (err instanceof DestinationRefusedError) throw new BadRequestException(err.message);
      throw err;
    }
    return { baseUrl, accessToken: dto.accessToken };
  }

  private storedConnection(row: GitIntegrationRow): SelfgitConnection {
    return { baseUrl: row.base_url!, accessToken: this.crypto.decrypt(row.access_token!) };
  }

  /** Whether the caller may see the webhook secret: workspace:manage_settings, and the API key's scope for it. */
  private managesSettings(scope: ResolvedScope, user: AuthUser): boolean {
    if (!hasPermission(scope.permissions, 'workspace', 'manage_settings')) return false;
    const keyScopes = user.apiKey?.permissions;
    return !keyScopes || keyScopeAllows(keyScopes, 'workspace', 'manage_settings');
  }

  private toRecord(row: GitIntegrationRow, showSecret: boolean): SelfgitIntegrationRecord {
    return toSelfgitRecord(
      row,
      { accessToken: this.crypto.decryptNullable(row.access_token), webhookSecret: showSecret ? this.crypto.decryptNullable(row.webhook_secret) : null },
      { publicApiUrl: this.config.publicApiUrl, showSecret },
    );
  }
}
