import type { Request } from 'express';

/** The cookie's value from a Cookie header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}

/** Methods that change nothing: a cross-site request with them is answered (the page cannot read the answer without CORS). */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The browser session cookie (SECURITY.md, "Browser sessions"): the session's token, HttpOnly so
 * no script reads it, SameSite=Lax so other sites' pages do not send it with their requests (but
 * a link followed to the service does), for the whole service, Secure when it is served over
 * https, and as long as the session.
 */
export const SESSION_COOKIE = 'tandem_session';

export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return [`${SESSION_COOKIE}=${token}`, 'Path=/', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ');
}

/** A request that carries the session cookie instead of a token, as the AuthGuard found it (the JWT strategy reads it from here). */
export interface CookieSessionRequest {
  sessionCookie?: string;
}

/** The Set-Cookie that removes the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return [`${SESSION_COOKIE}=`, 'Path=/', 'Max-Age=0', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ');
}

/**
 * Whether a request that a browser may have sent from another site's page comes from one of
 * `origins` (the service's own, PUBLIC_API_URL, and the web client's, CLIENT_URL) or from the
 * origin it was sent to (its `Host`: the web app the service serves, whatever name it is reached
 * by; a page of another site cannot send the cookie there): by its `Origin` header, or, without
 * one, by `Sec-Fetch-Site: same-origin`. A request with neither is refused:
 * every current browser sends one of them with a request that changes something.
 */
export function fromOwnOrigin(req: Pick<Request, 'headers' | 'protocol'>, origins: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (typeof origin === 'string') return origins.includes(origin) || origin === `${req.protocol}://${req.headers.host ?? ''}`;
  return req.headers['sec-fetch-site'] === 'same-origin';
}
