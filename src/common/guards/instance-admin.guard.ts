import { CanActivate, ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import { AuthUser } from '../decorators/current-user.decorator';

export const API_KEY_REFUSED = 'API keys cannot be used here; use a session token';
export const NOT_INSTANCE_ADMIN = 'Only an instance admin may do this';

/**
 * Why `user` may not use an instance-admin route (a 403 message), or null when it may: a signed-in
 * session of an instance admin. API keys are refused even when their user is an admin, so a key
 * handed to a script never opens the instance's administration.
 */
export function instanceAdminRefusal(user: AuthUser): string | null {
  if (user.apiKey || !user.sessionId) return API_KEY_REFUSED;
  if (!user.isInstanceAdmin) return NOT_INSTANCE_ADMIN;
  return null;
}

/** Runs after AuthGuard on routes marked @InstanceAdminOnly() (docs/decisions-local.md, "Queue dashboard"). */
@Injectable()
export class InstanceAdminGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const refusal = instanceAdminRefusal(ctx.switchToHttp().getRequest().user);
    if (refusal) throw new ForbiddenException(refusal);
    return true;
  }
}
