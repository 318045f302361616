/**
 * The rate-limit counts one process keeps itself, beside Redis's (docs/decisions-local.md, "Rate
 * limits"): what the sign-in, sign-up and account limits fall back on when Redis does not answer
 * in time, so that loading the service (or Redis) never means unthrottled password guesses.
 * Bounded: at most MAX_KEYS counts; past that the expired ones go first, then the oldest.
 */
export const MAX_KEYS = 50_000;

interface Count {
  n: number;
  /** When the count ends (ms since the epoch). */
  until: number;
}

export class LocalCounts {
  private readonly counts = new Map<string, Count>();

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.counts.size;
  }

  /** Adds one to `key`'s count, which lasts `windowMs` from its first hit: the count and the ms it has left. */
  hit(key: string, windowMs: number): [number, number] {
    const now = this.now();
    let c = this.live(key, now);
    if (!c) {
      this.makeRoom(now);
      c = { n: 0, until: now + windowMs };
      this.counts.set(key, c);
    }
    c.n++;
    return [c.n, c.until - now];
  }

  /** `key`'s count and the ms it has left, or null when it has none. */
  get(key: string): [number, number] | null {
    const now = this.now();
    const c = this.live(key, now);
    return c ? [c.n, c.until - now] : null;
  }

  /** Makes `key`'s count last at least until `ms` from now (a lock, a failure count kept past it). */
  extend(key: string, ms: number): void {
    const c = this.counts.get(key);
    if (c) c.until = Math.max(c.until, this.now() + ms);
  }

  /** Sets `key` to a count of 1 lasting `ms` (a lock). */
  set(key: string, ms: number): void {
    const now = this.now();
    if (!this.counts.has(key)) this.makeRoom(now);
    this.counts.set(key, { n: 1, until: now + ms });
  }

  delete(...keys: string[]): void {
    for (const k of keys) this.counts.delete(k);
  }

  private live(key: string, now: number): Count | undefined {
    const c = this.counts.get(key);
    if (c && c.until <= now) {
      this.counts.delete(key);
      return undefined;
    }
    return c;
  }

  private makeRoom(now: number): void {
    if (this.counts.size < MAX_KEYS) return;
    for (const [k, c] of this.counts) if (c.until <= now) this.counts.delete(k);
    // Still full: the oldest (a Map keeps insertion order) make room.
    for (const k of this.counts.keys()) {
      if (this.counts.size < MAX_KEYS) break;
      this.counts.delete(k);
    }
  }
}
