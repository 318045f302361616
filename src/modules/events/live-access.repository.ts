import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { preparedRows } from '../../database/sql';

/** Who holds an open event stream: the user, and the session or API key it was opened with. */
export interface StreamHolder {
  userId: string;
  sessionId: string | null;
  apiKeyId: string | null;
}

/**
 * Of the holders of a workspace's open streams, which may still have them: still a member, and the
 * session or API key still live (neither revoked, deleted nor expired). One statement for all of a
 * workspace's streams; it reads the organization module's `member` and the auth module's `session`
 * and `api_key` (eslint.config.js declares it), as the session check does.
 */
@Injectable()
export class LiveAccessRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The indexes (0-based) of the holders that may keep their streams. */
  async stillAllowed(workspaceId: string, holders: readonly StreamHolder[]): Promise<Set<number>> {
    if (!holders.length) return new Set();
    const found = await preparedRows<{ n: number }>(
      this.ds,
      'live_still_allowed',
      `SELECT (c.n - 1)::int AS n
         FROM unnest($2::uuid[], $3::uuid[], $4::uuid[]) WITH ORDINALITY AS c(user_id, session_id, api_key_id, n)
        WHERE EXISTS (SELECT 1 FROM member m WHERE m.organization_id = $1 AND m.user_id = c.user_id)
          AND (c.session_id IS NULL OR EXISTS (SELECT 1 FROM session s WHERE s.id = c.session_id AND s.user_id = c.user_id AND s.revoked_at IS NULL AND s.expires_at > now()))
          AND (c.api_key_id IS NULL OR EXISTS (SELECT 1 FROM api_key k WHERE k.id = c.api_key_id AND k.user_id = c.user_id AND (k.expires_at IS NULL OR k.expires_at > now())))`,
      [workspaceId, holders.map((h) => h.userId), holders.map((h) => h.sessionId), holders.map((h) => h.apiKeyId)],
    );
    return new Set(found.map((r) => r.n));
  }
}
