import { Body, Controller, Get, HttpCode, NotFoundException, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { CreateTeamDto, TeamIdDto, TeamMemberDto, TeamMembersQuery, UpdateTeamDto } from './dto/team.dto';
import { ORG_IN_BODY, TEAM_IN_BODY, TEAM_IN_QUERY } from './organization.scopes';
import { TeamService } from './team.service';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { MessageAnswer } from '../../common/http/answers.schema';
import { TeamMemberRecordSchema, TeamRecordSchema } from '../organization/organization.schema';

/** A team's `organizationId`, when a client sends it, must be the team's workspace. */
function sameWorkspace(scope: ResolvedScope, organizationId?: string | null): void {
  if (organizationId != null && organizationId.toLowerCase() !== scope.workspaceId) throw new NotFoundException('Team not found');
}

@ApiTags('organization')
@ApiBearerAuth()
@Controller('auth/organization')
export class TeamController {
  constructor(private readonly teams: TeamService) {}

  @Post('create-team')
  @ApiAnswer('Team', TeamRecordSchema)
  @HttpCode(200)
  @RequirePermission('team', 'create', ORG_IN_BODY)
  @ApiOperation({ summary: 'Create a team (at most 10 per workspace); needs team:create' })
  @ApiErrors(
    [400, 'name must be …', 'You have reached the maximum number of teams (10)', 'No active organization'],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Workspace not found'],
  )
  create(@Scope() scope: ResolvedScope, @Body() dto: CreateTeamDto) {
    return this.teams.create(scope.workspaceId, dto.name);
  }

  @Post('update-team')
  @ApiAnswer('Team', TeamRecordSchema)
  @HttpCode(200)
  @RequirePermission('team', 'update', TEAM_IN_BODY)
  @ApiOperation({ summary: 'Rename a team (only data.name is written); needs team:update' })
  @ApiErrors([400, 'teamId is required', 'data.name must be …'], [403, 'Insufficient permissions', 'Insufficient API key scope'], [404, 'Team not found'])
  update(@Scope() scope: ResolvedScope, @Body() dto: UpdateTeamDto) {
    return this.teams.update(scope.workspaceId, scope.resourceId, dto.data);
  }

  @Post('remove-team')
  @ApiAnswer('{message: "Team removed successfully."}', MessageAnswer)
  @HttpCode(200)
  @RequirePermission('team', 'delete', TEAM_IN_BODY)
  @ApiOperation({ summary: 'Delete a team; needs team:delete' })
  @ApiErrors([400, 'teamId is required'], [403, 'Insufficient permissions', 'Insufficient API key scope'], [404, 'Team not found'])
  remove(@Scope() scope: ResolvedScope, @Body() dto: TeamIdDto) {
    sameWorkspace(scope, dto.organizationId);
    return this.teams.remove(scope.workspaceId, scope.resourceId);
  }

  @Get('list-team-members')
  @ApiAnswer('Team member[]', [TeamMemberRecordSchema])
  @RequirePermission('workspace', 'read', TEAM_IN_QUERY)
  @ApiOperation({ summary: "A team's members, oldest first; for any member of the team's workspace" })
  @ApiErrors([400, 'teamId is required'], [403, 'Insufficient API key scope'], [404, 'Team not found'])
  listMembers(@Scope() scope: ResolvedScope, @Query() q: TeamMembersQuery) {
    sameWorkspace(scope, q.organizationId);
    return this.teams.listMembers(scope.workspaceId, scope.resourceId);
  }

  @Post('add-team-member')
  @ApiAnswer('Team member', TeamMemberRecordSchema)
  @HttpCode(200)
  @RequirePermission('team', 'update', TEAM_IN_BODY)
  @ApiOperation({ summary: 'Add a workspace member to a team; needs team:update' })
  @ApiErrors(
    [400, 'User is not a member of this organization', 'User is already a member of this team'],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Team not found'],
  )
  addMember(@Scope() scope: ResolvedScope, @Body() dto: TeamMemberDto) {
    sameWorkspace(scope, dto.organizationId);
    return this.teams.addMember(scope.workspaceId, scope.resourceId, dto.userId);
  }

  @Post('remove-team-member')
  @ApiAnswer('{message: "Team member removed successfully."}', MessageAnswer)
  @HttpCode(200)
  @RequirePermission('team', 'update', TEAM_IN_BODY)
  @ApiOperation({ summary: 'Remove a user from a team; needs team:update' })
  @ApiErrors([400, 'teamId is required', 'userId must be …'], [403, 'Insufficient permissions', 'Insufficient API key scope'], [404, 'Team not found', 'Team member not found'])
  removeMember(@Scope() scope: ResolvedScope, @Body() dto: TeamMemberDto) {
    sameWorkspace(scope, dto.organizationId);
    return this.teams.removeMember(scope.workspaceId, scope.resourceId, dto.userId);
  }
}
