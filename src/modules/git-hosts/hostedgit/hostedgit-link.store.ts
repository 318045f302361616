import { Injectable } from '@nestjs/common';
import { OneUseStates } from '../../../redis/one-use-states';
import { RedisService } from '../../../redis/redis.service';

/** How long a user has to authorize the App after asking to link (the state's lifetime). */
export const LINK_STATE_TTL_MS = 10 * 60_000;

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
 * for one callback only, so a state cannot be replayed by any process.
 */
@Injectable()
export class HostedgitLinkStore extends OneUseStates<PendingHostedgitLink> {
  constructor(redis: RedisService) {
    super(redis, ['hostedgit', 'link'], LINK_STATE_TTL_MS);
  }
}
