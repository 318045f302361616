import { Injectable } from '@nestjs/common';
import { RedisService } from '../../../redis/redis.service';

/** How long a user has to authorize the App after asking to link (the state's lifetime). */
export const LINK_STATE_TTL_MS = 10 * 60_000;
const STATE_FORMAT = /^[\w-]{16,128}$/;

/**
 * A link between its start (`POST …/authorize`) and the host's callback: who asked, with which
 * credential, for which project, repository and settings, where to send the browser afterwards,
 * and the hash of the browser secret (docs/git-hosts.md, "Linking proves control").
 */
export interface PendingHostedgitLink {
  userId: string;
  /** The credential the request came with; the link is made only while it is still valid. */
  sessionId: string | null;
  apiKeyId: string | null;
  workspaceId: string;
  projectId: string;
  repositoryOwner: string;
  repositoryName: string;
  installationId: number | null;
  branchPattern: string;
  commentTaskLink: boolean;
  callbackURL: string | null;
  browserBinding: string;
}

/**
 * Pending links live in Redis under the instance prefix, keyed by `state`, for ten minutes and
 * for one callback only (GETDEL), so a state cannot be replayed by any process.
 */
@Injectable()
export class HostedgitLinkStore {
  constructor(private readonly redis: RedisService) {}

  async put(state: string, pending: PendingHostedgitLink): Promise<void> {
    await this.redis.client.set(this.key(state), JSON.stringify(pending), 'PX', LINK_STATE_TTL_MS);
  }

  /** The pending link of `state`, removed as it is read; null when unknown, used or expired. */
  async take(state: unknown): Promise<PendingHostedgitLink | null> {
    if (typeof state !== 'string' || !STATE_FORMAT.test(state)) return null;
    const raw = await this.redis.client.getdel(this.key(state));
    return raw ? (JSON.parse(raw) as PendingHostedgitLink) : null;
  }

  private key(state: string): string {
    return this.redis.key('hostedgit', 'link', state);
  }
}
