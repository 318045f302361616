import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { DestinationGuard } from '../../../common/net/destination-guard';
import { Agents, OutboundError, OutboundResponse, send } from '../../../common/net/outbound-http';

/**
 * The client of a selfgit server's REST API v1 (docs/git-hosts.md, "Connecting a selfgit repository"): the calls the
 * integration makes, with the access token as `Authorization: token <token>`. Every request has a
 * 10-second deadline, follows no redirect and goes through the destination guard's agents (the
 * base URL is user input: every connection is checked against non-routable addresses). Failures
 * are SelfgitError with a message that names no token.
 */

export const SELFGIT_TIMEOUT_MS = 10_000;
/** Largest answer read by default (the user, the repository, a posted comment), as the hostedgit client. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/**
 * Largest page of a list read by the import (docs/git-hosts.md, "Importing issues"): a page of 100
 * issues, or an issue's comments. 4 MiB leaves about 40 KiB per issue, bodies included.
 */
export const MAX_LIST_BYTES = 4 * 1024 * 1024;
/** Issues per page asked for (a server may answer fewer: its own maximum; never more are taken). */
export const ISSUES_PER_PAGE = 100;

export interface SelfgitConnection {
  baseUrl: string;
  accessToken: string;
}

/** A call that did not give the answer the integration needs: `status` is what the API should answer (4xx). */
export class SelfgitError extends Error {
  constructor(
    readonly status: 400 | 401,
    message: string,
  ) {
    super(message);
  }
}

/** An answer longer than the call accepts: nothing of it is used. */
export class SelfgitAnswerTooLarge extends SelfgitError {
  constructor(readonly maxBytes: number) {
    super(400, 'The selfgit server answered with more data than accepted');
  }
}

export interface Answer {
  status: number;
  /** The parsed JSON answer; undefined when it is not JSON. */
  json: unknown;
  headers: OutboundResponse['headers'];
}

const seg = (s: string) => encodeURIComponent(s);

@Injectable()
export class SelfgitApi implements OnApplicationShutdown {
  private readonly agents: Agents;

  constructor(guard: DestinationGuard) {
    this.agents = guard.createAgents({ keepAlive: true, maxSockets: 64 });
  }

  /**
   * GET `/api/v1<path>`; a network failure, a timeout or a redirect is a SelfgitError (400), an
   * answer of more than `maxBytes` a SelfgitAnswerTooLarge.
   */
  get(conn: SelfgitConnection, path: string, maxBytes = MAX_ANSWER_BYTES): Promise<Answer> {
    return this.call(conn, 'GET', path, undefined, maxBytes);
  }

  /** POST `/api/v1<path>` with a JSON body. */
  post(conn: SelfgitConnection, path: string, body: unknown): Promise<Answer> {
    return this.call(conn, 'POST', path, JSON.stringify(body));
  }

  /** `/repos/{owner}/{repo}` with each part escaped. */
  static repoPath(owner: string, repo: string): string {
    return `/repos/${seg(owner)}/${seg(repo)}`;
  }

  private async call(conn: SelfgitConnection, method: 'GET' | 'POST', path: string, body?: string, maxBytes = MAX_ANSWER_BYTES): Promise<Answer> {
    const url = `${conn.baseUrl}/api/v1${path}`;
    const headers: Record<string, string> = { accept: 'application/json', authorization: `token ${conn.accessToken}`, 'user-agent': 'Tandem' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: OutboundResponse;
    try {
      res = await send({ method, url, headers, body }, this.agents, { timeoutMs: SELFGIT_TIMEOUT_MS, maxBytes });
    } catch (err) {
      if (err instanceof OutboundError) throw new SelfgitError(400, `The selfgit server could not be reached: ${err.message}`);
      throw err;
    }
    if (res.statusCode >= 300 && res.statusCode < 400) {
      throw new SelfgitError(400, `The selfgit server answered with a redirect (HTTP ${res.statusCode}); give its final address as baseUrl`);
    }
    if (res.truncated) throw new SelfgitAnswerTooLarge(maxBytes);
    let json: unknown;
    try {
      json = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, json, headers: res.headers };
  }

  onApplicationShutdown(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
