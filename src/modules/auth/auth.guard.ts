import { ExecutionContext, ForbiddenException, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard as PassportAuthGuard } from '@nestjs/passport';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ERROR_KEY_METADATA } from '../../common/decorators/error-body-key.decorator';
import { IS_PUBLIC } from '../../common/decorators/public.decorator';
import { UNSCOPED_KEY_ONLY } from '../../common/decorators/unscoped-key-only.decorator';
import { RateLimitService } from '../../redis/rate-limit.service';
import { AuthService } from './auth.service';

const looksLikeJwt = (t: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(t);

/**
 * Global authentication: every route needs a valid JWT (passport-jwt) or API key
 * (`x-api-key` or `Authorization: Bearer`), except those marked @Public().
 * Also applies the per-token API rate limit (RATE_LIMIT_API).
 */
@Injectable()
export class AuthGuard extends PassportAuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly rateLimit: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  override async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const req = ctx.switchToHttp().getRequest();
    const targets = [ctx.getHandler(), ctx.getClass()];
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
      if (user.apiKey?.permissions && this.reflector.getAllAndOverride<boolean>(UNSCOPED_KEY_ONLY, targets)) {
        throw new ForbiddenException('Insufficient API key scope');
      }
    } else {
      await super.canActivate(ctx);
      bucket = `session:${(req.user as AuthUser).sessionId}`;
    }
    await this.rateLimit.hit(`api:${bucket}`, this.config.rateLimits.api);
    return true;
  }

  override handleRequest<T>(err: unknown, user: T): T {
    if (err || !user) throw new UnauthorizedException('Unauthorized');
    return user;
  }
}
