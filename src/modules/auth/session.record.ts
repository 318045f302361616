import { Session } from './session.entity';

/** A session as get-session answers it. */
export const toSessionRecord = (s: Session) => ({
  id: s.id,
  userId: s.userId,
  expiresAt: s.expiresAt.toISOString(),
  activeOrganizationId: s.activeOrganizationId,
});

/** A session as list-sessions answers it; `current` marks the one the request came with. */
export const toSessionListItem = (s: Session, currentSessionId: string | undefined) => ({
  id: s.id,
  createdAt: s.createdAt.toISOString(),
  expiresAt: s.expiresAt.toISOString(),
  ipAddress: s.ipAddress,
  userAgent: s.userAgent,
  current: s.id === currentSessionId,
});
