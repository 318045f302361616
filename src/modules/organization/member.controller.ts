import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { CreateRoleDto } from './dto/role.dto';
import { RemoveMemberDto, UpdateMemberRoleDto } from './dto/member.dto';
import { MemberService } from './member.service';
import { ORG_IN_BODY } from './organization.scopes';
import { RoleService } from './role.service';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { CreateRoleAnswerSchema, MemberAnswerSchema } from '../organization/organization.schema';

@ApiTags('organization')
@ApiBearerAuth()
@Controller('auth/organization')
export class MemberController {
  constructor(
    private readonly members: MemberService,
    private readonly roles: RoleService,
  ) {}

  @Post('update-member-role')
  @ApiAnswer('{member: Member}', MemberAnswerSchema)
  @HttpCode(200)
  @RequirePermission('member', 'update', ORG_IN_BODY)
  @ApiOperation({ summary: "Set a member's roles (static or custom); needs member:update and every permission the member holds; only an owner grants or changes owner" })
  @ApiErrors(
    [400, 'role is required', 'Unknown role: …', 'You cannot leave the organization without an owner', 'No active organization'],
    [
      403,
      'Insufficient permissions',
      'Insufficient API key scope',
      'Only an owner can grant the owner role',
      'Only an owner can change the role of an owner',
      'You cannot change the role of a member with permissions you do not have',
    ],
    [404, 'Member not found', 'Workspace not found'],
  )
  updateRole(@CurrentUser() user: AuthUser, @Scope() scope: ResolvedScope, @Body() dto: UpdateMemberRoleDto) {
    return this.members.updateRole(user, scope, dto);
  }

  @Post('remove-member')
  @ApiAnswer('{member: Member}', MemberAnswerSchema)
  @HttpCode(200)
  @RequirePermission('member', 'delete', ORG_IN_BODY)
  @ApiOperation({ summary: 'Remove a member by id or email; needs member:delete and every permission the member holds; the last owner stays' })
  @ApiErrors(
    [400, 'You cannot leave the organization without an owner', 'No active organization'],
    [403, 'Insufficient permissions', 'Insufficient API key scope', 'Only an owner can remove an owner', 'You cannot remove a member with permissions you do not have'],
    [404, 'Member not found', 'Workspace not found'],
  )
  remove(@CurrentUser() user: AuthUser, @Scope() scope: ResolvedScope, @Body() dto: RemoveMemberDto) {
    return this.members.remove(user, scope, dto.memberIdOrEmail);
  }

  @Post('create-role')
  @ApiAnswer('{success, roleData, statements} (see Role)', CreateRoleAnswerSchema)
  @HttpCode(200)
  @RequirePermission('ac', 'create', ORG_IN_BODY)
  @ApiOperation({ summary: 'Create a custom role {resource: [actions]} (at most 25 per workspace); needs ac:create' })
  @ApiErrors(
    [
      400,
      'permission must be an object or a JSON string of one',
      'The provided permission includes an invalid resource',
      'That role name is already taken',
      'You have reached the maximum number of roles (25)',
      'No active organization',
    ],
    [403, 'Insufficient permissions', 'Insufficient API key scope', 'granting what the caller lacks'],
    [404, 'Workspace not found'],
  )
  createRole(@CurrentUser() user: AuthUser, @Scope() scope: ResolvedScope, @Body() dto: CreateRoleDto) {
    return this.roles.create(user, scope, dto);
  }
}
