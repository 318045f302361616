import { Body, Controller, HttpCode, NotFoundException, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { CreateTeamDto, TeamIdDto, TeamMemberDto, UpdateTeamDto } from './dto/team.dto';
import { ORG_IN_BODY, TEAM_IN_BODY } from './organization.scopes';
import { TeamService } from './team.service';

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
  @HttpCode(200)
  @RequirePermission('team', 'create', ORG_IN_BODY)
  @ApiOperation({ summary: 'Create a team (at most 10 per workspace); needs team:create' })
  create(@Scope() scope: ResolvedScope, @Body() dto: CreateTeamDto) {
    return this.teams.create(scope.workspaceId, dto.name);
  }

  @Post('update-team')
  @HttpCode(200)
  @RequirePermission('team', 'update', TEAM_IN_BODY)
  @ApiOperation({ summary: "Rename a team (only data.name is written); needs team:update" })
  update(@Scope() scope: ResolvedScope, @Body() dto: UpdateTeamDto) {
    return this.teams.update(scope.workspaceId, scope.resourceId, dto.data);
  }

  @Post('remove-team')
  @HttpCode(200)
  @RequirePermission('team', 'delete', TEAM_IN_BODY)
  @ApiOperation({ summary: 'Delete a team; needs team:delete' })
  remove(@Scope() scope: ResolvedScope, @Body() dto: TeamIdDto) {
    sameWorkspace(scope, dto.organizationId);
    return this.teams.remove(scope.workspaceId, scope.resourceId);
  }

  @Post('add-team-member')
  @HttpCode(200)
  @RequirePermission('team', 'update', TEAM_IN_BODY)
  @ApiOperation({ summary: 'Add a workspace member to a team; needs team:update' })
  addMember(@Scope() scope: ResolvedScope, @Body() dto: TeamMemberDto) {
    sameWorkspace(scope, dto.organizationId);
    return this.teams.addMember(scope.workspaceId, scope.resourceId, dto.userId);
  }

  @Post('remove-team-member')
  @HttpCode(200)
  @RequirePermission('team', 'update', TEAM_IN_BODY)
  @ApiOperation({ summary: 'Remove a user from a team; needs team:update' })
  removeMember(@Scope() scope: ResolvedScope, @Body() dto: TeamMemberDto) {
    sameWorkspace(scope, dto.organizationId);
    return this.teams.removeMember(scope.workspaceId, scope.resourceId, dto.userId);
  }
}
