import { SetMetadata } from '@nestjs/common';

export const API_KEY_SCOPE = 'tandem:api-key-scope';

/**
 * What an API key limited by `permissions` needs on a route that has no @RequirePermission
 * (docs/decisions-local.md, "API keys"):
 * - `{resource, action}`: the key must hold that scope;
 * - `'handler'`: any scoped key passes the guard and the handler bounds what it may do
 *   (minting a key within the caller's own scopes and lifetime, search narrowed to readable sections).
 * A route with neither this nor @RequirePermission refuses every scoped key (403
 * `Insufficient API key scope`): account routes and actions outside the permission table.
 */
export type ApiKeyScopeRule = { resource: string; action: string } | 'handler';

export const ApiKeyScope = (resource: string, action: string) => SetMetadata(API_KEY_SCOPE, { resource, action } satisfies ApiKeyScopeRule);

export const ApiKeyScopeCheckedByHandler = () => SetMetadata(API_KEY_SCOPE, 'handler' satisfies ApiKeyScopeRule);

/** True when a key limited to `scopes` may perform resource:action. */
export const keyScopeAllows = (scopes: Record<string, string[]>, resource: string, action: string): boolean =>
  Object.hasOwn(scopes, resource) && Array.isArray(scopes[resource]) && scopes[resource].includes(action);
