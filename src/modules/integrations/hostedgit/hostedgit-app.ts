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
 * shortly before it expires; with the token, the REST API v3 posts the task-link comment. The API
 * address is the operator's setting, not user input, so it does not go through the destination guard.
 */
@Injectable()
export class HostedgitApp {
  private readonly request: typeof request;
  private readonly auth: ReturnType<typeof createAppAuth> | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const { apiBaseUrl, appId, appPrivateKey } = config.hostedgit;
    this.request = request.defaults({
      baseUrl: apiBaseUrl.replace(/\/+$/, ''),
      headers: { 'user-agent': 'Tandem' },
      request: { fetch: cappedFetch({ timeoutMs: HOSTEDGIT_TIMEOUT_MS, maxBytes: HOSTEDGIT_MAX_ANSWER_BYTES }) },
    });
    this.auth = appId && appPrivateKey ? createAppAuth({ appId, privateKey: pemOf(appPrivateKey), request: this.request }) : null;
  }

  /** Whether HOSTEDGIT_APP_ID and HOSTEDGIT_APP_PRIVATE_KEY are set. */
  get configured(): boolean {
    return this.auth !== null;
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

/** A JSON Web Token (three base64url parts): the App's JWT, if a host's answer quotes it. */
const JWT = /[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/g;

/** `message` with the installation token and any JWT cut out. */
const scrubbed = (message: string, token: string): string => (token ? message.split(token).join('[redacted]') : message).replace(JWT, '[redacted]');
