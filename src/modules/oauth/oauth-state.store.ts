import { Injectable } from '@nestjs/common';
import { OneUseStates } from '../../redis/one-use-states';
import { RedisService } from '../../redis/redis.service';

const TTL_MS = 10 * 60_000;

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
 * minutes and for one callback only, so a state cannot be replayed by any process.
 */
@Injectable()
export class OAuthStateStore extends OneUseStates<PendingAuthorization> {
  constructor(redis: RedisService) {
    super(redis, ['oauth', 'state'], TTL_MS);
  }
}
