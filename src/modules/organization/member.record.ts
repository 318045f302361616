import { Member } from './member.entity';

export interface MemberRecord {
  id: string;
  userId: string;
  organizationId: string;
  role: string;
  createdAt: string;
}

export const toMemberRecord = (m: Member): MemberRecord => ({
  id: m.id,
  userId: m.userId,
  organizationId: m.organizationId,
  role: m.role,
  createdAt: m.createdAt.toISOString(),
});
