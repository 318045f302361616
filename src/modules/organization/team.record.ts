import { TeamMember } from './team-member.entity';
import { Team } from './team.entity';

export const toTeamRecord = (t: Team) => ({
  id: t.id,
  name: t.name,
  organizationId: t.organizationId,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});

export const toTeamMemberRecord = (tm: TeamMember) => ({
  id: tm.id,
  teamId: tm.teamId,
  userId: tm.userId,
  createdAt: tm.createdAt.toISOString(),
});
