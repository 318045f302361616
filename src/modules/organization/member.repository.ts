import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Member } from './member.entity';

/** SQL predicate on the member alias `m`: the comma-joined role holds `owner`. */
const MEMBER_IS_OWNER_SQL = `'owner' = ANY(string_to_array(replace(m.role, ' ', ''), ','))`;

/** Members of workspaces: one row per (workspace, user) with its comma-joined roles. */
@Injectable()
export class MemberRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async isMember(workspaceId: string, userId: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    return (await m.query(`SELECT 1 FROM member WHERE organization_id = $1 AND user_id = $2`, [workspaceId, userId])).length > 0;
  }

  /** Those of `userIds` who are members of the workspace (one statement). */
  async membersAmong(workspaceId: string, userIds: readonly string[], m: EntityManager = this.ds.manager): Promise<Set<string>> {
    if (!userIds.length) return new Set();
    const found: { user_id: string }[] = await m.query(`SELECT user_id::text FROM member WHERE organization_id = $1 AND user_id = ANY($2::uuid[])`, [workspaceId, userIds]);
    return new Set(found.map((r) => r.user_id));
  }

  insert(workspaceId: string, userId: string, role: string, m: EntityManager = this.ds.manager): Promise<Member> {
    return m.save(m.create(Member, { organizationId: workspaceId, userId, role }));
  }

  /** The workspace's members, oldest first. */
  listInWorkspace(workspaceId: string, m: EntityManager = this.ds.manager): Promise<Member[]> {
    return m.find(Member, { where: { organizationId: workspaceId }, order: { createdAt: 'ASC' } });
  }

  /** The member, locked until `m`'s transaction ends. */
  lockInWorkspace(workspaceId: string, memberId: string, m: EntityManager): Promise<Member | null> {
    return m.findOne(Member, { where: { organizationId: workspaceId, id: memberId }, lock: { mode: 'pessimistic_write' } });
  }

  /** The user's membership, locked until `m`'s transaction ends. */
  lockOfUserInWorkspace(workspaceId: string, userId: string, m: EntityManager): Promise<Member | null> {
    return m.findOne(Member, { where: { organizationId: workspaceId, userId }, lock: { mode: 'pessimistic_write' } });
  }

  /** The workspaces the user is a member of, in id order (the order to lock them in). */
  async workspaceIdsOfUser(userId: string, m: EntityManager = this.ds.manager): Promise<string[]> {
    const rows: { organization_id: string }[] = await m.query(`SELECT organization_id FROM member WHERE user_id = $1 ORDER BY organization_id`, [userId]);
    return rows.map((r) => r.organization_id);
  }

  /** How many members the workspace has, whether `userId` is one of them and an owner, and how many other owners it has. */
  async ownershipOf(
    workspaceId: string,
    userId: string,
    m: EntityManager = this.ds.manager,
  ): Promise<{ members: number; isMember: boolean; isOwner: boolean; otherOwners: number }> {
    const [row] = await m.query(
      `SELECT count(*)::int AS members,
              bool_or(m.user_id = $2) AS is_member,
              bool_or(m.user_id = $2 AND ${MEMBER_IS_OWNER_SQL}) AS is_owner,
              (count(*) FILTER (WHERE m.user_id <> $2 AND ${MEMBER_IS_OWNER_SQL}))::int AS other_owners
         FROM member m WHERE m.organization_id = $1`,
      [workspaceId, userId],
    );
    return { members: row.members, isMember: row.is_member === true, isOwner: row.is_owner === true, otherOwners: row.other_owners };
  }

  async hasOwnerOtherThan(workspaceId: string, memberId: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    const rows = await m.query(`SELECT 1 FROM member m WHERE m.organization_id = $1 AND m.id <> $2 AND ${MEMBER_IS_OWNER_SQL} LIMIT 1`, [workspaceId, memberId]);
    return rows.length > 0;
  }

  async setRole(workspaceId: string, member: Member, role: string, m: EntityManager = this.ds.manager): Promise<Member> {
    member.role = role;
    await m.update(Member, { id: member.id, organizationId: workspaceId }, { role });
    return member;
  }

  async deleteInWorkspace(workspaceId: string, memberId: string, m: EntityManager = this.ds.manager): Promise<void> {
    await m.delete(Member, { id: memberId, organizationId: workspaceId });
  }
}
