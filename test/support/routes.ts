import { randomUUID } from 'node:crypto';
import { RouteAccess as TableRoute, routeTable } from '../../src/common/http/route-table';
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

/** What a route declares about access (src/common/http/route-table.ts), keyed like registeredRoutes(). */
export type RouteAccess = TableRoute & { key: string };

export function routeAccess(t: TestApp): RouteAccess[] {
  return routeTable(t.running.app).map((r) => ({ ...r, key: `${r.method} ${r.path}` }));
}
