/** URL rules of the custom OAuth flow: which provider URLs are trusted, where a callback may go. */

const IPV4_LOOPBACK = /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || IPV4_LOOPBACK.test(h);
}

export const PROVIDER_URL_RULE = 'must be an https URL (plain http only for a loopback address with ALLOW_PRIVATE_DESTINATIONS=true)';

/**
 * Issuer and provider endpoints must be https; plain http is accepted only on a loopback address
 * and only when private destinations are allowed (development and tests).
 */
export function isAllowedProviderUrl(value: string, allowLoopbackHttp: boolean): boolean {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  if (u.protocol === 'https:') return true;
  return u.protocol === 'http:' && allowLoopbackHttp && isLoopbackHost(u.hostname);
}

/**
 * Resolves a client's `callbackURL` (absolute, or a path on CLIENT_URL) and returns it only when its
 * origin is one of `allowedOrigins`; anything else is refused so the callback is no open redirect.
 */
export function resolveCallbackUrl(value: string, clientUrl: string, allowedOrigins: readonly string[]): string | null {
  if (value.length > 2048 || /[\s\\]/.test(value)) return null;
  let u: URL;
  try {
    u = new URL(value, clientUrl + '/');
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  if (u.username || u.password) return null;
  if (!allowedOrigins.includes(u.origin)) return null;
  u.hash = '';
  return u.toString();
}
