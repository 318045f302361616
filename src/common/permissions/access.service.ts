import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { preparedRows } from '../../database/sql';
import { isStaticRole, PermissionMap, splitRoles, STATIC_ROLE_PERMISSIONS, unionPermissions } from './permissions';
import { ScopeRegistry } from './scope-registry';

export interface Membership {
  workspaceId: string;
  memberId: string;
  roles: string[];
}

/** Membership and permission lookups shared by the guard and by services. */
@Injectable()
export class AccessService {
  constructor(
    private readonly ds: DataSource,
    private readonly registry: ScopeRegistry,
  ) {}

  /**
   * One statement: the resource's workspace plus the caller's membership in it.
   * Returns null when the resource does not exist; memberId null when the caller is not a member.
   */
  async locate(kind: string, id: string, userId: string): Promise<{ workspaceId: string; memberId: string | null; roles: string[] } | null> {
    const def = this.registry.get(kind);
    const rows = await preparedRows(
      this.ds,
      `locate_${kind}`,
      `SELECT s.workspace_id, m.id AS member_id, m.role
         FROM (${def.sql}) s
         LEFT JOIN member m ON m.organization_id = s.workspace_id AND m.user_id = $2
        LIMIT 1`,
      [id, userId],
    );
    if (!rows.length) return null;
    return { workspaceId: rows[0].workspace_id, memberId: rows[0].member_id, roles: splitRoles(rows[0].role) };
  }

  async membership(workspaceId: string, userId: string, manager: EntityManager = this.ds.manager): Promise<Membership | null> {
    const rows = await manager.query(`SELECT id, role FROM member WHERE organization_id = $1 AND user_id = $2`, [workspaceId, userId]);
    if (!rows.length) return null;
    return { workspaceId, memberId: rows[0].id, roles: splitRoles(rows[0].role) };
  }

  /** Static roles cost nothing; custom roles are read from the workspace's role table. */
  async permissionsFor(workspaceId: string, roles: string[], manager: EntityManager = this.ds.manager): Promise<Map<string, Set<string>>> {
    const maps: PermissionMap[] = [];
    const custom: string[] = [];
    for (const r of roles) {
      if (isStaticRole(r)) maps.push(STATIC_ROLE_PERMISSIONS[r]);
      else custom.push(r);
    }
    if (custom.length) {
      const rows = await manager.query(
        `SELECT permission FROM organization_role WHERE organization_id = $1 AND role = ANY($2::text[])`,
        [workspaceId, custom],
      );
      for (const row of rows) maps.push(row.permission as PermissionMap);
    }
    return unionPermissions(maps);
  }
}
