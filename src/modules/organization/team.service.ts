import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUuid } from '../../common/pipes/id.pipe';
import { TeamDataDto } from './dto/team.dto';
import { MemberRepository } from './member.repository';
import { lockWorkspace } from './organization-access';
import { Team } from './team.entity';
import { toTeamMemberRecord, toTeamRecord } from './team.record';
import { TeamRepository } from './team.repository';
import { WorkspaceRepository } from './workspace.repository';

export const MAX_TEAMS_PER_WORKSPACE = 10;
const NOT_A_MEMBER = 'User is not a member of this organization';

/** Teams of one workspace. Every method takes the workspace first (the guard resolved it). */
@Injectable()
export class TeamService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly teams: TeamRepository,
    private readonly members: MemberRepository,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  async findInWorkspace(workspaceId: string, teamId: string): Promise<Team> {
    const team = await this.teams.findInWorkspace(workspaceId, teamId);
    if (!team) throw new NotFoundException('Team not found');
    return team;
  }

  async create(workspaceId: string, name: string) {
    const team = await this.ds.transaction(async (m) => {
      await lockWorkspace(this.workspaces, workspaceId, m);
      if ((await this.teams.countInWorkspace(workspaceId, m)) >= MAX_TEAMS_PER_WORKSPACE) {
        throw new BadRequestException(`You have reached the maximum number of teams (${MAX_TEAMS_PER_WORKSPACE})`);
      }
      return this.teams.insert(workspaceId, name, m);
    });
    return toTeamRecord(team);
  }

  /** Only the name is writable; the other fields a client sends back are ignored. */
  async update(workspaceId: string, teamId: string, data: TeamDataDto) {
    const team = await this.findInWorkspace(workspaceId, teamId);
    if (data.name === undefined || data.name === team.name) return toTeamRecord(team);
    return toTeamRecord(await this.teams.rename(workspaceId, team.id, data.name));
  }

  async remove(workspaceId: string, teamId: string) {
    const team = await this.findInWorkspace(workspaceId, teamId);
    await this.teams.deleteInWorkspace(workspaceId, team.id);
    return { message: 'Team removed successfully.' };
  }

  /** Adds a member of the workspace to one of its teams. */
  async addMember(workspaceId: string, teamId: string, userId: string) {
    const team = await this.findInWorkspace(workspaceId, teamId);
    if (!isUuid(userId)) throw new BadRequestException(NOT_A_MEMBER);
    const uid = userId.toLowerCase();
    if (!(await this.members.isMember(workspaceId, uid))) throw new BadRequestException(NOT_A_MEMBER);
    const added = await this.teams.addMember(workspaceId, team.id, uid);
    if (!added) throw new BadRequestException('User is already a member of this team');
    return toTeamMemberRecord(added);
  }

  async listMembers(workspaceId: string, teamId: string) {
    return (await this.teams.listMembers(workspaceId, teamId)).map(toTeamMemberRecord);
  }

  async removeMember(workspaceId: string, teamId: string, userId: string) {
    const team = await this.findInWorkspace(workspaceId, teamId);
    if (!(await this.teams.removeMember(workspaceId, team.id, userId))) throw new NotFoundException('Team member not found');
    return { message: 'Team member removed successfully.' };
  }
}
