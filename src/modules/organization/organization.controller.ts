import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { ApiKeyScope } from '../../common/decorators/api-key-scope.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { CreateOrganizationDto, OptionalOrganizationIdQuery, OrganizationIdDto, SetActiveOrganizationDto, UpdateOrganizationDto } from './dto/organization.dto';
import { assertCanSeeInvitations, canSeeInvitations } from './organization-access';
import { MyPermissionsRecord } from './my-permissions.record';
import { OrganizationService } from './organization.service';
import { ORG_IN_BODY, ORG_IN_QUERY } from './organization.scopes';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { FullWorkspaceSchema, InvitationListedSchema, MemberWithUserSchema, RoleRecordSchema, TeamRecordSchema, WorkspaceRecordSchema } from '../organization/organization.schema';

@ApiTags('organization')
@ApiBearerAuth()
@Controller('auth/organization')
export class OrganizationController {
  constructor(private readonly orgs: OrganizationService) {}

  @Post('create')
  @ApiAnswer('Workspace', WorkspaceRecordSchema)
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a workspace; the caller becomes its owner' })
  create(@CurrentUser() user: AuthUser, @Body() dto: CreateOrganizationDto) {
    return this.orgs.create(user, dto);
  }

  @Get('list')
  @ApiAnswer("Workspace[] (the caller's)", [WorkspaceRecordSchema])
  @ApiKeyScope('workspace', 'read')
  list(@CurrentUser() user: AuthUser) {
    return this.orgs.list(user);
  }

  @Get('get-full-organization')
  @ApiAnswer('Full workspace', FullWorkspaceSchema)
  @RequirePermission('workspace', 'read', ORG_IN_QUERY)
  @ApiOperation({ summary: 'The workspace with its members, teams and (for members who manage invitations) its invitations' })
  getFull(@CurrentUser() user: AuthUser, @Scope() scope: ResolvedScope, @Query() _q: OptionalOrganizationIdQuery) {
    return this.orgs.getFull(scope.workspaceId, { withInvitations: canSeeInvitations(scope, user) });
  }

  @Post('update')
  @ApiAnswer('Workspace', WorkspaceRecordSchema)
  @HttpCode(200)
  @RequirePermission('organization', 'update', ORG_IN_BODY)
  update(@Scope() scope: ResolvedScope, @Body() dto: UpdateOrganizationDto) {
    return this.orgs.update(scope.workspaceId, dto.data);
  }

  @Post('delete')
  @ApiAnswer('Workspace (as it was)', WorkspaceRecordSchema)
  @HttpCode(200)
  @RequirePermission('organization', 'delete', { kind: 'workspace', from: 'body', key: 'organizationId' })
  delete(@Scope() scope: ResolvedScope, @Body() _dto: OrganizationIdDto) {
    return this.orgs.delete(scope.workspaceId);
  }

  @Post('set-active')
  @ApiAnswer('Workspace', WorkspaceRecordSchema)
  @HttpCode(200)
  @RequirePermission('workspace', 'read', { kind: 'workspace', from: 'body', key: 'organizationId' })
  setActive(@CurrentUser() user: AuthUser, @Scope() scope: ResolvedScope, @Body() _dto: SetActiveOrganizationDto) {
    return this.orgs.setActive(user, scope.workspaceId);
  }

  @Get('my-permissions')
  @ApiAnswer('My permissions', MyPermissionsRecord)
  @RequirePermission('workspace', 'read', ORG_IN_QUERY)
  @ApiOperation({
    summary:
      "The caller's roles in the workspace and the permissions they grant (the union of its static and custom roles; every resource, `[]` where none), so a client can hide what the caller may not do. For an API key limited by scopes, only what the key may do: the roles' permissions that are among its scopes",
  })
  @ApiErrors([400, 'No active organization'], [403, 'Insufficient API key scope'], [404, 'Workspace not found'])
  myPermissions(@CurrentUser() user: AuthUser, @Scope() scope: ResolvedScope, @Query() _q: OptionalOrganizationIdQuery): MyPermissionsRecord {
    return this.orgs.myPermissions(scope, user);
  }

  @Get('list-members')
  @ApiAnswer('Member[] (with user)', [MemberWithUserSchema])
  @RequirePermission('workspace', 'read', ORG_IN_QUERY)
  listMembers(@Scope() scope: ResolvedScope, @Query() _q: OptionalOrganizationIdQuery) {
    return this.orgs.listMembers(scope.workspaceId);
  }

  @Get('list-invitations')
  @ApiAnswer('Invitation[], each with its accept link', [InvitationListedSchema])
  @RequirePermission('workspace', 'read', ORG_IN_QUERY)
  @ApiOperation({ summary: "The workspace's invitations, each with its accept link; needs invitation:create or invitation:cancel" })
  @ApiErrors(
    [400, 'No active organization'],
    [403, 'Insufficient permissions: invitation:create or invitation:cancel is needed', 'Insufficient API key scope'],
    [404, 'Workspace not found'],
  )
  listInvitations(@CurrentUser() user: AuthUser, @Scope() scope: ResolvedScope, @Query() _q: OptionalOrganizationIdQuery) {
    assertCanSeeInvitations(scope, user);
    return this.orgs.listInvitationsWithLinks(scope.workspaceId);
  }

  @Get('list-teams')
  @ApiAnswer('Team[]', [TeamRecordSchema])
  @RequirePermission('workspace', 'read', ORG_IN_QUERY)
  listTeams(@Scope() scope: ResolvedScope, @Query() _q: OptionalOrganizationIdQuery) {
    return this.orgs.listTeams(scope.workspaceId);
  }

  @Get('list-roles')
  @ApiAnswer('Role[]', [RoleRecordSchema])
  @RequirePermission('ac', 'read', ORG_IN_QUERY)
  listRoles(@Scope() scope: ResolvedScope, @Query() _q: OptionalOrganizationIdQuery) {
    return this.orgs.listRoles(scope.workspaceId);
  }
}
