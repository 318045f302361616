import { BadRequestException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ResolvedScope } from '../../common/decorators/require-permission.decorator';
import { normalizeEmail } from '../../common/validation/email';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { EmailRequestService } from '../mail/email-request.service';
import { AuthService } from '../auth/auth.service';
import { UserRepository } from '../auth/user.repository';
import { InviteMemberDto } from './dto/invitation.dto';
import { INVITATION_EMAIL_JOB, invitationAcceptUrl, InvitationEmailJob } from './invitation-email.composer';
import { Invitation } from './invitation.entity';
import { toInvitationRecord, toUserInvitationRecord } from './invitation.record';
import { InvitationRepository } from './invitation.repository';
import { toMemberRecord } from './member.record';
import { MemberRepository } from './member.repository';
import { assertCanGrant, grantablePermissions, isOwner, lockWorkspace } from './organization-access';
import { RoleService } from './role.service';
import { TeamRepository } from './team.repository';
import { TeamService } from './team.service';
import { WorkspaceRepository } from './workspace.repository';

export const INVITATION_TTL_MS = 48 * 3600 * 1000;
const NOT_FOUND = 'Invitation not found';
const ALREADY_MEMBER = 'User is already a member of this organization';
const CANNOT_GRANT = 'You cannot invite with a role that has permissions you do not have';

