import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { ForbiddenException, HttpException, Inject, Injectable, Logger, OnApplicationShutdown, UnauthorizedException } from '@nestjs/common';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import * as jwt from 'jsonwebtoken';
import { createHmac } from 'node:crypto';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { messageOf } from '../../common/filters/all-exceptions.filter';
import { API_KEY_REFUSED, instanceAdminRefusal } from '../../common/guards/instance-admin.guard';
import { readCookie, SAFE_METHODS } from '../../common/http/cookies';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { GuardedQueue } from '../../queue/guarded-bullmq';
import { QUEUE_NAMES, QUEUES } from '../../queue/queues';
import { redisClient, RedisClient } from '../../redis/redis-connection';
import { RateLimitService } from '../../redis/rate-limit.service';
import { AuthService, JWT_ALGORITHM } from '../auth/auth.service';

/** Where the dashboard is served (the global prefix included). */
export const QUEUE_DASHBOARD_PATH = '/api/admin/queues';
/** The route that opens it in a browser (a controller route, passed through by the dashboard). */
const SESSION_SUBPATH = '/session';
export const DASHBOARD_COOKIE = 'tandem_queues';
/** Lifetime of the dashboard cookie: re-open the dashboard after it. */
export const DASHBOARD_COOKIE_MAX_AGE_S = 15 * 60;
const AUDIENCE = 'tandem:queue-dashboard';
/**
 * The dashboard's 401 (no, invalid, expired or revoked credentials or cookie): a browser cannot send a
 * token, so the message says how it gets in (docs/decisions-local.md, "Queue dashboard").
 */
export const DASHBOARD_UNAUTHORIZED = `Unauthorized: POST ${QUEUE_DASHBOARD_PATH}${SESSION_SUBPATH} with an instance admin's session token sets the dashboard's cookie`;

/**
 * The page's own Content-Security-Policy (replacing the API's): its scripts, styles, images and
 * translations come from the dashboard itself, its calls go to the dashboard's API; inline styles
 * are allowed (the page has some), anything from elsewhere is not (the page links a web font from
 * a font CDN, which the browser therefore skips: the page falls back to a local font). No
 * upgrade-insecure-requests, so the page also works over plain http on a private address.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const looksLikeJwt = (t: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(t);

/**
 * What the dashboard shows of a job's data and result: identifiers, kinds, numbers and flags, never
 * text that a workspace wrote (task titles, comments, names): an instance admin is no member of
 * the workspaces whose events pass through the queues (docs/decisions-local.md, "Roles and permissions").
 */
export function redactJobValue(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => redactJobValue(v, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactJobValue(v, k)]));
  if (typeof value === 'string') return /^(id|kind|occurredAt|messageId|skipped)$|Id$/.test(key) ? value : '[hidden]';
  return value;
}

/**
 * The queue dashboard for instance admins (Bull Board), served as an Express handler under
 * QUEUE_DASHBOARD_PATH in the API role (docs/decisions-local.md, "Queue dashboard").
 *
 * Every request is authenticated here: `Authorization: Bearer <session token>`, or the HttpOnly,
 * SameSite=Strict cookie that `POST /api/admin/queues/session` sets for the browser (its own
 * signed token, bound to the session and checked against it on each request). API keys are refused.
 *
 * The queues and their one Redis connection are created on the first authorised request, so an
 * API process that nobody opens the dashboard on holds no queue connection.
 */
@Injectable()
export class QueueDashboard implements OnApplicationShutdown {
  private readonly logger = new Logger(QueueDashboard.name);
  /** HMAC key of the cookie tokens: derived from JWT_SECRET, distinct from the session tokens' key. */
  private readonly cookieKey: Buffer;
  private board: Express | null = null;
  private connection: RedisClient | null = null;
  private queues: GuardedQueue[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: AuthService,
    private readonly rateLimit: RateLimitService,
  ) {
    this.cookieKey = createHmac('sha256', config.jwtSecret).update(AUDIENCE).digest();
  }

  /** Name of the dashboard's Redis connection (CLIENT LIST), for whoever looks at Redis. */
  get connectionName(): string {
    return `${this.config.queuePrefix}:queue-dashboard`;
  }

  /** The cookie that lets this browser open the dashboard as `user` (an instance admin's session). */
  openSession(user: AuthUser): { setCookie: string; expiresAt: Date } {
    const token = jwt.sign({ sid: user.sessionId }, this.cookieKey, {
      algorithm: JWT_ALGORITHM,
      subject: user.id,
      audience: AUDIENCE,
      expiresIn: DASHBOARD_COOKIE_MAX_AGE_S,
    });
    const attrs = [`${DASHBOARD_COOKIE}=${token}`, `Path=${QUEUE_DASHBOARD_PATH}`, `Max-Age=${DASHBOARD_COOKIE_MAX_AGE_S}`, 'HttpOnly', 'SameSite=Strict'];
    if (this.config.publicApiUrl.startsWith('https:')) attrs.push('Secure');
    return { setCookie: attrs.join('; '), expiresAt: new Date(Date.now() + DASHBOARD_COOKIE_MAX_AGE_S * 1000) };
  }

  /** The Express handler to mount at QUEUE_DASHBOARD_PATH. */
  handler(): RequestHandler {
    return (req, res, next) => void this.serve(req, res, next);
  }

