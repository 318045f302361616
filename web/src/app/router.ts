import { createBrowserHistory } from '@tanstack/react-router';
import { useSyncExternalStore } from 'react';

/**
 * The browser history the app's router (TanStack Router, web/src/app/routes.tsx) follows; the
 * helpers below move through it, so that every page can navigate without importing the route tree.
 */
export const history = createBrowserHistory();

export function usePath(): string {
  return useSyncExternalStore(
    (onChange) => history.subscribe(onChange),
    () => history.location.pathname,
  );
}

/** Go to `path` (a path of the app, with its query if any); `replace` leaves no history entry. */
export function navigate(path: string, replace = false): void {
  if (path === history.location.pathname + history.location.search) return;
  if (replace) history.replace(path);
  else history.push(path);
}

/** `pattern` like `/w/:workspaceId/p/:projectId` against `path`: the named parts, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.replace(/\/+$/, '').split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) params[w.slice(1)] = decodeURIComponent(g);
    else if (w !== g) return null;
  }
  return params;
}

/** The query parameter `name` of the current address, or null. */
export function queryParam(name: string): string | null {
  return new URLSearchParams(window.location.search).get(name);
}

/**
 * Where to go once signed in: the page that asked for a sign-in (`?next=`, a path of this app
 * only, never another site), else the first page.
 */
export function nextPath(): string {
  const next = queryParam('next');
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

/** The sign-in (or sign-up) page that comes back to `path` afterwards. */
export function withNext(page: '/sign-in' | '/sign-up', path: string): string {
  return path === '/' ? page : `${page}?next=${encodeURIComponent(path)}`;
}
