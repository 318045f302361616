import { CanActivate, ExecutionContext, ForbiddenException, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import passport from 'passport';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ERROR_KEY_METADATA } from '../../common/decorators/error-body-key.decorator';
import { IS_PUBLIC } from '../../common/decorators/public.decorator';
import { API_KEY_SCOPE, ApiKeyScopeRule, keyScopeAllows } from '../../common/decorators/api-key-scope.decorator';
import { PERMISSION_METADATA, PermissionRequirement } from '../../common/decorators/require-permission.decorator';
import { PrefetchedMembershipRequest, permissionTarget } from '../../common/permissions/prefetched-membership';
import { RateLimitService } from '../../redis/rate-limit.service';
import { AuthService } from './auth.service';
import { JwtStrategy } from './jwt.strategy';

const looksLikeJwt = (t: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(t);

/**
 * Global authentication: every route needs a valid JWT (passport-jwt) or API key
 * (`x-api-key` or `Authorization: Bearer`), except those marked @Public().
 * Also applies the per-token API rate limit (RATE_LIMIT_API).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly jwt: JwtStrategy,
    private readonly rateLimit: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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
    if (typeof apiKeyHeader === 'string' || (bearer && !looksLikeJwt(bearer))) {
      const key = typeof apiKeyHeader === 'string' ? apiKeyHeader.trim() : bearer!;
      const user = await this.auth.validateApiKey(key);
      if (!user) throw new UnauthorizedException('Unauthorized');
      req.user = user;
      bucket = `key:${user.apiKey!.id}`;
      if (user.apiKey?.permissions) this.assertKeyScope(user.apiKey.permissions, targets);
    } else {
      // The session check also finds the route's resource for the permission guard (one statement for both).
      const target = permissionTarget(this.reflector.getAllAndOverride<PermissionRequirement | undefined>(PERMISSION_METADATA, targets), req);
      if (target) (req as PrefetchedMembershipRequest).prefetchTarget = target;
      req.user = await this.verifyJwt(req, ctx.switchToHttp().getResponse());
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
