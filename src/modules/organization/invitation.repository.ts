import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUuid } from '../../common/pipes/id.pipe';
import { Invitation, InvitationStatus } from './invitation.entity';

/** Scope kind `invitation` of the permission guard: an invitation id to its workspace. */
export const INVITATION_SCOPE_SQL = 'SELECT organization_id AS workspace_id FROM invitation WHERE id = $1';

/** A pending invitation as its addressee sees it: which workspace, which role, from whom. */
export interface OpenInvitationRow {
  id: string;
  organizationId: string;
  organizationName: string;
  role: string;
  inviterId: string | null;
  expiresAt: Date;
}

export type NewInvitation = Pick<Invitation, 'email' | 'role' | 'inviterId' | 'teamId' | 'expiresAt' | 'sendCount'>;

/**
 * Invitations to workspaces. Ids come from requests: a malformed one matches nothing.
 * Emails are passed already normalised (normalizeEmail).
 */
@Injectable()
export class InvitationRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Until `m`'s transaction ends, no other invitation decision for this (workspace, email) runs. */
  async lockDecisionsFor(workspaceId: string, email: string, m: EntityManager): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`invitation:${workspaceId}:${email}`]);
  }

  /** The newest pending invitation of `email` to the workspace, locked until `m`'s transaction ends. */
  lockLatestPendingInWorkspace(workspaceId: string, email: string, m: EntityManager): Promise<Invitation | null> {
    return m
      .getRepository(Invitation)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.organization_id = :ws AND i.email = :email AND i.status = :pending', { ws: workspaceId, email, pending: 'pending' })
      .orderBy('i.created_at', 'DESC')
      .getOne();
  }

  insertPending(workspaceId: string, fields: NewInvitation, m: EntityManager = this.ds.manager): Promise<Invitation> {
    return m.save(m.create(Invitation, { ...fields, organizationId: workspaceId, status: 'pending' }));
  }

  /** Sets the status of an invitation read through this repository (and on the object). */
  async setStatus(workspaceId: string, invitation: Invitation, status: InvitationStatus, m: EntityManager = this.ds.manager): Promise<Invitation> {
    await m.update(Invitation, { id: invitation.id, organizationId: workspaceId }, { status });
    invitation.status = status;
    return invitation;
  }

  /** A resend: the pending invitation gets a new expiry and counts one more email. */
  async recordResend(workspaceId: string, invitation: Invitation, expiresAt: Date, m: EntityManager = this.ds.manager): Promise<Invitation> {
    const sendCount = invitation.sendCount + 1;
    await m.update(Invitation, { id: invitation.id, organizationId: workspaceId }, { expiresAt, sendCount });
    Object.assign(invitation, { expiresAt, sendCount });
    return invitation;
  }

  /** The invitation, locked until `m`'s transaction ends. */
  async lockInWorkspace(workspaceId: string, invitationId: string, m: EntityManager): Promise<Invitation | null> {
    if (!isUuid(invitationId)) return null;
    return m.findOne(Invitation, { where: { id: invitationId.toLowerCase(), organizationId: workspaceId }, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * The invitation whatever its workspace, locked until `m`'s transaction ends: its addressee is
   * not a member yet, so the caller must check that it is theirs.
   */
  async lockForAddressee(invitationId: string, m: EntityManager): Promise<Invitation | null> {
    if (!isUuid(invitationId)) return null;
    return m.findOne(Invitation, { where: { id: invitationId.toLowerCase() }, lock: { mode: 'pessimistic_write' } });
  }

  /** Read by the worker when it renders an invitation email. */
  async findById(invitationId: string, m: EntityManager = this.ds.manager): Promise<Invitation | null> {
    if (!isUuid(invitationId)) return null;
    return m.findOneBy(Invitation, { id: invitationId.toLowerCase() });
  }

  listInWorkspace(workspaceId: string, m: EntityManager = this.ds.manager): Promise<Invitation[]> {
    return m.find(Invitation, { where: { organizationId: workspaceId }, order: { createdAt: 'ASC' } });
  }

  /** The pending, unexpired invitations to `email` in every workspace, newest first, with the workspace's name. */
  async listOpenForEmail(email: string, m: EntityManager = this.ds.manager): Promise<OpenInvitationRow[]> {
    const rows: Array<{ id: string; organization_id: string; organization_name: string; role: string; inviter_id: string | null; expires_at: Date }> = await m.query(
      `SELECT i.id, i.organization_id, w.name AS organization_name, i.role, i.inviter_id, i.expires_at
         FROM invitation i JOIN workspace w ON w.id = i.organization_id
        WHERE i.email = $1 AND i.status = 'pending' AND i.expires_at > now()
        ORDER BY i.created_at DESC, i.id`,
      [email],
    );
    return rows.map((r) => ({
      id: r.id,
      organizationId: r.organization_id,
      organizationName: r.organization_name,
      role: r.role,
      inviterId: r.inviter_id,
      expiresAt: new Date(r.expires_at),
    }));
  }

  /** Whether any workspace waits for `email` (a pending invitation that has not expired). */
  async hasOpenInvitationFor(email: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    const rows = await m.query(`SELECT 1 FROM invitation WHERE email = $1 AND status = 'pending' AND expires_at > now() LIMIT 1`, [email]);
    return rows.length > 0;
  }
}
