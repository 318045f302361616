import * as http from 'node:http';
import * as https from 'node:https';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { DestinationGuard, DestinationRefusedError } from './destination-guard';

/**
 * The outbound HTTP client of the channel deliveries (docs/integrations.md, "Delivery
 * formats and retries"): one POST, a deadline for the whole exchange, a cap on how much of the
 * answer is read, redirects never followed (Node's http does not follow them; a 3xx is the
 * answer). Errors describe what went wrong without the URL: chat webhook URLs are secrets and
 * the messenger's URL holds the bot token.
 */

export const SEND_TIMEOUT_MS = 10_000;
/** Bytes of an answer kept; the rest is not read (the connection is dropped). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

export interface OutboundRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface OutboundResponse {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  /** The answer's first MAX_RESPONSE_BYTES bytes, as UTF-8. */
  body: string;
  truncated: boolean;
}

/**
 * A request that got no answer. `permanent`: it never will (the guard refused the destination, the
 * URL is not usable); otherwise a retry may work (connection refused or reset, timeout, DNS).
 * The message names no URL and no secret.
 */
export class OutboundError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** A safe description of a network error: by its code, never its message (which may hold an address or URL). */
export function describeNetworkError(err: NodeJS.ErrnoException): OutboundError {
  if (err instanceof DestinationRefusedError || err.code === 'EDESTINATIONREFUSED') return new OutboundError(err.message, true);
  const code = err.code ?? '';
  const known: Record<string, string> = {
    ECONNREFUSED: 'Connection refused',
    ECONNRESET: 'Connection reset by the receiver',
    EPIPE: 'Connection closed by the receiver',
    ETIMEDOUT: 'Connection timed out',
    ENOTFOUND: 'Host name could not be resolved',
    EAI_AGAIN: 'Host name could not be resolved (temporary DNS failure)',
    EHOSTUNREACH: 'Host unreachable',
    ENETUNREACH: 'Network unreachable',
    HPE_INVALID_CONSTANT: 'The receiver did not answer with valid HTTP',
  };
  if (known[code]) return new OutboundError(known[code], false);
  if (/^(ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/.test(code)) return new OutboundError(`TLS error (${code})`, false);
  if (code.startsWith('HPE_')) return new OutboundError(`The receiver did not answer with valid HTTP (${code})`, false);
  return new OutboundError(`Network error${code ? ` (${code})` : ''}`, false);
}

/**
 * POSTs `req` with `agents` (http or https by the URL's scheme). Resolves with the answer,
 * whatever its status; rejects with an OutboundError when none came within `timeoutMs`.
 */
export function post(req: OutboundRequest, agents: Agents, opts: { timeoutMs?: number; maxBytes?: number } = {}): Promise<OutboundResponse> {
  return send({ ...req, method: 'POST' }, agents, opts);
}

/**
 * Sends `req` with `method` (a GET carries no body) and `agents`, with the same deadline, answer
 * cap and no redirects as post() (the git-host clients read their APIs with it).
 */
export function send(
  req: Omit<OutboundRequest, 'body'> & { method: string; body?: string },
  agents: Agents,
  opts: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<OutboundResponse> {
  const timeoutMs = opts.timeoutMs ?? SEND_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? MAX_RESPONSE_BYTES;
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return Promise.reject(new OutboundError('The destination URL is not valid', true));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new OutboundError('The destination URL must be http(s)', true));
  const body = req.body === undefined ? null : Buffer.from(req.body, 'utf8');
  const client = url.protocol === 'https:' ? https : http;
  // Node refuses some requests before sending anything (a header value with characters HTTP
  // cannot carry): a permanent failure, described by its code only (the value may be a secret).
  for (const [name, value] of Object.entries(req.headers)) {
    try {
      http.validateHeaderValue(name, value);
    } catch (err) {
      return Promise.reject(new OutboundError(`The request header ${name} holds characters HTTP cannot carry (${(err as NodeJS.ErrnoException).code})`, true));
    }
  }
  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const request = client.request(
      url,
      {
        method: req.method,
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        headers: body === null ? req.headers : { ...req.headers, 'content-length': String(body.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const done = () => finish(() => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), truncated }));
        res.on('data', (chunk: Buffer) => {
          if (truncated) return;
          const room = maxBytes - size;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            size = maxBytes;
            truncated = true;
            // The rest is not wanted: drop the connection instead of reading an answer of any size.
            done();
            res.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', done);
        res.on('error', (err) => finish(() => reject(describeNetworkError(err))));
        res.on('aborted', () => finish(() => reject(new OutboundError('The receiver closed the connection mid-answer', false))));
      },
    );
    const timer = setTimeout(() => {
      finish(() => reject(new OutboundError(`No answer within ${timeoutMs / 1000} s`, false)));
      request.destroy();
    }, timeoutMs);
    request.on('error', (err) => finish(() => reject(describeNetworkError(err))));
    if (body === null) request.end();
    else request.end(body);
  });
}

/**
 * The agents of the deliveries, one set per process so connections are reused across jobs:
 * guarded ones (DestinationGuard: every new connection to a user-supplied URL is checked against
 * non-routable addresses, DNS rebinding included) and plain ones for the messenger's API, whose
 * base URL is an operator setting (MESSENGER_API_BASE_URL), not user input.
 */
@Injectable()
export class OutboundHttp implements OnApplicationShutdown {
  readonly guarded: Agents;
  readonly operator: Agents;

  constructor(guard: DestinationGuard) {
    this.guarded = guard.createAgents();
    const options: http.AgentOptions = { keepAlive: true, maxSockets: 256 };
    this.operator = { http: new http.Agent(options), https: new https.Agent(options) };
  }

  /** POST to a user-supplied URL, through the destination guard. */
  postGuarded(req: OutboundRequest): Promise<OutboundResponse> {
    return post(req, this.guarded);
  }

  /** POST to an operator-configured URL. */
  postOperator(req: OutboundRequest): Promise<OutboundResponse> {
    return post(req, this.operator);
  }

  onApplicationShutdown(): void {
    for (const a of [this.guarded, this.operator]) {
      a.http.destroy();
      a.https.destroy();
    }
  }
}
