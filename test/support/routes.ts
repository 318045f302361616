import { randomUUID } from 'node:crypto';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { API_KEY_SCOPE } from '../../src/common/decorators/api-key-scope.decorator';
import { IS_PUBLIC } from '../../src/common/decorators/public.decorator';
import { PERMISSION_METADATA } from '../../src/common/decorators/require-permission.decorator';
import { TestApp } from './app';

export interface RegisteredRoute {
  method: string;
  /** Express path as registered, e.g. `/api/task/:id`. */
  path: string;
  /** `METHOD /path` with the global prefix, as in the route table. */
  key: string;
}

/**
 * Every route the running app registered with Express (Nest's router, global prefix included),
 * so a sweep covers a route added tomorrow without anyone listing it.
 */
export function registeredRoutes(t: TestApp): RegisteredRoute[] {
  const express = (t.running.app as any).getHttpAdapter().getInstance();
  const stack: any[] = express.router?.stack ?? express._router?.stack ?? [];
  const out: RegisteredRoute[] = [];
  for (const layer of stack) {
    const route = layer.route;
    if (!route || typeof route.path !== 'string') continue;
    for (const [method, on] of Object.entries<boolean>(route.methods ?? {})) {
      if (!on || method === '_all') continue;
      const m = method.toUpperCase();
      out.push({ method: m, path: route.path, key: `${m} ${route.path}` });
    }
  }
  return out;
}

/** The path with each `:param` replaced by a fresh UUID and the `/api` prefix removed (for Api). */
export function concretePath(path: string): string {
  return path.replace(/^\/api/, '').replace(/:[A-Za-z0-9_]+/g, () => randomUUID());
}

/** What a route declares about access, read from the decorators on its handler. */
export interface RouteAccess {
  key: string;
  method: string;
  path: string;
  isPublic: boolean;
  /** @RequirePermission(resource, action, …) */
  permission?: { resource: string; action: string };
  /** @ApiKeyScope(resource, action) or 'handler' (@ApiKeyScopeCheckedByHandler) */
  keyScope?: { resource: string; action: string } | 'handler';
}

const joinPath = (...parts: string[]) => '/' + parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/');

/**
 * Every controller route of the running app with its access declarations, from Nest's own
 * metadata (the same the guards read), keyed like registeredRoutes() (`GET /api/task/:id`).
 */
export function routeAccess(t: TestApp): RouteAccess[] {
  const container: Map<string, any> = (t.running.app as any).get(ModulesContainer);
  const out: RouteAccess[] = [];
  for (const mod of container.values()) {
    for (const wrapper of mod.controllers.values()) {
      const ctrl = wrapper.metatype;
      if (!ctrl) continue;
      const base: string = Reflect.getMetadata(PATH_METADATA, ctrl) ?? '';
      for (const name of Object.getOwnPropertyNames(ctrl.prototype)) {
        const handler = ctrl.prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const m = Reflect.getMetadata(METHOD_METADATA, handler);
        const p = Reflect.getMetadata(PATH_METADATA, handler);
        if (m === undefined || typeof p !== 'string') continue;
        const method = String(RequestMethod[m]);
        const path = joinPath('api', base, p);
        const read = (k: string) => Reflect.getMetadata(k, handler) ?? Reflect.getMetadata(k, ctrl);
        const permission = read(PERMISSION_METADATA);
        out.push({
          key: `${method} ${path}`,
          method,
          path,
          isPublic: read(IS_PUBLIC) === true,
          permission: permission ? { resource: permission.resource, action: permission.action } : undefined,
          keyScope: read(API_KEY_SCOPE),
        });
      }
    }
  }
  return out;
}
