import type { OpenInvitationRow } from './invitation.repository';
import { Invitation } from './invitation.entity';

export const toInvitationRecord = (i: Invitation) => ({
  id: i.id,
  email: i.email,
  role: i.role,
  organizationId: i.organizationId,
  inviterId: i.inviterId,
  teamId: i.teamId,
  status: i.status,
  expiresAt: i.expiresAt.toISOString(),
  createdAt: i.createdAt.toISOString(),
});

/** An invitation as its addressee lists it (list-user-invitations). */
export const toUserInvitationRecord = (i: OpenInvitationRow, inviterName: string | null) => ({
  id: i.id,
  organizationId: i.organizationId,
  organizationName: i.organizationName,
  role: i.role,
  inviterName,
  expiresAt: i.expiresAt.toISOString(),
});
