/**
 * Text helpers of the delivery formats (docs/integrations.md, "Delivery formats and
 * retries"): escaping for each chat's markup, neutralised mentions and length limits. Pure.
 */

const ELLIPSIS = '\u2026';

/** `2030-01-02 09:00 UTC` from an ISO 8601 time; — when there is none. */
export const utcMinute = (iso: unknown): string => (typeof iso === 'string' && iso.length >= 16 ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '—');

/** Length in code points (what the chat services count; a surrogate pair is one character). */
export const charLength = (s: string): number => Array.from(s).length;

/** `s` cut to at most `max` code points, ending with … when something was cut. */
export function truncate(s: string, max: number): string {
  const chars = Array.from(s);
  if (chars.length <= max) return s;
  if (max <= 0) return '';
  return chars.slice(0, max - 1).join('') + ELLIPSIS;
}

/**
 * `escape(raw)` cut so that the escaped text holds at most `max` code points: the raw text is
 * truncated before escaping, so an entity (`&amp;`) is never cut in half.
 */
export function fitEscaped(raw: string, max: number, escape: (s: string) => string): string {
  const whole = escape(raw);
  if (charLength(whole) <= max) return whole;
  // The longest cut of the raw text whose escaped form fits (binary search on its length).
  let lo = 0;
  let hi = charLength(raw) - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (charLength(escape(truncate(raw, mid))) <= max) lo = mid;
    else hi = mid - 1;
  }
  return escape(truncate(raw, lo));
}

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** The messenger's HTML parse mode: &, <, > and " of user text become entities. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"]/g, (c) => HTML[c]);

/** The teamchat's mrkdwn: only &, < and > are control characters there (they open links and mentions). */
export const escapeMrkdwn = (s: string): string => s.replace(/[&<>]/g, (c) => HTML[c]);

/**
 * The communitychat pings whoever a message mentions: `@everyone`, `@here`, `<@123>` (a user),
 * `<@!123>` (a user by nickname) and `<@&123>` (a role). A zero-width space after the `@` keeps
 * the text readable and makes it no mention at all.
 */
export const neutraliseMentions = (s: string): string => s.replace(/@(everyone|here)/gi, '@\u200b$1').replace(/<@([!&]?\d+)>/g, '<@\u200b$1>');
