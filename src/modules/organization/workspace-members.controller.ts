import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { Id } from '../../common/pipes/id.pipe';
import { OrganizationService } from './organization.service';
import { MemberWithUserSchema } from '../organization/organization.schema';

/**
 * `GET /workspace/:workspaceId/members`, the original API's member list that the MCP servers call
 * (docs/compatibility.md, "Workspace members"): the answer of GET /auth/organization/list-members,
 * the workspace in the path.
 */
@ApiTags('organization')
@ApiBearerAuth()
@Controller('workspace')
export class WorkspaceMembersController {
  constructor(private readonly orgs: OrganizationService) {}

  @Get(':workspaceId/members')
  @ApiAnswer('Member[] (with user)', [MemberWithUserSchema])
  @RequirePermission('workspace', 'read', { kind: 'workspace', from: 'params', key: 'workspaceId' })
  @ApiOperation({ summary: "The workspace's members, oldest first, each with its user (as GET /auth/organization/list-members)" })
  @ApiErrors([404, 'Workspace not found'])
  listMembers(@Scope() scope: ResolvedScope, @Param('workspaceId', Id('Workspace')) _workspaceId: string) {
    return this.orgs.listMembers(scope.workspaceId);
  }
}