/** Invitations: created by members with invitation:create, answered by the invited user. */
@Injectable()
export class InvitationService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly roles: RoleService,
    private readonly teamService: TeamService,
    private readonly emails: EmailRequestService,
    private readonly auth: AuthService,
    private readonly invitations: InvitationRepository,
    private readonly members: MemberRepository,
    private readonly teams: TeamRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly users: UserRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Creates a pending invitation (or, with `resend`, extends the pending one) and requests its
   * email in the same transaction (email_job row and outbox job): the email exists iff the invitation commits.
   * The answer says whether the email will go out (`emailSent`: only with an email server, SMTP_HOST;
   * without one the worker skips it) and carries the accept `link` the email would, to hand over otherwise.
   */
  async invite(user: AuthUser, scope: ResolvedScope, dto: InviteMemberDto) {
    const workspaceId = scope.workspaceId;
    const email = dto.email;
    const grantable = grantablePermissions(scope, user);
    const callerIsOwner = isOwner(scope.roles);
    const { roles, permissions } = await this.roles.resolve(workspaceId, dto.role);
    if (roles.includes('owner') && !callerIsOwner) throw new ForbiddenException('Only an owner can invite an owner');
    assertCanGrant(grantable, permissions, CANNOT_GRANT);
    const teamId = dto.teamId !== undefined ? (await this.teamService.findInWorkspace(workspaceId, dto.teamId)).id : null;

    const invitation = await this.ds.transaction(async (m) => {
      // One invitation decision at a time per (workspace, email): no duplicate pending rows.
      await this.invitations.lockDecisionsFor(workspaceId, email, m);
      if (await this.isMemberByEmail(workspaceId, email, m)) throw new BadRequestException(ALREADY_MEMBER);
      const pending = await this.invitations.lockLatestPendingInWorkspace(workspaceId, email, m);
      const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
      let inv: Invitation;
      if (pending && dto.resend === true) {
        // Resending revives the stored role, not the one in this request: it is granted again, so
        // it is checked like a new invitation's (owner rule, then no permission the caller lacks).
        if (isOwner(pending.role) && !callerIsOwner) throw new ForbiddenException('Only an owner can invite an owner');
        assertCanGrant(grantable, await this.roles.storedRolePermissions(workspaceId, pending.role, m), CANNOT_GRANT);
        inv = await this.invitations.recordResend(workspaceId, pending, expiresAt, m);
      } else {
        if (pending && pending.expiresAt.getTime() > Date.now()) throw new BadRequestException('User is already invited to this organization');
        // An expired invitation stays pending until replaced: the new one supersedes it.
        if (pending) await this.invitations.setStatus(workspaceId, pending, 'canceled', m);
        inv = await this.invitations.insertPending(workspaceId, { email, role: roles.join(','), inviterId: user.id, teamId, expiresAt, sendCount: 1 }, m);
      }
      // The job carries only the random id of the request (docs/decisions-local.md, "Queued emails").
      await this.emails.request(m, INVITATION_EMAIL_JOB, { invitationId: inv.id, send: inv.sendCount } satisfies InvitationEmailJob);
      return inv;
    });
    return { ...toInvitationRecord(invitation), emailSent: Boolean(this.config.smtp.host), link: invitationAcceptUrl(this.config.clientUrl, invitation.id) };
  }

  async cancel(workspaceId: string, invitationId: string) {
    const inv = await this.ds.transaction(async (m) => {
      const found = await this.invitations.lockInWorkspace(workspaceId, invitationId, m);
      if (!found) throw new NotFoundException(NOT_FOUND);
      if (found.status === 'canceled') return found;
      if (found.status !== 'pending') throw new BadRequestException('Invitation is no longer pending');
      return this.invitations.setStatus(workspaceId, found, 'canceled', m);
    });
    return toInvitationRecord(inv);
  }

  /** The invited user joins the workspace with the invitation's role (and its team, if any). */
  async accept(user: AuthUser, invitationId: string) {
    const { invitation, member } = await this.ds.transaction(async (m) => {
      const inv = await this.lockForRecipient(user, invitationId, m);
      const workspaceId = inv.organizationId;
      if (inv.expiresAt.getTime() <= Date.now()) throw new BadRequestException('Invitation has expired');
      await lockWorkspace(this.workspaces, workspaceId, m);
      if (await this.members.isMember(workspaceId, user.id, m)) throw new BadRequestException(ALREADY_MEMBER);
      const created = await this.members.insert(workspaceId, user.id, inv.role, m);
      // The team may have been deleted since the invitation was made: then the user joins no team.
      if (inv.teamId) await this.teams.addMember(workspaceId, inv.teamId, user.id, m);
      return { invitation: await this.invitations.setStatus(workspaceId, inv, 'accepted', m), member: created };
    });
    // As clients of this API family expect: the joined workspace becomes the session's active one.
    await this.auth.setActiveOrganization(user.sessionId, invitation.organizationId);
    return { invitation: toInvitationRecord(invitation), member: toMemberRecord(member) };
  }

  async reject(user: AuthUser, invitationId: string) {
    const inv = await this.ds.transaction(async (m) => {
      const found = await this.lockForRecipient(user, invitationId, m);
      return this.invitations.setStatus(found.organizationId, found, 'rejected', m);
    });
    return toInvitationRecord(inv);
  }

  /**
   * The pending, unexpired invitations addressed to the caller's email. Only to a verified
   * address: an invitation's id lets its addressee join, and anyone may register an address
   * without owning it (docs/accounts.md).
   */
  async listForUser(user: AuthUser) {
    const me = await this.users.getById(user.id);
    if (!me.emailVerified) throw new ForbiddenException('Email not verified');
    const open = await this.invitations.listOpenForEmail(normalizeEmail(me.email));
    const inviterIds = [...new Set(open.map((i) => i.inviterId).filter((id): id is string => id !== null))];
    const inviters = new Map((await this.users.findByIds(inviterIds)).map((u) => [u.id, u.name]));
    return open.map((i) => toUserInvitationRecord(i, i.inviterId ? (inviters.get(i.inviterId) ?? null) : null));
  }

  private async isMemberByEmail(workspaceId: string, email: string, m: EntityManager): Promise<boolean> {
    const invitee = await this.users.findByEmail(email, m);
    return invitee !== null && (await this.members.isMember(workspaceId, invitee.id, m));
  }

  /** The pending invitation addressed to the caller's email. */
  private async lockForRecipient(user: AuthUser, invitationId: string, m: EntityManager): Promise<Invitation> {
    const inv = await this.invitations.lockForAddressee(invitationId, m);
    if (!inv) throw new NotFoundException(NOT_FOUND);
    if (inv.email !== normalizeEmail(user.email)) throw new ForbiddenException('You are not the recipient of the invitation');
    if (inv.status !== 'pending') throw new BadRequestException('Invitation is no longer pending');
    return inv;
  }
}
