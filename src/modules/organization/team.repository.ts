import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUuid } from '../../common/pipes/id.pipe';
import { TeamMember } from './team-member.entity';
import { Team } from './team.entity';

/** Scope kind `team` of the permission guard: a team id to its workspace. */
export const TEAM_SCOPE_SQL = 'SELECT organization_id AS workspace_id FROM team WHERE id = $1';

/** Teams of a workspace and their members. Team ids come from requests: a malformed one matches nothing. */
@Injectable()
export class TeamRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async findInWorkspace(workspaceId: string, teamId: string, m: EntityManager = this.ds.manager): Promise<Team | null> {
    if (!isUuid(teamId)) return null;
    return m.findOneBy(Team, { id: teamId.toLowerCase(), organizationId: workspaceId });
  }

  /** The members of a team of the workspace, oldest first. */
  listMembers(workspaceId: string, teamId: string, m: EntityManager = this.ds.manager): Promise<TeamMember[]> {
    return m.query(
      `SELECT tm.id, tm.team_id AS "teamId", tm.user_id AS "userId", tm.created_at AS "createdAt"
         FROM team_member tm JOIN team t ON t.id = tm.team_id
        WHERE t.organization_id = $1 AND tm.team_id = $2
        ORDER BY tm.created_at, tm.id`,
      [workspaceId, teamId],
    );
  }

  listInWorkspace(workspaceId: string, m: EntityManager = this.ds.manager): Promise<Team[]> {
    return m.find(Team, { where: { organizationId: workspaceId }, order: { createdAt: 'ASC' } });
  }

  async countInWorkspace(workspaceId: string, m: EntityManager = this.ds.manager): Promise<number> {
    const [{ count }] = await m.query(`SELECT count(*)::int AS count FROM team WHERE organization_id = $1`, [workspaceId]);
    return count;
  }

  insert(workspaceId: string, name: string, m: EntityManager = this.ds.manager): Promise<Team> {
    return m.save(m.create(Team, { organizationId: workspaceId, name }));
  }

  async rename(workspaceId: string, teamId: string, name: string, m: EntityManager = this.ds.manager): Promise<Team> {
    await m.update(Team, { id: teamId, organizationId: workspaceId }, { name });
    return m.findOneByOrFail(Team, { id: teamId, organizationId: workspaceId });
  }

  async deleteInWorkspace(workspaceId: string, teamId: string, m: EntityManager = this.ds.manager): Promise<void> {
    await m.getRepository(Team).delete({ id: teamId, organizationId: workspaceId });
  }

  /**
   * Adds the user to the team if the team is in the workspace; answers the new membership, or
   * undefined when the user was in the team already (or the team is not in the workspace).
   */
  async addMember(workspaceId: string, teamId: string, userId: string, m: EntityManager = this.ds.manager): Promise<TeamMember | undefined> {
    const rows: TeamMember[] = await m.query(
      `INSERT INTO team_member (team_id, user_id)
       SELECT id, $3 FROM team WHERE id = $2 AND organization_id = $1
       ON CONFLICT (team_id, user_id) DO NOTHING
       RETURNING id, team_id AS "teamId", user_id AS "userId", created_at AS "createdAt"`,
      [workspaceId, teamId, userId],
    );
    return rows[0];
  }

  /** False when the user was not in the team. */
  async removeMember(workspaceId: string, teamId: string, userId: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    if (!isUuid(userId)) return false;
    const [, affected] = await m.query(`DELETE FROM team_member tm USING team t WHERE t.id = tm.team_id AND t.organization_id = $1 AND tm.team_id = $2 AND tm.user_id = $3`, [
      workspaceId,
      teamId,
      userId.toLowerCase(),
    ]);
    return affected > 0;
  }

  /** Takes the user out of every team of the workspace (they are leaving it). */
  async removeUserFromTeams(workspaceId: string, userId: string, m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(`DELETE FROM team_member tm USING team t WHERE t.id = tm.team_id AND t.organization_id = $1 AND tm.user_id = $2`, [workspaceId, userId]);
  }
}
