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

/**
 * The controllers' routes that answer without credentials, as Express registered them. Every
 * other route of a controller must answer 401. Keep it short: each entry is a route anyone who
 * can reach the server may call. Checked by test/e2e/platform/platform.e2e-spec.ts (the 401 sweep)
 * and authorization-matrix.e2e-spec.ts (the declared @Public set).
 */
export const PUBLIC_ROUTES = [
  'GET /api/health',
  'POST /api/auth/sign-up/email',
  'POST /api/auth/sign-in/email',
  'GET /api/auth/oauth2/authorize/custom',
  'GET /api/auth/oauth2/callback/custom',
  // Account upkeep for people who cannot sign in yet or any more (docs/accounts.md): the two
  // email requests answer the same for any address and count against RATE_LIMIT_AUTH; the two
  // others need a one-use token that only the emails carry.
  'POST /api/auth/send-verification-email',
  'GET /api/auth/verify-email',
  'POST /api/auth/request-password-reset',
  'POST /api/auth/reset-password',
  // Inbound git-host webhooks (docs/git-hosts.md): the sender proves itself with an HMAC
  // signature of the body, so they cannot require a session either.
  'POST /api/selfgit-integration/webhook/:integrationId',
  'POST /api/hostedgit-integration/webhook',
  // The hosted git service's redirect after a user authorized the App to link a repository: the
  // browser arrives without a session; a one-use state, the flow's browser cookie and the host's
  // code are the credential (docs/git-hosts.md, "Linking proves control").
  'GET /api/hostedgit-integration/callback',
  // What a client reads before anyone signs in (docs/compatibility.md): flags and the version.
  'GET /api/config',
  // The read-only board of a project its workspace marked public; any other project is 404.
  'GET /api/public-project/:id',
  // The local file store's upload URL (docs/files.md, "Uploading"): a browser sends a file's bytes
  // there as it would to a bucket's presigned URL; a one-use token only the upload request
  // answered, tied to one declared file, is the credential.
  'PUT /api/asset/upload/:id',
];
/**
 * A ceiling on the list above: raising it is a decision about the attack surface, not a test fix.
 * Raised from 6 to 9 for the four account routes above, which cannot require a session; to 11 for
 * the two inbound git-host webhooks; to 13 for GET /config, which only tells what the settings
 * allow, and the public board, which shows only projects marked public (each client address
 * counted against RATE_LIMIT_API); to 14 for the hostedgit link callback, which a browser reaches
 * from the host's page without a session; to 15 for the local file store's upload URL, which
 * stands in for a bucket's presigned URL.
 */
export const MAX_PUBLIC_ROUTES = 15;
