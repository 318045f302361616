import { Session } from './session.entity';

/** A session as get-session answers it. */
export const toSessionRecord = (s: Session) => ({
  id: s.id,
  userId: s.userId,
  expiresAt: s.expiresAt.toISOString(),
  activeOrganizationId: s.activeOrganizationId,
});
