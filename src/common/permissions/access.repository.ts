import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { preparedRows } from '../../database/sql';
import { PermissionMap } from './permissions';

/** A resource's workspace with the caller's membership in it (member_id and role null for non-members). */
export interface LocatedRow {
  workspace_id: string;
  member_id: string | null;
  role: string | null;
}

/** The reads behind every permission check: memberships and custom roles. */
@Injectable()
export class AccessRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * One statement: the workspace that `kindSql` (a scope kind's SELECT, id as $1) finds for `id`,
   * joined with the membership of `userId` there. The permission guard runs it on every scoped
   * request, so it is a named prepared statement per kind, `locate_<kind>` (docs/benchmarks.md).
   */
  async locateWithMembership(kind: string, kindSql: string, id: string, userId: string): Promise<LocatedRow | undefined> {
    const rows = await preparedRows<LocatedRow>(
      this.ds,
      `locate_${kind}`,
      `SELECT s.workspace_id, m.id AS member_id, m.role
         FROM (${kindSql}) s
         LEFT JOIN member m ON m.organization_id = s.workspace_id AND m.user_id = $2
        LIMIT 1`,
      [id, userId],
    );
    return rows[0];
  }

  async membership(workspaceId: string, userId: string, m: EntityManager = this.ds.manager): Promise<{ id: string; role: string } | undefined> {
    const rows = await m.query(`SELECT id, role FROM member WHERE organization_id = $1 AND user_id = $2`, [workspaceId, userId]);
    return rows[0];
  }

  /** Every membership of the user: workspace and role. */
  async membershipsOf(userId: string): Promise<{ organization_id: string; role: string }[]> {
    return this.ds.manager.query(`SELECT organization_id, role FROM member WHERE user_id = $1`, [userId]);
  }

  /** The permission maps of those of `roles` that are custom roles of the workspace. */
  async customRolePermissions(workspaceId: string, roles: string[], m: EntityManager = this.ds.manager): Promise<PermissionMap[]> {
    const rows = await m.query(`SELECT permission FROM organization_role WHERE organization_id = $1 AND role = ANY($2::text[])`, [workspaceId, roles]);
    return rows.map((row: { permission: PermissionMap }) => row.permission);
  }
}
