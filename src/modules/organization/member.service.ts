import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ResolvedScope } from '../../common/decorators/require-permission.decorator';
import { isUuid } from '../../common/pipes/id.pipe';
import { normalizeEmail } from '../../common/validation/email';
import { UserRepository } from '../auth/user.repository';
import { UpdateMemberRoleDto } from './dto/member.dto';
import { Member } from './member.entity';
import { toMemberRecord } from './member.record';
import { MemberRepository } from './member.repository';
import { assertCanGrant, grantablePermissions, isOwner, lockWorkspace } from './organization-access';
import { RoleService } from './role.service';
import { TeamRepository } from './team.repository';
import { WorkspaceRepository } from './workspace.repository';

const NOT_FOUND = 'Member not found';
const LAST_OWNER = 'You cannot leave the organization without an owner';
// A member may be demoted or removed only by someone who holds every permission it holds:
// a narrow custom role with member:update or member:delete cannot strip an admin.
const CANNOT_CHANGE = 'You cannot change the role of a member with permissions you do not have';
const CANNOT_REMOVE = 'You cannot remove a member with permissions you do not have';

/** Member roles and removal. Invariant: a workspace always keeps at least one owner. */
@Injectable()
export class MemberService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly roles: RoleService,
    private readonly members: MemberRepository,
    private readonly teams: TeamRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly users: UserRepository,
  ) {}

  async updateRole(user: AuthUser, scope: ResolvedScope, dto: UpdateMemberRoleDto) {
    const workspaceId = scope.workspaceId;
    const callerIsOwner = isOwner(scope.roles);
    const grantable = grantablePermissions(scope, user);
    const member = await this.ds.transaction(async (m) => {
      await lockWorkspace(this.workspaces, workspaceId, m);
      const target = await this.lockMember(workspaceId, dto.memberId, m);
      const { roles, permissions } = await this.roles.resolve(workspaceId, dto.role, m);
      const wasOwner = isOwner(target.role);
      if (roles.includes('owner') && !callerIsOwner) throw new ForbiddenException('Only an owner can grant the owner role');
      if (wasOwner && !callerIsOwner) throw new ForbiddenException('Only an owner can change the role of an owner');
      assertCanGrant(grantable, await this.roles.storedRolePermissions(workspaceId, target.role, m), CANNOT_CHANGE);
      assertCanGrant(grantable, permissions, 'You cannot grant a role with permissions you do not have');
      if (wasOwner && !roles.includes('owner') && !(await this.members.hasOwnerOtherThan(workspaceId, target.id, m))) {
        throw new BadRequestException(LAST_OWNER);
      }
      return this.members.setRole(workspaceId, target, roles.join(','), m);
    });
    return { member: toMemberRecord(member) };
  }

  /** Removes a member (by member id or email) and its team memberships in the workspace. */
  async remove(user: AuthUser, scope: ResolvedScope, memberIdOrEmail: string) {
    const workspaceId = scope.workspaceId;
    const grantable = grantablePermissions(scope, user);
    const member = await this.ds.transaction(async (m) => {
      await lockWorkspace(this.workspaces, workspaceId, m);
      const target = await this.lockMember(workspaceId, memberIdOrEmail, m);
      if (isOwner(target.role)) {
        if (!isOwner(scope.roles)) throw new ForbiddenException('Only an owner can remove an owner');
        if (!(await this.members.hasOwnerOtherThan(workspaceId, target.id, m))) throw new BadRequestException(LAST_OWNER);
      }
      assertCanGrant(grantable, await this.roles.storedRolePermissions(workspaceId, target.role, m), CANNOT_REMOVE);
      await this.teams.removeUserFromTeams(workspaceId, target.userId, m);
      await this.members.deleteInWorkspace(workspaceId, target.id, m);
      return target;
    });
    return { member: toMemberRecord(member) };
  }

  /** The member named by its id or by its user's email, locked; 404 when there is none. */
  private async lockMember(workspaceId: string, idOrEmail: string, m: EntityManager): Promise<Member> {
    let found: Member | null = null;
    if (isUuid(idOrEmail)) {
      found = await this.members.lockInWorkspace(workspaceId, idOrEmail.toLowerCase(), m);
    } else if (normalizeEmail(idOrEmail).includes('@')) {
      const owner = await this.users.findByEmail(normalizeEmail(idOrEmail), m);
      found = owner ? await this.members.lockOfUserInWorkspace(workspaceId, owner.id, m) : null;
    }
    if (!found) throw new NotFoundException(NOT_FOUND);
    return found;
  }
}
