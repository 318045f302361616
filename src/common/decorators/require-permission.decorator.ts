import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export const PERMISSION_METADATA = 'tandem:permission';

export interface ScopeLocator {
  /** A kind registered in ScopeRegistry ('workspace', 'project', 'task', ...). */
  kind: string;
  /** Where the id is found on the request. */
  from: 'params' | 'body' | 'query';
  key: string;
  /** When the id is absent, use the session's active organization (kind must be 'workspace'). */
  fallbackToActive?: boolean;
}

export interface PermissionRequirement {
  resource: string;
  /** 'read' needs membership only (any member reads); API-key scopes still apply. */
  action: string;
  scope: ScopeLocator;
}

/**
 * Declares what a route needs: the caller must be a member of the workspace the located resource
 * lives in (else 404) and hold resource:action (else 403, naming it). The OpenAPI document learns
 * the permission from the x-permission marker (documentCommonErrors turns it into the 403 message).
 */
export const RequirePermission = (resource: string, action: string, scope: ScopeLocator) =>
  applyDecorators(
    SetMetadata(PERMISSION_METADATA, { resource, action, scope } satisfies PermissionRequirement),
    ...(action === 'read' ? [] : [ApiExtension('x-permission', `${resource}:${action}`)]),
  );

/** What the permission guard found: injected into handlers with @Scope(). */
export interface ResolvedScope {
  workspaceId: string;
  memberId: string;
  roles: string[];
  permissions: Map<string, Set<string>>;
  /** The id the locator pointed at. */
  resourceId: string;
}

export const Scope = createParamDecorator((_: unknown, ctx: ExecutionContext): ResolvedScope => {
  return ctx.switchToHttp().getRequest().scope;
});
