import { RedisService } from './redis.service';

const STATE_FORMAT = /^[\w-]{16,128}$/;

/**
 * The pending states of flows that send a browser to another site and back (an OpenID sign-in, a
 * hostedgit link): kept in Redis under the instance prefix for `ttlMs`, keyed by the random `state`
 * the other site hands back, and taken once (GETDEL), so no process can use a state twice.
 */
export class OneUseStates<T> {
  constructor(
    private readonly redis: RedisService,
    private readonly keyParts: readonly string[],
    private readonly ttlMs: number,
  ) {}

  async put(state: string, value: T): Promise<void> {
    await this.redis.client.set(this.key(state), JSON.stringify(value), 'PX', this.ttlMs);
  }

  /** The value of `state`, removed as it is read; null when unknown, used, expired or malformed. */
  async take(state: unknown): Promise<T | null> {
    if (typeof state !== 'string' || !STATE_FORMAT.test(state)) return null;
    const raw = await this.redis.client.getdel(this.key(state));
    return raw ? (JSON.parse(raw) as T) : null;
  }

  private key(state: string): string {
    return this.redis.key(...this.keyParts, state);
  }
}
