import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { INestApplicationContext } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { API_KEY_SCOPE, ApiKeyScopeRule } from '../decorators/api-key-scope.decorator';
import { ERROR_KEY_METADATA } from '../decorators/error-body-key.decorator';
import { INSTANCE_ADMIN } from '../decorators/instance-admin.decorator';
import { IS_PUBLIC, SIGNED_OUT_NULL } from '../decorators/public.decorator';
import { PERMISSION_METADATA, PermissionRequirement } from '../decorators/require-permission.decorator';

/** One controller route and what it declares about access. */
export interface RouteAccess {
  method: string;
  /** Express form with the global prefix, e.g. `/api/task/:id`. */
  path: string;
  isPublic: boolean;
  permission?: { resource: string; action: string; from: string };
  keyScope?: ApiKeyScopeRule;
  /** Instance admins with a session token only (@InstanceAdminOnly). */
  instanceAdmin?: boolean;
  /** The key of the route's error body when it is not `message` (@ErrorBodyKey). */
  errorBodyKey?: 'error';
  /** A signed-out caller gets JSON `null` instead of 401 (@AnswersNullSignedOut). */
  signedOutNull?: true;
}

const joinPath = (...parts: string[]) =>
  '/' +
  parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/');

/**
 * Every controller route of an application with its access declarations, read from the same
 * metadata the guards read (@Public, @RequirePermission, @ApiKeyScope). Used to document each
 * route's permission in the OpenAPI document, and by tests that sweep every route.
 */
export function routeTable(app: INestApplicationContext, prefix = 'api'): RouteAccess[] {
  const out: RouteAccess[] = [];
  for (const mod of app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      const ctrl = wrapper.metatype as any;
      if (!ctrl?.prototype) continue;
      const base: string = Reflect.getMetadata(PATH_METADATA, ctrl) ?? '';
      for (const name of Object.getOwnPropertyNames(ctrl.prototype)) {
        const handler = ctrl.prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler);
        const path = Reflect.getMetadata(PATH_METADATA, handler);
        if (method === undefined || typeof path !== 'string') continue;
        const read = <T>(key: string): T | undefined => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, ctrl);
        const permission = read<PermissionRequirement>(PERMISSION_METADATA);
        out.push({
          method: String(RequestMethod[method]),
          path: joinPath(prefix, base, path),
          isPublic: read<boolean>(IS_PUBLIC) === true,
          permission: permission
            ? { resource: permission.resource, action: permission.action, from: `${permission.scope.kind} (${permission.scope.from}.${permission.scope.key})` }
            : undefined,
          keyScope: read<ApiKeyScopeRule>(API_KEY_SCOPE),
          ...(read<boolean>(INSTANCE_ADMIN) ? { instanceAdmin: true } : {}),
          ...(read<string>(ERROR_KEY_METADATA) === 'error' ? { errorBodyKey: 'error' as const } : {}),
          ...(read<boolean>(SIGNED_OUT_NULL) ? { signedOutNull: true as const } : {}),
        });
      }
    }
  }
  return out;
}

/** How a route's access reads in the docs (one sentence). */
export function describeAccess(r: RouteAccess): string {
  if (r.isPublic) return 'Public: no credentials.';
  if (r.instanceAdmin) return 'Signed in with a session token, as an instance admin; API keys are refused.';
  if (r.permission) {
    const { resource, action } = r.permission;
    const who = action === 'read' ? 'any member of the workspace' : `members whose roles grant \`${resource}:${action}\``;
    return `Signed in; ${who} (the workspace of the ${r.permission.from}; non-members get 404). API keys need the scope \`${resource}:${action}\`.`;
  }
  if (r.keyScope === 'handler') return 'Signed in. API keys limited by permissions are bounded by the route itself (see its description).';
  if (r.keyScope) return `Signed in. API keys need the scope \`${r.keyScope.resource}:${r.keyScope.action}\`.`;
  if (r.signedOutNull)
    return 'Signed in (a session token or an API key without permission limits); signed out (no credential, or only a session cookie whose session ended), the answer is `null`.';
  return 'Signed in (a session token or an API key without permission limits).';
}

/**
 * The security requirement of a route in the OpenAPI document: none for a public route; a bearer
 * token (a session token or an API key), the browser's session cookie or the `x-api-key` header
 * for the others; a session (bearer token or cookie) only for the instance admins' routes, which
 * refuse API keys.
 */
export function securityOf(r: RouteAccess): Array<Record<string, string[]>> | undefined {
  if (r.isPublic) return undefined;
  if (r.instanceAdmin) return [{ bearer: [] }, { 'session-cookie': [] }];
  return [{ bearer: [] }, { 'session-cookie': [] }, { 'api-key': [] }];
}

/**
 * Adds each route's access rule to its OpenAPI operation: `x-access` (the sentence), its
 * `security` (securityOf, in place of what the decorators declared) and, for routes with a
 * permission, `x-permission` (`resource:action`).
 */
export function documentAccess(doc: OpenAPIObject, routes: RouteAccess[]): OpenAPIObject {
  for (const r of routes) {
    const op = (doc.paths[r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')] as any)?.[r.method.toLowerCase()];
    if (!op) continue;
    const access = describeAccess(r);
    op['x-access'] = access;
    op.description = [op.description, `**Access:** ${access}`].filter(Boolean).join('\n\n');
    const security = securityOf(r);
    if (security) op.security = security;
    else delete op.security;
    if (r.permission) op['x-permission'] = `${r.permission.resource}:${r.permission.action}`;
  }
  return doc;
}
