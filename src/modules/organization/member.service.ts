import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ResolvedScope } from '../../common/decorators/require-permission.decorator';
import { isUuid } from '../../common/pipes/id.pipe';
import { normalizeEmail } from '../../common/validation/email';
import { UpdateMemberRoleDto } from './dto/member.dto';
import { Member } from './member.entity';
import { toMemberRecord } from './member.record';
import { assertCanGrant, grantablePermissions, isOwner, lockWorkspace, MEMBER_IS_OWNER_SQL } from './organization-access';
import { RoleService } from './role.service';

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
  ) {}

  async updateRole(user: AuthUser, scope: ResolvedScope, dto: UpdateMemberRoleDto) {
    const workspaceId = scope.workspaceId;
    const callerIsOwner = isOwner(scope.roles);
    const grantable = grantablePermissions(scope, user);
    const member = await this.ds.transaction(async (m) => {
      await lockWorkspace(m, workspaceId);
      const target = await this.lockMember(m, workspaceId, dto.memberId);
      const { roles, permissions } = await this.roles.resolve(m, workspaceId, dto.role);
      const wasOwner = isOwner(target.role);
      if (roles.includes('owner') && !callerIsOwner) throw new ForbiddenException('Only an owner can grant the owner role');
      if (wasOwner && !callerIsOwner) throw new ForbiddenException('Only an owner can change the role of an owner');
      assertCanGrant(grantable, await this.roles.storedRolePermissions(m, workspaceId, target.role), CANNOT_CHANGE);
      assertCanGrant(grantable, permissions, 'You cannot grant a role with permissions you do not have');
      if (wasOwner && !roles.includes('owner') && !(await this.hasOtherOwner(m, workspaceId, target.id))) {
        throw new BadRequestException(LAST_OWNER);
      }
      target.role = roles.join(',');
      return m.save(target);
    });
    return { member: toMemberRecord(member) };
  }

  /** Removes a member (by member id or email) and its team memberships in the workspace. */
  async remove(user: AuthUser, scope: ResolvedScope, memberIdOrEmail: string) {
    const workspaceId = scope.workspaceId;
    const grantable = grantablePermissions(scope, user);
    const member = await this.ds.transaction(async (m) => {
      await lockWorkspace(m, workspaceId);
      const target = await this.lockMember(m, workspaceId, memberIdOrEmail);
      if (isOwner(target.role)) {
        if (!isOwner(scope.roles)) throw new ForbiddenException('Only an owner can remove an owner');
        if (!(await this.hasOtherOwner(m, workspaceId, target.id))) throw new BadRequestException(LAST_OWNER);
      }
      assertCanGrant(grantable, await this.roles.storedRolePermissions(m, workspaceId, target.role), CANNOT_REMOVE);
      await m.query(`DELETE FROM team_member tm USING team t WHERE t.id = tm.team_id AND t.organization_id = $1 AND tm.user_id = $2`, [workspaceId, target.userId]);
      await m.delete(Member, { id: target.id });
      return target;
    });
    return { member: toMemberRecord(member) };
  }

  private async lockMember(m: EntityManager, workspaceId: string, idOrEmail: string): Promise<Member> {
    const qb = m.getRepository(Member).createQueryBuilder('m').setLock('pessimistic_write').where('m.organization_id = :ws', { ws: workspaceId });
    const byId: boolean = isUuid(idOrEmail);
    if (byId) qb.andWhere('m.id = :id', { id: idOrEmail.toLowerCase() });
    else if (normalizeEmail(idOrEmail).includes('@')) qb.andWhere(`m.user_id = (SELECT id FROM "user" WHERE email = :email)`, { email: normalizeEmail(idOrEmail) });
    else throw new NotFoundException(NOT_FOUND);
    const found = await qb.getOne();
    if (!found) throw new NotFoundException(NOT_FOUND);
    return found;
  }

  private async hasOtherOwner(m: EntityManager, workspaceId: string, exceptMemberId: string): Promise<boolean> {
    const rows = await m.query(`SELECT 1 FROM member m WHERE m.organization_id = $1 AND m.id <> $2 AND ${MEMBER_IS_OWNER_SQL} LIMIT 1`, [workspaceId, exceptMemberId]);
    return rows.length > 0;
  }
}
