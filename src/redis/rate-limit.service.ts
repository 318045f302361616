import { createHash } from 'node:crypto';
import { HttpException, HttpStatus, Injectable, Logger } from '@nestjs/common';
import { LocalCounts } from './local-limits';
import { RedisService } from './redis.service';

// Fixed one-minute window: INCRBY the weight, set the expiry on the first hit, report the remaining ttl.
const SCRIPT = `
local w = tonumber(ARGV[2])
local n = redis.call('INCRBY', KEYS[1], w)
if n == w then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}
`;

/**
 * Failed password sign-ins of one account (docs/decisions-local.md, "Rate limits"): counted for
 * FAILURE_WINDOW_MS from the first; the failure that reaches the limit locks the account for
 * FIRST_LOCK_MS, and each further failure while the count lasts locks it twice as long as the
 * last, up to MAX_LOCK_MS. The count lasts FAILURE_WINDOW_MS past the end of the latest lock.
 */
const FAILURE_WINDOW_MS = 15 * 60_000;
const FIRST_LOCK_MS = 60_000;
const MAX_LOCK_MS = 60 * 60_000;

// KEYS: the failure count, the lock. ARGV: limit, window, first lock, longest lock (ms).
const FAILURE_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
local over = n - tonumber(ARGV[1])
if over < 0 then return 0 end
local lock = math.floor(math.min(tonumber(ARGV[3]) * 2 ^ math.min(over, 20), tonumber(ARGV[4])))
redis.call('SET', KEYS[2], '1', 'PX', lock)
local keep = lock + tonumber(ARGV[2])
if redis.call('PTTL', KEYS[1]) < keep then redis.call('PEXPIRE', KEYS[1], keep) end
return lock
`;

/** A count that takes longer than this is given up (the process's own count decides, or none for the API limit). */
const COUNT_TIMEOUT_MS = 250;
/** While Redis is unreachable, the warning is repeated at most this often. */
const WARN_EVERY_MS = 60_000;

export class TooManyRequestsError extends HttpException {
  constructor(retryAfterSeconds: number, message = 'Too many requests') {
    super({ message, retryAfter: retryAfterSeconds }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * Redis-backed rate limits, shared by every process of the instance (docs/decisions-local.md,
 * "Rate limits"). The per-token API limit fails open: while Redis is unreachable or too slow to
 * answer, API requests are not counted and a warning is logged, so a Redis outage never turns a
 * request, a task change in particular, into an error. The limits that stand between an attacker
 * and password guesses (sign-in, sign-up and the account routes per client address, and each
 * account's failure back-off) are also counted in the process itself, always; a request is judged
 * by the larger of the two counts, so when Redis does not answer in time the process's own count
 * still stops the guesses.
 */
@Injectable()
export class RateLimitService {
  private readonly logger = new Logger(RateLimitService.name);
  private lastWarning = 0;
  readonly local = new LocalCounts();

  constructor(private readonly redis: RedisService) {}

  /**
   * Counts one hit on `bucket`; throws 429 (with Retry-After) past `perMinute`. 0 disables the
   * limit. Every bucket but the API's (`api:…`) is counted in the process too. `weight`: what
   * the request counts for (an import counts each of its tasks).
   */
  async hit(bucket: string, perMinute: number, message?: string, weight = 1): Promise<void> {
    if (!perMinute) return;
    const local = bucket.startsWith('api:') ? null : this.local.hit(bucket, 60_000);
    const counted = await this.count(bucket, weight);
    const [count, ttl] = pickLarger(counted, local);
    if (count > perMinute) throw new TooManyRequestsError(Math.max(1, Math.ceil(ttl / 1000)), message);
  }

  /**
   * Runs `attempt`, a password check of `account` (a normalised email, known or not), under the
   * account's failure back-off: 429 with Retry-After while the account is locked, without running
   * it; a 401 from it counts one failure; a success, or any other answer once the password was
   * right (403 `Email not verified`), clears the count. Unknown addresses are counted and locked
   * alike, so the answers say nothing about whether an account exists. 0 disables it. The count
   * and the lock are kept in the process too (the longer lock wins).
   */
  async accountAttempt<T>(account: string, maxFailures: number, attempt: () => Promise<T>): Promise<T> {
    if (!maxFailures) return attempt();
    const { failures, lock } = this.accountKeys(account);
    const locked = Math.max((await this.run((c) => c.pttl(lock))) ?? 0, this.local.get(lock)?.[1] ?? 0);
    if (locked > 0) throw new TooManyRequestsError(Math.max(1, Math.ceil(locked / 1000)));
    try {
      const out = await attempt();
      await this.clear(failures, lock);
      return out;
    } catch (err) {
      const status = err instanceof HttpException ? err.getStatus() : 500;
      if (status === HttpStatus.UNAUTHORIZED) {
        this.localFailure(failures, lock, maxFailures);
        await this.run((c) => c.eval(FAILURE_SCRIPT, 2, failures, lock, maxFailures, FAILURE_WINDOW_MS, FIRST_LOCK_MS, MAX_LOCK_MS));
      } else if (status < 500) await this.clear(failures, lock);
      throw err;
    }
  }

  /** FAILURE_SCRIPT's rule on the process's own counts. */
  private localFailure(failures: string, lock: string, maxFailures: number): void {
    const [n] = this.local.hit(failures, FAILURE_WINDOW_MS);
    const over = n - maxFailures;
    if (over < 0) return;
    const ms = Math.floor(Math.min(FIRST_LOCK_MS * 2 ** Math.min(over, 20), MAX_LOCK_MS));
    this.local.set(lock, ms);
    this.local.extend(failures, ms + FAILURE_WINDOW_MS);
  }

  private async clear(failures: string, lock: string): Promise<void> {
    this.local.delete(failures, lock);
    await this.run((c) => c.del(failures, lock));
  }

  /**
   * Ends `account`'s failure count and lock: its owner proved control of the address another way
   * (a password reset through the emailed link), so the guesses before no longer hold them out.
   */
  async clearAccount(account: string): Promise<void> {
    const { failures, lock } = this.accountKeys(account);
    await this.clear(failures, lock);
  }

  private accountKeys(account: string): { failures: string; lock: string } {
    const id = createHash('sha256').update(account).digest('base64url');
    return { failures: this.redis.key('rl', 'sign-in-failures', id), lock: this.redis.key('rl', 'sign-in-lock', id) };
  }

  private count(bucket: string, weight = 1): Promise<[number, number] | null> {
    return this.run((c) => c.eval(SCRIPT, 1, this.redis.key('rl', bucket), 60_000, weight) as Promise<[number, number]>);
  }

  /** One Redis command for a limit, or null (fail open) when Redis is unreachable or too slow. */
  private async run<T>(command: (client: RedisService['client']) => Promise<T>): Promise<T | null> {
    const client = this.redis.client;
    if (client.status !== 'ready') return this.failOpen(`Redis is ${client.status}`);
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        command(client),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${COUNT_TIMEOUT_MS} ms`)), COUNT_TIMEOUT_MS);
        }),
      ]);
    } catch (err) {
      return this.failOpen((err as Error).message);
    } finally {
      clearTimeout(timer);
    }
  }

  private failOpen(reason: string): null {
    const now = Date.now();
    if (now - this.lastWarning >= WARN_EVERY_MS) {
      this.lastWarning = now;
      this.logger.warn(`rate limits not counted while Redis is unreachable (${reason})`);
    }
    return null;
  }
}

/** Of Redis's count and the process's (each [count, ms left], or null), the larger; [0, 0] when neither. */
function pickLarger(a: [number, number] | null, b: [number, number] | null): [number, number] {
  if (!a) return b ?? [0, 0];
  if (!b) return a;
  return b[0] > a[0] ? b : a;
}
