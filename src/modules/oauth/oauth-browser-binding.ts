import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Ties an OAuth flow to the browser that started it. `authorize` sets a cookie holding a random
 * secret (only its hash is kept with the state); the callback is refused unless the same browser
 * brings the cookie back. Without this, a callback URL carrying someone else's code and state
 * could sign a victim in as the attacker (login CSRF), or complete an attacker's link flow with
 * the victim's provider account.
 *
 * One cookie per flow (its name is derived from the state), so flows in several tabs do not
 * disturb each other; `Path` limits it to the callback, `SameSite=Lax` still sends it on the
 * provider's top-level redirect, and it lives as long as the state (10 minutes).
 */
export const BINDING_MAX_AGE_S = 600;

export function newBrowserBinding(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashBinding(secret) };
}

export function hashBinding(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function bindingCookieName(state: string): string {
  return `tandem_oauth_${createHash('sha256').update(state).digest('hex').slice(0, 16)}`;
}

/** Whether the browser's secret matches the hash stored with the state (constant time). */
export function bindingMatches(secret: string | null, storedHash: string | undefined): boolean {
  if (!secret || !storedHash) return false;
  const a = Buffer.from(hashBinding(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Set-Cookie value: `secret` for the flow's cookie, or an expired one to clear it. */
export function bindingCookie(name: string, secret: string | null, path: string, secure: boolean): string {
  const attrs = [`${name}=${secret ?? ''}`, `Path=${path}`, `Max-Age=${secret ? BINDING_MAX_AGE_S : 0}`, 'HttpOnly', 'SameSite=Lax'];
  if (secure) attrs.push('Secure');
  return attrs.join('; ');
}
