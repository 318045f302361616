import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, preparedRows } from '../../database/sql';
import { Session } from './session.entity';

/** A live session joined with its user: what every JWT-authenticated request needs. */
export interface LiveSessionRow {
  active_organization_id: string | null;
  name: string;
  email: string;
  is_instance_admin: boolean;
}

/** A live session with its user, and where a resource lives for that user (null columns: no such resource; member_id null: not a member). */
export interface LiveSessionLocatingRow extends LiveSessionRow {
  workspace_id: string | null;
  member_id: string | null;
  role: string | null;
}

/** Sessions behind access tokens. A session belongs to its user; it has no workspace. */
@Injectable()
export class SessionRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  create(fields: Pick<Session, 'userId' | 'expiresAt' | 'ipAddress' | 'userAgent'>, m: EntityManager = this.ds.manager): Promise<Session> {
    return m.getRepository(Session).save(fields);
  }

  /** The session, which must exist (behind a valid token); throws otherwise. */
  getById(id: string, m: EntityManager = this.ds.manager): Promise<Session> {
    return m.findOneByOrFail(Session, { id });
  }

  /**
   * The session of a JWT if it is neither revoked nor expired, with its user, in one statement.
   * Runs on every authenticated request, so it is a named prepared statement (docs/benchmarks.md).
   */
  async findLiveWithUser(sessionId: string, userId: string): Promise<LiveSessionRow | undefined> {
    const rows = await preparedRows<LiveSessionRow>(
      this.ds,
      'auth_session',
      `SELECT s.active_organization_id, u.name, u.email, u.is_instance_admin
         FROM session s JOIN "user" u ON u.id = s.user_id
        WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()`,
      [sessionId, userId],
    );
    return rows[0];
  }

  /**
   * The session check and the permission guard's lookup in one statement: the live session with its
   * user (no row: no live session), joined with the workspace that `kindSql` (a scope kind's SELECT,
   * resource id as $1) finds and the user's membership there. A named prepared statement per kind,
   * `auth_locate_<kind>`; it saves every guarded request one round trip (docs/benchmarks.md).
   */
  async findLiveWithUserLocating(sessionId: string, userId: string, kind: string, kindSql: string, id: string): Promise<LiveSessionLocatingRow | undefined> {
    const rows = await preparedRows<LiveSessionLocatingRow>(
      this.ds,
      `auth_locate_${kind}`,
      `SELECT su.active_organization_id, su.name, su.email, su.is_instance_admin, l.workspace_id, m.id AS member_id, m.role
         FROM (SELECT s.active_organization_id, u.name, u.email, u.is_instance_admin
                 FROM session s JOIN "user" u ON u.id = s.user_id
                WHERE s.id = $3 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()) su
         LEFT JOIN LATERAL (SELECT k.workspace_id FROM (${kindSql}) k LIMIT 1) l ON true
         LEFT JOIN member m ON m.organization_id = l.workspace_id AND m.user_id = $2`,
      [id, userId, sessionId],
    );
    return rows[0];
  }

  async revoke(sessionId: string, m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(`UPDATE session SET revoked_at = now(), updated_at = now() WHERE id = $1 AND revoked_at IS NULL`, [sessionId]);
  }

  async revokeAllOfUser(userId: string, m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(`UPDATE session SET revoked_at = now(), updated_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [userId]);
  }

  /** The user's sessions that are neither revoked nor expired, newest first. */
  listLiveOfUser(userId: string, m: EntityManager = this.ds.manager): Promise<Session[]> {
    return m
      .getRepository(Session)
      .createQueryBuilder('s')
      .where('s.user_id = :userId AND s.revoked_at IS NULL AND s.expires_at > now()', { userId })
      .orderBy('s.created_at', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .getMany();
  }

  /** Revokes one live session of the user; false when the user has no such live session. */
  async revokeOfUser(userId: string, sessionId: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    const revoked = await firstRow(
      m,
      `UPDATE session SET revoked_at = now(), updated_at = now()
        WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now() RETURNING id`,
      [sessionId, userId],
    );
    return revoked !== undefined;
  }

  /** Revokes every session of the user but `keepSessionId` (all of them when it is null). */
  async revokeAllOfUserExcept(userId: string, keepSessionId: string | null, m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(
      `UPDATE session SET revoked_at = now(), updated_at = now()
        WHERE user_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid)`,
      [userId, keepSessionId],
    );
  }

  async setActiveOrganization(sessionId: string, organizationId: string | null, m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(`UPDATE session SET active_organization_id = $2, updated_at = now() WHERE id = $1`, [sessionId, organizationId]);
  }
}
