/** Masks (docs/decisions-local.md, "Secrets"): `…` is U+2026, `•` U+2022. */
export function maskSecret(secret: string | null | undefined): string {
  if (!secret) return '';
  return secret.length > 8 ? `${secret.slice(0, 4)}\u2026${secret.slice(-4)}` : '\u2022\u2022\u2022\u2022';
}

/**
 * Keeps origin and path but masks the last non-empty path segment (`…/B000/SECRET/` masks
 * SECRET, keeping the trailing slash). The query and the fragment are dropped: they can carry a
 * token too, and are never shown. User info never shows (it is not part of the origin).
 */
export function maskUrl(url: string | null | undefined): string {
  if (!url) return '';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return maskSecret(url);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return maskSecret(url);
  const parts = u.pathname.split('/');
  let last = parts.length - 1;
  while (last > 0 && parts[last] === '') last--;
  if (last > 0) parts[last] = maskSecret(parts[last]);
  return `${u.origin}${parts.join('/')}`;
}

/** The bot token keeps its numeric prefix: `123456789:AAAA…wxyz`. */
export function maskBotToken(token: string | null | undefined): string {
  if (!token) return '';
  const i = token.indexOf(':');
  if (i < 0) return maskSecret(token);
  return `${token.slice(0, i)}:${maskSecret(token.slice(i + 1))}`;
}

/** The selfgit access token: first 4 + `••••••` + last 4. */
export function maskAccessToken(token: string | null | undefined): string {
  if (!token) return '';
  if (token.length <= 8) return '\u2022\u2022\u2022\u2022';
  return `${token.slice(0, 4)}${'\u2022'.repeat(6)}${token.slice(-4)}`;
}
