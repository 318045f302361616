import { Injectable } from '@nestjs/common';
import { RedisService } from '../../redis/redis.service';

const TTL_MS = 10 * 60_000;
const STATE_FORMAT = /^[\w-]{16,128}$/;

/** A sign-in between the redirect to the provider and its callback. */
export interface PendingAuthorization {
  codeVerifier: string;
  nonce: string;
  /** Where to send the browser with the token; null = answer JSON. */
  callbackURL: string | null;
  /** Set when a signed-in user started the flow to link the provider account to themselves. */
  linkUserId: string | null;
  /** The session that started a link: the link is made only while it is still live. */
  linkSessionId?: string | null;
  /** SHA-256 (hex) of the secret in the browser cookie set at authorize (see OAuthBrowserBinding). */
  browserBinding: string;
}

/**
 * Pending authorizations live in Redis under the instance prefix, keyed by `state`, for ten
 * minutes and for one callback only (GETDEL), so a state cannot be replayed by any process.
 */
@Injectable()
export class OAuthStateStore {
  constructor(private readonly redis: RedisService) {}

  async put(state: string, pending: PendingAuthorization): Promise<void> {
    await this.redis.client.set(this.key(state), JSON.stringify(pending), 'PX', TTL_MS);
  }

  /** The pending authorization for `state`, removed as it is read; null when unknown, used or expired. */
  async take(state: unknown): Promise<PendingAuthorization | null> {
    if (typeof state !== 'string' || !STATE_FORMAT.test(state)) return null;
    const raw = await this.redis.client.getdel(this.key(state));
    return raw ? (JSON.parse(raw) as PendingAuthorization) : null;
  }

  private key(state: string): string {
    return this.redis.key('oauth', 'state', state);
  }
}
