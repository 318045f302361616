import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { PrefetchedMembershipRequest } from '../../common/permissions/prefetched-membership';
import type { CookieSessionRequest } from '../../common/http/cookies';
import { AuthService, JWT_ALGORITHM } from './auth.service';

/** Verifies the access token (algorithm pinned, expiry enforced) and that its session is still live. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly auth: AuthService,
  ) {
    super({
      // The bearer token, else the session cookie the AuthGuard found (only when no Authorization header was sent).
      jwtFromRequest: ExtractJwt.fromExtractors([ExtractJwt.fromAuthHeaderAsBearerToken(), (req: CookieSessionRequest) => req.sessionCookie ?? null]),
      // A key object made once: given a string, jsonwebtoken first tries (and fails) to parse it as a
      // public key on every verify, which cost about a fifth of a GET /task/:id's CPU.
      secretOrKey: createSecretKey(Buffer.from(config.jwtSecret)) as unknown as Buffer,
      algorithms: [JWT_ALGORITHM],
      ignoreExpiration: false,
      passReqToCallback: true,
    });
  }

  /**
   * When the AuthGuard names the route's resource (`prefetchTarget`), the session check also
   * finds where it lives, in the same statement, for the permission guard (`prefetchedMembership`).
   */
  async validate(req: PrefetchedMembershipRequest, payload: { sub?: unknown; sid?: unknown }): Promise<AuthUser | false> {
    if (typeof payload?.sub !== 'string' || typeof payload?.sid !== 'string') return false;
    const target = req.prefetchTarget;
    if (!target) return (await this.auth.validateSession(payload.sid, payload.sub)) ?? false;
    const r = await this.auth.validateSessionLocating(payload.sid, payload.sub, target);
    if (!r) return false;
    req.prefetchedMembership = { ...target, found: r.found };
    return r.user;
  }
}
