import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUuid } from '../../common/pipes/id.pipe';
import { TeamDataDto } from './dto/team.dto';
import { lockWorkspace } from './organization-access';
import { TeamMember } from './team-member.entity';
import { Team } from './team.entity';
import { toTeamMemberRecord, toTeamRecord } from './team.record';

export const MAX_TEAMS_PER_WORKSPACE = 10;
const NOT_A_MEMBER = 'User is not a member of this organization';

/** Teams of one workspace. Every method takes the workspace first (the guard resolved it). */
@Injectable()
export class TeamService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async findInWorkspace(workspaceId: string, teamId: string): Promise<Team> {
    const team = isUuid(teamId) ? await this.ds.getRepository(Team).findOneBy({ id: teamId.toLowerCase(), organizationId: workspaceId }) : null;
    if (!team) throw new NotFoundException('Team not found');
    return team;
  }

  async create(workspaceId: string, name: string) {
    const team = await this.ds.transaction(async (m) => {
      await lockWorkspace(m, workspaceId);
      const [{ count }] = await m.query(`SELECT count(*)::int AS count FROM team WHERE organization_id = $1`, [workspaceId]);
      if (count >= MAX_TEAMS_PER_WORKSPACE) throw new BadRequestException(`You have reached the maximum number of teams (${MAX_TEAMS_PER_WORKSPACE})`);
      return m.save(m.create(Team, { organizationId: workspaceId, name }));
    });
    return toTeamRecord(team);
  }

  /** Only the name is writable; the other fields a client sends back are ignored. */
  async update(workspaceId: string, teamId: string, data: TeamDataDto) {
    const team = await this.findInWorkspace(workspaceId, teamId);
    if (data.name !== undefined && data.name !== team.name) {
      team.name = data.name;
      await this.ds.getRepository(Team).save(team);
    }
    return toTeamRecord(team);
  }

  async remove(workspaceId: string, teamId: string) {
    const team = await this.findInWorkspace(workspaceId, teamId);
    await this.ds.getRepository(Team).delete({ id: team.id, organizationId: workspaceId });
    return { message: 'Team removed successfully.' };
  }

  /** Adds a member of the workspace to one of its teams. */
  async addMember(workspaceId: string, teamId: string, userId: string) {
    const team = await this.findInWorkspace(workspaceId, teamId);
    if (!isUuid(userId)) throw new BadRequestException(NOT_A_MEMBER);
    const uid = userId.toLowerCase();
    const member = await this.ds.query(`SELECT 1 FROM member WHERE organization_id = $1 AND user_id = $2`, [workspaceId, uid]);
    if (!member.length) throw new BadRequestException(NOT_A_MEMBER);
    const rows: TeamMember[] = await this.ds.query(
      `INSERT INTO team_member (team_id, user_id) VALUES ($1, $2)
       ON CONFLICT (team_id, user_id) DO NOTHING
       RETURNING id, team_id AS "teamId", user_id AS "userId", created_at AS "createdAt"`,
      [team.id, uid],
    );
    if (!rows.length) throw new BadRequestException('User is already a member of this team');
    return toTeamMemberRecord(rows[0]);
  }

  async removeMember(workspaceId: string, teamId: string, userId: string) {
    const team = await this.findInWorkspace(workspaceId, teamId);
    const res = isUuid(userId) ? await this.ds.getRepository(TeamMember).delete({ teamId: team.id, userId: userId.toLowerCase() }) : { affected: 0 };
    if (!res.affected) throw new NotFoundException('Team member not found');
    return { message: 'Team member removed successfully.' };
  }
}
