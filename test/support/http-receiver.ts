import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { until } from './until';

/** One request as the receiver saw it. */
export interface ReceivedRequest {
  method: string;
  /** Path with query string, e.g. `/bot123:abc/sendMessage`. */
  url: string;
  headers: IncomingMessage['headers'];
  /** The raw body (signatures are computed over it). */
  raw: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
  at: number;
}

/**
 * What to answer: a status, optional JSON body and headers; or a function of the request.
 * `hold`: the request is recorded at once but answered only when this promise settles, so the
 * sender keeps it in flight for as long as the test decides (e.g. until it has killed the sender);
 * there is no answer after a fixed time (docs/testing.md: tests wait for conditions, not times).
 */
export type Answer = { status: number; body?: unknown; headers?: Record<string, string>; hold?: Promise<unknown> };
export type Responder = Answer | ((req: ReceivedRequest, index: number) => Answer);

/**
 * A real HTTP server on loopback that records every request and answers as the test tells it:
 * the stand-in for a chat API, a webhook receiver or a push server.
 * `answer()` sets the default; `answerNext()` queues one-off answers (e.g. two 503s, then 200).
 */
export class HttpReceiver {
  readonly requests: ReceivedRequest[] = [];
  private server: Server | null = null;
  private fallback: Responder = { status: 200, body: { ok: true } };
  private queued: Responder[] = [];

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    const addr = this.server?.address() as AddressInfo | null;
    if (!addr) throw new Error('receiver not started');
    return `http://127.0.0.1:${addr.port}`;
  }

  answer(responder: Responder): this {
    this.fallback = responder;
    return this;
  }

  answerNext(...responders: Responder[]): this {
    this.queued.push(...responders);
    return this;
  }

  /** Requests whose path starts with `prefix`. */
  to(prefix: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.url.startsWith(prefix));
  }

  /** Waits (polling, with a deadline) until `count` requests matching `prefix` have arrived. */
  waitFor(prefix = '/', count = 1, timeoutMs = 15_000): Promise<ReceivedRequest[]> {
    return until(`${count} request(s) to ${prefix}`, async () => (this.to(prefix).length >= count ? this.to(prefix) : null), timeoutMs);
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    const s = this.server;
    this.server = null;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let json: unknown;
    try {
      json = raw ? JSON.parse(raw) : undefined;
    } catch {
      json = undefined;
    }
    const received: ReceivedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw, json, at: Date.now() };
    const index = this.requests.push(received) - 1;
    const responder = this.queued.shift() ?? this.fallback;
    const answer = typeof responder === 'function' ? responder(received, index) : responder;
    if (answer.hold) await answer.hold.catch(() => undefined);
    // A sender that gave up (or died) while the answer was held has closed the connection.
    if (res.destroyed) return;
    const body = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json', ...(answer.headers ?? {}) });
    res.end(body);
  }
}
