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