  private async serve(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.path === SESSION_SUBPATH || req.path.startsWith(`${SESSION_SUBPATH}/`)) return next();
    try {
      const user = await this.authenticate(req);
      const refusal = instanceAdminRefusal(user);
      if (refusal) throw new ForbiddenException(refusal);
      await this.rateLimit.hit(`api:session:${user.sessionId}`, this.config.rateLimits.api);
    } catch (err) {
      if (!(err instanceof HttpException)) return next(err);
      const retryAfter = (err.getResponse() as { retryAfter?: number })?.retryAfter;
      if (retryAfter) res.setHeader('Retry-After', String(retryAfter));
      res.status(err.getStatus()).json({ message: messageOf(err) });
      return;
    }
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('Cache-Control', 'no-store');
    const board = this.boardApp();
    // As Express does for a mounted application: the board's request/response prototypes apply
    // inside it, the API's again when it hands the request on (a path it does not serve → 404).
    const app = req.app as unknown as { request: object; response: object };
    board(req, res, (err?: unknown) => {
      Object.setPrototypeOf(req, app.request);
      Object.setPrototypeOf(res, app.response);
      next(err);
    });
  }

  /** The caller: a session token in Authorization, else the dashboard cookie; 401 (DASHBOARD_UNAUTHORIZED) without either, 403 for an API key. */
  private async authenticate(req: Request): Promise<AuthUser> {
    const header = req.headers.authorization;
    const bearer = typeof header === 'string' && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, '').trim() : undefined;
    const apiKey = req.headers['x-api-key'];
    if (typeof apiKey === 'string' || (bearer && !looksLikeJwt(bearer))) {
      const user = await this.auth.validateApiKey(typeof apiKey === 'string' ? apiKey.trim() : bearer!);
      throw user ? new ForbiddenException(API_KEY_REFUSED) : new UnauthorizedException(DASHBOARD_UNAUTHORIZED);
    }
    if (bearer) return this.sessionUser(bearer, this.config.jwtSecret, {});
    const cookie = readCookie(req.headers.cookie, DASHBOARD_COOKIE);
    if (!cookie) throw new UnauthorizedException(DASHBOARD_UNAUTHORIZED);
    // The cookie is SameSite=Strict; a state-changing request must moreover come from the
    // dashboard's own pages (a same-site page of another origin would still send the cookie).
    if (!SAFE_METHODS.has(req.method) && !this.sameOrigin(req)) throw new ForbiddenException('Cross-origin request refused');
    return this.sessionUser(cookie, this.cookieKey, { audience: AUDIENCE });
  }

  private async sessionUser(token: string, key: string | Buffer, opts: jwt.VerifyOptions): Promise<AuthUser> {
    type Claims = { sub?: unknown; sid?: unknown; aud?: unknown };
    let payload: Claims | null = null;
    try {
      payload = jwt.verify(token, key, { ...opts, algorithms: [JWT_ALGORITHM] }) as unknown as Claims;
    } catch {
      payload = null;
    }
    // A session token never carries the dashboard's audience, nor a cookie token another's.
    if (!opts.audience && payload?.aud !== undefined) payload = null;
    const user = typeof payload?.sub === 'string' && typeof payload?.sid === 'string' ? await this.auth.validateSession(payload.sid, payload.sub) : null;
    if (!user) throw new UnauthorizedException(DASHBOARD_UNAUTHORIZED);
    return user;
  }

  /**
   * Sec-Fetch-Site, when the browser sends it, says same-origin; an Origin header names this server;
   * a request with neither is refused, as the session cookie's check does (docs/decisions-local.md, "Queue dashboard").
   */
  private sameOrigin(req: Request): boolean {
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return false;
    const origin = req.headers.origin;
    if (origin === undefined) return site === 'same-origin';
    return origin === new URL(this.config.publicApiUrl).origin || origin === `${req.protocol}://${req.get('host')}`;
  }

  /** Bull Board over every queue of src/queue/queues.ts, made on first use. */
  private boardApp(): Express {
    if (this.board) return this.board;
    this.connection = redisClient(this.config, { maxRetriesPerRequest: null, connectionName: this.connectionName });
    this.connection.on('error', (err) => this.logger.debug(`queue dashboard connection: ${err.message}`));
    this.queues = QUEUE_NAMES.map((name) => {
      const queue = new GuardedQueue(name, { connection: this.connection!, prefix: `${this.config.queuePrefix}:bull`, defaultJobOptions: QUEUES[name].jobOptions });
      queue.on('error', (err) => this.logger.debug(`queue dashboard, ${name}: ${err.message}`));
      return queue;
    });
    const serverAdapter = new ExpressAdapter().setBasePath(QUEUE_DASHBOARD_PATH);
    createBullBoard({
      queues: this.queues.map((queue) => {
        const adapter = new BullMQAdapter(queue);
        adapter.setFormatter('data', (data) => redactJobValue(data));
        adapter.setFormatter('returnValue', (value) => redactJobValue(value));
        return adapter;
      }),
      serverAdapter,
      options: {
        uiConfig: { boardTitle: 'Tandem queues' },
        handlerHooks: {
          // Job data is shown redacted: editing it, or adding a job by hand, would write that form back.
          before: ({ route }) => (/\/(update-data|add)$/.test(route) ? { allow: false, status: 403, message: 'Editing or adding jobs is not available here' } : { allow: true }),
        },
      },
    });
    const board = serverAdapter.getRouter() as Express;
    board.disable('x-powered-by');
    this.board = board;
    return board;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.close().catch(() => undefined)));
    const c = this.connection;
    if (!c) return;
    if (c.status === 'ready') await c.quit().catch(() => c.disconnect());
    else c.disconnect();
  }
}
