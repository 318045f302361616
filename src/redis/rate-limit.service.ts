import { HttpException, HttpStatus, Injectable, Logger } from '@nestjs/common';
import { RedisService } from './redis.service';

// Fixed one-minute window: INCR, set the expiry on the first hit, report the remaining ttl.
const SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}
`;

/** A count that takes longer than this is given up (the request goes on uncounted). */
const COUNT_TIMEOUT_MS = 250;
/** While Redis is unreachable, the warning is repeated at most this often. */
const WARN_EVERY_MS = 60_000;

export class TooManyRequestsError extends HttpException {
  constructor(retryAfterSeconds: number, message = 'Too many requests') {
    super({ message, retryAfter: retryAfterSeconds }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * Redis-backed rate limits, shared by every process of the instance. They fail open: while Redis
 * is unreachable (or too slow to answer) requests are not counted and a warning is logged, so a
 * Redis outage never turns a request, a task change in particular, into an error
 * (docs/decisions-local.md, "Rate limits").
 */
@Injectable()
export class RateLimitService {
  private readonly logger = new Logger(RateLimitService.name);
  private lastWarning = 0;

  constructor(private readonly redis: RedisService) {}

  /** Counts one hit on `bucket`; throws 429 (with Retry-After) past `perMinute`. 0 disables the limit. */
  async hit(bucket: string, perMinute: number, message?: string): Promise<void> {
    if (!perMinute) return;
    const counted = await this.count(bucket);
    if (!counted) return;
    const [count, ttl] = counted;
    if (count > perMinute) throw new TooManyRequestsError(Math.max(1, Math.ceil(ttl / 1000)), message);
  }

  private async count(bucket: string): Promise<[number, number] | null> {
    const client = this.redis.client;
    if (client.status !== 'ready') return this.failOpen(`Redis is ${client.status}`);
    let timer: NodeJS.Timeout | undefined;
    try {
      return (await Promise.race([
        client.eval(SCRIPT, 1, this.redis.key('rl', bucket), 60_000),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${COUNT_TIMEOUT_MS} ms`)), COUNT_TIMEOUT_MS);
        }),
      ])) as [number, number];
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
