/** Masks for secrets shown back to clients: `…` is U+2026, `•` U+2022. */
export function maskSecret(secret: string | null | undefined): string {
  if (!secret) return '';
  return secret.length > 8 ? `${secret.slice(0, 4)}\u2026${secret.slice(-4)}` : '\u2022\u2022\u2022\u2022';
}

/** Keeps origin and path but masks the last path segment. */
export function maskUrl(url: string | null | undefined): string {
  if (!url) return '';
  try {
    const u = new URL(url);
    const parts = u.pathname.split('/');
    const last = parts.pop() ?? '';
    parts.push(maskSecret(last));
    return `${u.origin}${parts.join('/')}`;
  } catch {
    return maskSecret(url);
  }
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
