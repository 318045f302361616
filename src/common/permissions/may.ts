import { ForbiddenException } from '@nestjs/common';
import { keyScopeAllows } from '../decorators/api-key-scope.decorator';
import { AuthUser } from '../decorators/current-user.decorator';
import { ResolvedScope } from '../decorators/require-permission.decorator';
import { hasPermission, insufficientPermissions } from './permissions';

/**
 * Whether the caller may do resource:action where the route's guard resolved `scope`: its roles
 * there grant it and, for an API key limited by permissions, the key's scopes do too
 * (docs/decisions-local.md, "API keys"). For what a handler checks beyond its route's own permission.
 */
export function mayDo(scope: ResolvedScope, user: AuthUser, resource: string, action: string): boolean {
  const keyScopes = user.apiKey?.permissions;
  return hasPermission(scope.permissions, resource, action) && (!keyScopes || keyScopeAllows(keyScopes, resource, action));
}

/** 403 unless mayDo: `roleMessage` when the roles refuse (by default naming what is needed), `Insufficient API key scope` when the key does. */
export function assertMayDo(scope: ResolvedScope, user: AuthUser, resource: string, action: string, roleMessage = insufficientPermissions(resource, action)): void {
  if (!hasPermission(scope.permissions, resource, action)) throw new ForbiddenException(roleMessage);
  const keyScopes = user.apiKey?.permissions;
  if (keyScopes && !keyScopeAllows(keyScopes, resource, action)) throw new ForbiddenException('Insufficient API key scope');
}
