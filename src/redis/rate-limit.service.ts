import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { RedisService } from './redis.service';

// Fixed one-minute window: INCR, set the expiry on the first hit, report the remaining ttl.
const SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}
`;

export class TooManyRequestsError extends HttpException {
  constructor(retryAfterSeconds: number, message = 'Too many requests') {
    super({ message, retryAfter: retryAfterSeconds }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** Redis-backed rate limits, shared by every process of the instance. */
@Injectable()
export class RateLimitService {
  constructor(private readonly redis: RedisService) {}

  /** Counts one hit on `bucket`; throws 429 (with Retry-After) past `perMinute`. 0 disables the limit. */
  async hit(bucket: string, perMinute: number, message?: string): Promise<void> {
    if (!perMinute) return;
    const [count, ttl] = (await this.redis.client.eval(SCRIPT, 1, this.redis.key('rl', bucket), 60_000)) as [number, number];
    if (count > perMinute) throw new TooManyRequestsError(Math.max(1, Math.ceil(ttl / 1000)), message);
  }
}
