import { BadRequestException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ResolvedScope } from '../../common/decorators/require-permission.decorator';
import { isUuid } from '../../common/pipes/id.pipe';
import { normalizeEmail } from '../../common/validation/email';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { EmailOutboxService } from '../mail/email-outbox.service';
import { EmailMessage } from '../mail/email.types';
import { AuthService } from '../auth/auth.service';
import { InviteMemberDto } from './dto/invitation.dto';
import { renderInvitationEmail } from './invitation-email';
import { Invitation } from './invitation.entity';
import { toInvitationRecord } from './invitation.record';
import { Member } from './member.entity';
import { toMemberRecord } from './member.record';
import { assertCanGrant, grantablePermissions, isOwner, lockWorkspace } from './organization-access';
import { RoleService } from './role.service';
import { TeamService } from './team.service';

export const INVITATION_TTL_MS = 48 * 3600 * 1000;
export const INVITATION_EMAIL_JOB = 'invitation';
const NOT_FOUND = 'Invitation not found';
const ALREADY_MEMBER = 'User is already a member of this organization';
const CANNOT_GRANT = 'You cannot invite with a role that has permissions you do not have';

export interface InvitationEmailJob {
  invitationId: string;
  send: number;
}

/** Invitations: created by members with invitation:create, answered by the invited user. */
@Injectable()
export class InvitationService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly roles: RoleService,
    private readonly teams: TeamService,
    private readonly outbox: EmailOutboxService,
    private readonly auth: AuthService,
  ) {}

  acceptUrl(invitationId: string): string {
    return `${this.config.clientUrl}/invitation/accept/${invitationId}`;
  }

  /**
   * Creates a pending invitation (or, with `resend`, extends the pending one) and requests its
   * email in the same transaction through the outbox: the email exists iff the invitation commits.
   */
  async invite(user: AuthUser, scope: ResolvedScope, dto: InviteMemberDto) {
    const workspaceId = scope.workspaceId;
    const email = dto.email;
    const grantable = grantablePermissions(scope, user);
    const callerIsOwner = isOwner(scope.roles);
    const { roles, permissions } = await this.roles.resolve(this.ds.manager, workspaceId, dto.role);
    if (roles.includes('owner') && !callerIsOwner) throw new ForbiddenException('Only an owner can invite an owner');
    assertCanGrant(grantable, permissions, CANNOT_GRANT);
    const teamId = dto.teamId !== undefined ? (await this.teams.findInWorkspace(workspaceId, dto.teamId)).id : null;

    const invitation = await this.ds.transaction(async (m) => {
      // One invitation decision at a time per (workspace, email): no duplicate pending rows.
      await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`invitation:${workspaceId}:${email}`]);
      const member = await m.query(
        `SELECT 1 FROM member m JOIN "user" u ON u.id = m.user_id WHERE m.organization_id = $1 AND u.email = $2`,
        [workspaceId, email],
      );
      if (member.length) throw new BadRequestException(ALREADY_MEMBER);
      const pending = await m
        .getRepository(Invitation)
        .createQueryBuilder('i')
        .setLock('pessimistic_write')
        .where('i.organization_id = :ws AND i.email = :email AND i.status = :pending', { ws: workspaceId, email, pending: 'pending' })
        .orderBy('i.created_at', 'DESC')
        .getOne();
      const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
      let inv: Invitation;
      if (pending && dto.resend === true) {
        // Resending revives the stored role, not the one in this request: it is granted again, so
        // it is checked like a new invitation's (owner rule, then no permission the caller lacks).
        if (isOwner(pending.role) && !callerIsOwner) throw new ForbiddenException('Only an owner can invite an owner');
        assertCanGrant(grantable, await this.roles.storedRolePermissions(m, workspaceId, pending.role), CANNOT_GRANT);
        pending.expiresAt = expiresAt;
        pending.sendCount += 1;
        inv = await m.save(pending);
      } else {
        if (pending && pending.expiresAt.getTime() > Date.now()) throw new BadRequestException('User is already invited to this organization');
        // An expired invitation stays pending until replaced: the new one supersedes it.
        if (pending) await m.update(Invitation, { id: pending.id }, { status: 'canceled' });
        inv = await m.save(
          m.create(Invitation, { organizationId: workspaceId, email, role: roles.join(','), status: 'pending', inviterId: user.id, teamId, expiresAt, sendCount: 1 }),
        );
      }
      await this.outbox.request(m, {
        name: INVITATION_EMAIL_JOB,
        jobId: `invitation-${inv.id}-${inv.sendCount}`,
        data: { invitationId: inv.id, send: inv.sendCount } satisfies InvitationEmailJob,
      });
      return inv;
    });
    return toInvitationRecord(invitation);
  }

  async cancel(workspaceId: string, invitationId: string) {
    const inv = await this.ds.transaction(async (m) => {
      const found = await this.lockInWorkspace(m, workspaceId, invitationId);
      if (found.status === 'canceled') return found;
      if (found.status !== 'pending') throw new BadRequestException('Invitation is no longer pending');
      found.status = 'canceled';
      return m.save(found);
    });
    return toInvitationRecord(inv);
  }

  /** The invited user joins the workspace with the invitation's role (and its team, if any). */
  async accept(user: AuthUser, invitationId: string) {
    const { invitation, member } = await this.ds.transaction(async (m) => {
      const inv = await this.lockForRecipient(m, user, invitationId);
      if (inv.expiresAt.getTime() <= Date.now()) throw new BadRequestException('Invitation has expired');
      await lockWorkspace(m, inv.organizationId);
      const existing = await m.getRepository(Member).findOneBy({ organizationId: inv.organizationId, userId: user.id });
      if (existing) throw new BadRequestException(ALREADY_MEMBER);
      const created = await m.save(m.create(Member, { organizationId: inv.organizationId, userId: user.id, role: inv.role }));
      if (inv.teamId) {
        await m.query(
          `INSERT INTO team_member (team_id, user_id) SELECT id, $2 FROM team WHERE id = $1 AND organization_id = $3 ON CONFLICT DO NOTHING`,
          [inv.teamId, user.id, inv.organizationId],
        );
      }
      inv.status = 'accepted';
      return { invitation: await m.save(inv), member: created };
    });
    // As clients of this API family expect: the joined workspace becomes the session's active one.
    await this.auth.setActiveOrganization(user.sessionId, invitation.organizationId);
    return { invitation: toInvitationRecord(invitation), member: toMemberRecord(member) };
  }

  async reject(user: AuthUser, invitationId: string) {
    const inv = await this.ds.transaction(async (m) => {
      const found = await this.lockForRecipient(m, user, invitationId);
      found.status = 'rejected';
      return m.save(found);
    });
    return toInvitationRecord(inv);
  }

  /** Renders the invitation email from the current state; null when it should not be sent any more. */
  async composeEmail(job: InvitationEmailJob): Promise<EmailMessage | null> {
    if (!isUuid(job?.invitationId)) return null;
    const rows = await this.ds.query(
      `SELECT i.email, i.role, i.status, i.expires_at, w.name AS workspace_name, u.name AS inviter_name, u.email AS inviter_email
         FROM invitation i
         JOIN workspace w ON w.id = i.organization_id
         LEFT JOIN "user" u ON u.id = i.inviter_id
        WHERE i.id = $1`,
      [job.invitationId],
    );
    const r = rows[0];
    if (!r || r.status !== 'pending' || new Date(r.expires_at).getTime() <= Date.now()) return null;
    return renderInvitationEmail({
      to: r.email,
      workspaceName: r.workspace_name,
      inviterName: r.inviter_name,
      inviterEmail: r.inviter_email,
      role: r.role,
      acceptUrl: this.acceptUrl(job.invitationId),
      expiresAt: new Date(r.expires_at),
    });
  }

  private async lockInWorkspace(m: EntityManager, workspaceId: string, invitationId: string): Promise<Invitation> {
    const inv = isUuid(invitationId)
      ? await m.getRepository(Invitation).findOne({ where: { id: invitationId.toLowerCase(), organizationId: workspaceId }, lock: { mode: 'pessimistic_write' } })
      : null;
    if (!inv) throw new NotFoundException(NOT_FOUND);
    return inv;
  }

  /** The pending invitation addressed to the caller's email. */
  private async lockForRecipient(m: EntityManager, user: AuthUser, invitationId: string): Promise<Invitation> {
    const inv = isUuid(invitationId)
      ? await m.getRepository(Invitation).findOne({ where: { id: invitationId.toLowerCase() }, lock: { mode: 'pessimistic_write' } })
      : null;
    if (!inv) throw new NotFoundException(NOT_FOUND);
    if (inv.email !== normalizeEmail(user.email)) throw new ForbiddenException('You are not the recipient of the invitation');
    if (inv.status !== 'pending') throw new BadRequestException('Invitation is no longer pending');
    return inv;
  }
}
