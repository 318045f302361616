import { OutboundError } from '../../common/net/outbound-http';
import type { DeliveryStatus } from './delivery.repository';

/**
 * How an attempt's outcome decides the delivery, the same for every channel (docs/integrations.md,
 * "Delivery formats and retries"): delivered, worth retrying (transient), or never going to work
 * (permanent). Pure.
 */

export type Verdict = { outcome: 'delivered' } | { outcome: 'transient'; error: string; retryAfterMs: number | null } | { outcome: 'permanent'; error: string };

/** Longest excerpt of a receiver's answer kept in an error. */
const EXCERPT = 200;

/**
 * `Retry-After` as milliseconds from `now`: delay-seconds or an HTTP date (a date in the past is
 * 0); null when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!/^[A-Za-z]{3}, /.test(v)) return null; // an HTTP date starts with the day's name
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/**
 * The parts of a destination URL that may be secret, for scrub(): the whole URL and its path with
 * its query (a chat webhook's key is in its path, some receivers' token in the query); `/` alone
 * is no secret. A value that is not a URL is listed whole.
 */
export function urlSecrets(url: string): string[] {
  try {
    const u = new URL(url);
    const rest = u.pathname + u.search;
    return rest.length > 1 ? [url, rest] : [url];
  } catch {
    return [url];
  }
}

/** `text` with every secret replaced, cut to EXCERPT characters, on one line. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].filter((x) => x && x.length >= 4).sort((a, b) => b.length - a.length)) out = out.split(s).join('[redacted]');
  out = out.replace(/\s+/g, ' ').trim();
  return out.length > EXCERPT ? `${out.slice(0, EXCERPT)}\u2026` : out;
}

/**
 * A receiver's HTTP answer: 2xx delivered; 408, 429 and 5xx transient (429 with its Retry-After);
 * any other status (3xx: redirects are not followed; 4xx) permanent. `detail` (a scrubbed excerpt
 * of the answer) is added to the error.
 */
export function classifyStatus(statusCode: number, opts: { retryAfterMs?: number | null; detail?: string } = {}): Verdict {
  if (statusCode >= 200 && statusCode < 300) return { outcome: 'delivered' };
  const error = `HTTP ${statusCode}${opts.detail ? `: ${opts.detail}` : ''}`;
  if (statusCode >= 500 || statusCode === 408 || statusCode === 429) {
    return { outcome: 'transient', error, retryAfterMs: statusCode === 429 ? (opts.retryAfterMs ?? null) : null };
  }
  if (statusCode >= 300 && statusCode < 400) return { outcome: 'permanent', error: `${error} (redirects are not followed)` };
  return { outcome: 'permanent', error };
}

/** The target cannot be used as it is (a setting missing, secrets unreadable, the recipient gone): permanent; the message names no secret. */
export class UnusableTargetError extends Error {}

/**
 * An attempt that ended without an answer to judge: the guarded client's errors say whether they
 * are permanent, an unusable target is; anything else is a fault of ours (a bug, not the
 * receiver), retried, and named only by its kind (`fault` is told it, for the log).
 */
export function verdictOfError(err: unknown, fault: (kind: string) => void): Verdict {
  if (err instanceof OutboundError) {
    return err.permanent ? { outcome: 'permanent', error: err.message } : { outcome: 'transient', error: err.message, retryAfterMs: null };
  }
  if (err instanceof UnusableTargetError) return { outcome: 'permanent', error: err.message };
  fault((err as Error)?.name ?? 'error');
  return { outcome: 'transient', error: 'Internal error while sending', retryAfterMs: null };
}

/** The delivery's status after an attempt: delivered, failed (for good, or with no attempt left), or still pending (a retry follows). */
export function statusAfter(verdict: Verdict, lastAttempt: boolean): DeliveryStatus {
  if (verdict.outcome === 'delivered') return 'delivered';
  return verdict.outcome === 'permanent' || lastAttempt ? 'failed' : 'pending';
}
