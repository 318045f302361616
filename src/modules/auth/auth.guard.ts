import { CanActivate, ExecutionContext, ForbiddenException, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import passport from 'passport';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { clearedSessionCookie, CookieSessionRequest, fromOwnOrigin, readCookie, SAFE_METHODS, SESSION_COOKIE } from '../../common/http/cookies';
import { ERROR_KEY_METADATA } from '../../common/decorators/error-body-key.decorator';
import { IS_PUBLIC, SIGNED_OUT_ALLOWED, SIGNED_OUT_NULL } from '../../common/decorators/public.decorator';
import { API_KEY_SCOPE, ApiKeyScopeRule, keyScopeAllows } from '../../common/decorators/api-key-scope.decorator';
import { PERMISSION_METADATA, PermissionRequirement } from '../../common/decorators/require-permission.decorator';
import { PrefetchedMembershipRequest, permissionTarget } from '../../common/permissions/prefetched-membership';
import { RateLimitService } from '../../redis/rate-limit.service';
import { AuthService, secureCookies } from './auth.service';
import { JwtStrategy } from './jwt.strategy';

const looksLikeJwt = (t: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(t);

export const CROSS_ORIGIN_REFUSED = 'Cross-origin request refused: a change signed in with the session cookie must come from this service or CLIENT_URL';

/**
 * Global authentication: every route needs a valid JWT (passport-jwt) or API key
 * (`x-api-key` or `Authorization: Bearer`), or the browser session cookie, except those marked
 * @Public(). A credential in a header wins over the cookie. A request signed in with the cookie
 * that can change something must come from the service's own origin or CLIENT_URL (SECURITY.md,
 * "Browser sessions"). Also applies the per-token API rate limit (RATE_LIMIT_API).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly jwt: JwtStrategy,
    private readonly rateLimit: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.ownOrigins = [new URL(config.publicApiUrl).origin, new URL(config.clientUrl).origin];
  }

  /** Where a change signed in with the session cookie may come from: PUBLIC_API_URL's origin and CLIENT_URL's. */
  private readonly ownOrigins: readonly string[];

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const req = ctx.switchToHttp().getRequest();
    const targets: [Function, Function] = [ctx.getHandler(), ctx.getClass()];
    const errorKey = this.reflector.getAllAndOverride<string | undefined>(ERROR_KEY_METADATA, targets);
    if (errorKey) req.errorBodyKey = errorKey;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;

    const header: string | undefined = req.headers['authorization'];
    const bearer = typeof header === 'string' && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, '').trim() : undefined;
    const apiKeyHeader = req.headers['x-api-key'];
    let bucket: string;
    // @AnswersNullSignedOut and @AllowsSignedOut routes reach their handler signed out (req.user null).
    const signedOutPasses =
      this.reflector.getAllAndOverride<boolean>(SIGNED_OUT_NULL, targets) === true || this.reflector.getAllAndOverride<boolean>(SIGNED_OUT_ALLOWED, targets) === true;
    if (signedOutPasses && header === undefined && apiKeyHeader === undefined && !readCookie(req.headers.cookie, SESSION_COOKIE)) {
      req.user = null;
      return true;
    }
    if (typeof apiKeyHeader === 'string' || (bearer && !looksLikeJwt(bearer))) {
      const key = typeof apiKeyHeader === 'string' ? apiKeyHeader.trim() : bearer!;
      const user = await this.auth.validateApiKey(key);
      if (!user) throw new UnauthorizedException('Unauthorized');
      req.user = user;
      bucket = `key:${user.apiKey!.id}`;
      if (user.apiKey?.permissions) this.assertKeyScope(user.apiKey.permissions, targets);
    } else {
      const cookie = bearer === undefined ? readCookie(req.headers.cookie, SESSION_COOKIE) : null;
      if (cookie) {
        if (!SAFE_METHODS.has(req.method) && !fromOwnOrigin(req, this.ownOrigins)) throw new ForbiddenException(CROSS_ORIGIN_REFUSED);
        (req as CookieSessionRequest).sessionCookie = cookie;
      }
      // The session check also finds the route's resource for the permission guard (one statement for both).
      const target = permissionTarget(this.reflector.getAllAndOverride<PermissionRequirement | undefined>(PERMISSION_METADATA, targets), req);
      if (target) (req as PrefetchedMembershipRequest).prefetchTarget = target;
      const res = ctx.switchToHttp().getResponse<Response>();
      try {
        req.user = await this.verifyJwt(req, res);
      } catch (err) {
        // A cookie whose session ended (signed out elsewhere, revoked, expired) is removed from the browser.
        if (cookie) res.append('set-cookie', clearedSessionCookie(secureCookies(this.config)));
        // Only that cookie: the browser is signed out, which such a route answers as it answers anyone signed out.
        if (cookie && signedOutPasses) {
          req.user = null;
          return true;
        }
        throw err;
      }
      bucket = `session:${(req.user as AuthUser).sessionId}`;
    }
    await this.rateLimit.hit(`api:${bucket}`, this.config.rateLimits.api);
    return true;
  }

  /**
   * A key limited by `permissions` can do no more than they say, on every route: the route's
   * declared permission (@RequirePermission) or key scope (@ApiKeyScope) must be among them; a
   * route that declares neither is outside every scope. Checked before the resource is located,
   * so the answer never depends on whether an object exists.
   */
  private assertKeyScope(scopes: Record<string, string[]>, targets: [Function, Function]): void {
    const need =
      this.reflector.getAllAndOverride<PermissionRequirement | undefined>(PERMISSION_METADATA, targets) ??
      this.reflector.getAllAndOverride<ApiKeyScopeRule | undefined>(API_KEY_SCOPE, targets);
    if (need === 'handler') return;
    if (!need || !keyScopeAllows(scopes, need.resource, need.action)) throw new ForbiddenException('Insufficient API key scope');
  }

  /**
   * Runs this application's passport-jwt strategy. Passport keeps strategies by name in one
   * process-wide registry, where the last application created would answer for every other
   * (tests run several in one process); so the guard hands passport its own strategy, as a fresh
   * object per request exactly as passport does with a registered one.
   */
  private verifyJwt(req: unknown, res: unknown): Promise<AuthUser> {
    return new Promise((resolve, reject) => {
      const strategy = Object.create(this.jwt);
      passport.authenticate(strategy, { session: false }, (err: unknown, user: AuthUser | false) => {
        if (err || !user) reject(new UnauthorizedException('Unauthorized'));
        else resolve(user);
      })(req, res, (err: unknown) => reject(err ?? new UnauthorizedException('Unauthorized')));
    });
  }
}
