import { Inject, Injectable } from '@nestjs/common';
import { createAppAuth } from '@octokit/auth-app';
import { request } from '@octokit/request';
import { cappedFetch } from '../../../common/net/capped-fetch';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';

/** Deadline of each request to the hostedgit API (the installation token and the comment). */
export const HOSTEDGIT_TIMEOUT_MS = 10_000;
/** The most of an answer of the hostedgit API the service reads (its answers here are a few KiB). */
export const HOSTEDGIT_MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * `HOSTEDGIT_APP_PRIVATE_KEY` as PEM: environment files often hold it on one line with `\n`
 * escapes for its line breaks.
 */
export const pemOf = (key: string): string => (key.includes('\\n') ? key.replace(/\\n/g, '\n') : key).trim();

/**
 * The service acting as the hostedgit App (docs/git-hosts.md, "Connecting a hostedgit repository"): @octokit/auth-app
 * signs the App JWT with HOSTEDGIT_APP_PRIVATE_KEY, exchanges it for an installation access token
 * at `${HOSTEDGIT_API_BASE_URL}/app/installations/{id}/access_tokens` and caches the token until
 * shortly before it expires; with the token, the REST API v3 posts the task-link comment. As the
 * App itself (its JWT) it finds the installation covering a repository; with the App's OAuth client
 * it turns a user's authorization into a user access token and reads that user's permissions on a
 * repository (docs/git-hosts.md, "Linking proves control"). The API and web addresses are the
 * operator's settings, not user input, so they do not go through the destination guard.
 */
@Injectable()
export class HostedgitApp {
  private readonly request: typeof request;
  private readonly auth: ReturnType<typeof createAppAuth> | null;
  private readonly fetch = cappedFetch({ timeoutMs: HOSTEDGIT_TIMEOUT_MS, maxBytes: HOSTEDGIT_MAX_ANSWER_BYTES });

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const { apiBaseUrl, appId, appPrivateKey } = config.hostedgit;
    this.request = request.defaults({
      baseUrl: apiBaseUrl.replace(/\/+$/, ''),
      headers: { 'user-agent': 'Tandem' },
      request: { fetch: this.fetch },
    });
    this.auth = appId && appPrivateKey ? createAppAuth({ appId, privateKey: pemOf(appPrivateKey), request: this.request }) : null;
  }

  /** Whether HOSTEDGIT_APP_ID and HOSTEDGIT_APP_PRIVATE_KEY are set. */
  get configured(): boolean {
    return this.auth !== null;
  }

  /** Whether users can authorize the App too (its OAuth client id and secret are set, with the App itself). */
  get userAuthorizationConfigured(): boolean {
    return this.configured && Boolean(this.config.hostedgit.clientId && this.config.hostedgit.clientSecret);
  }

  /** The page where the user authorizes the App; the host comes back to `redirectUri` with a code and `state`. */
  authorizeUrl(redirectUri: string, state: string): string {
    const u = new URL(`${this.config.hostedgit.webBaseUrl}/login/oauth/authorize`);
    u.searchParams.set('client_id', this.config.hostedgit.clientId ?? '');
    u.searchParams.set('redirect_uri', redirectUri);
    u.searchParams.set('state', state);
    return u.toString();
  }

  /**
   * Exchanges the code of the user's authorization for a user access token (acting for that user,
   * within what the App may do). Null when the host refuses the code (unknown, used, expired).
   */
  async userToken(code: string, redirectUri: string): Promise<string | null> {
    const { clientId, clientSecret, webBaseUrl } = this.config.hostedgit;
    const res = await this.fetch(`${webBaseUrl}/login/oauth/access_token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', 'user-agent': 'Tandem' },
      body: JSON.stringify({ client_id: clientId, client_secret: clientSecret, code, redirect_uri: redirectUri }),
    });
    const body = (await res.json().catch(() => null)) as { access_token?: unknown } | null;
    return res.ok && typeof body?.access_token === 'string' && body.access_token ? body.access_token : null;
  }

  /**
   * What the user of `userToken` may do on the repository (`permissions` of `GET /repos/{owner}/{repo}`):
   * null when the repository is not visible to them through the App (no such repository, no access,
   * or the App is not installed on it). Throws `HostedgitRefused` when the host refuses the token.
   */
  async userPermissions(userToken: string, owner: string, repo: string): Promise<Record<string, boolean> | null> {
    try {
      const res = await this.request('GET /repos/{owner}/{repo}', { owner, repo, headers: { authorization: `Bearer ${userToken}` } });
      const perms = (res.data as { permissions?: unknown }).permissions;
      return perms && typeof perms === 'object' ? (perms as Record<string, boolean>) : {};
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status === 404 || status === 403) return null;
      if (status === 401) throw new HostedgitRefused();
      throw new Error(scrubbed(String((err as Error)?.message ?? err), userToken));
    }
  }

  /** The id of the App's installation that covers the repository (`GET /repos/{owner}/{repo}/installation`, as the App); null when none does. */
  async installationOf(owner: string, repo: string): Promise<number | null> {
    if (!this.auth) throw new Error('The hostedgit App is not configured (HOSTEDGIT_APP_ID, HOSTEDGIT_APP_PRIVATE_KEY)');
    let token = '';
    try {
      ({ token } = await this.auth({ type: 'app' }));
      const res = await this.request('GET /repos/{owner}/{repo}/installation', { owner, repo, headers: { authorization: `Bearer ${token}` } });
      const id = (res.data as { id?: unknown }).id;
      return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
    } catch (err) {
      if ((err as { status?: number }).status === 404) return null;
      throw new Error(scrubbed(String((err as Error)?.message ?? err), token));
    }
  }

  /**
   * Posts a comment on an issue as the App's installation; answers the comment's id. A failure is
   * an Error whose message has the installation token and any JWT (the App's) cut out: octokit
   * quotes the host's answer in its messages, and the caller logs them (docs/integrations.md,
   * "Secrets at rest and rotation": never in a log line).
   */
  async comment(installationId: number, owner: string, repo: string, issueNumber: number, body: string): Promise<string> {
    if (!this.auth) throw new Error('The hostedgit App is not configured (HOSTEDGIT_APP_ID, HOSTEDGIT_APP_PRIVATE_KEY)');
    let token = '';
    try {
      ({ token } = await this.auth({ type: 'installation', installationId }));
      const res = await this.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        owner,
        repo,
        issue_number: issueNumber,
        body,
        headers: { authorization: `token ${token}` },
      });
      return String((res.data as { id?: unknown }).id ?? '');
    } catch (err) {
      throw new Error(scrubbed(String((err as Error)?.message ?? err), token));
    }
  }
}

/** The host refused a user's access token (HTTP 401). */
export class HostedgitRefused extends Error {
  constructor() {
    super('The hosted git service refused the authorization');
  }
}

/** A JSON Web Token (three base64url parts): the App's JWT, if a host's answer quotes it. */
const JWT = /[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/g;

/** `message` with the installation token and any JWT cut out. */
const scrubbed = (message: string, token: string): string => (token ? message.split(token).join('[redacted]') : message).replace(JWT, '[redacted]');
