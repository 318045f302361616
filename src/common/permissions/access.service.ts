import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AccessRepository } from './access.repository';
import { Located } from './prefetched-membership';
import { hasPermission, isStaticRole, PermissionMap, splitRoles, STATIC_ROLE_PERMISSIONS, unionPermissions } from './permissions';
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
    private readonly access: AccessRepository,
    private readonly registry: ScopeRegistry,
  ) {}

  /**
   * One statement: the resource's workspace plus the caller's membership in it.
   * Returns null when the resource does not exist; memberId null when the caller is not a member.
   */
  async locate(kind: string, id: string, userId: string): Promise<Located | null> {
    const row = await this.access.locateWithMembership(kind, this.registry.get(kind).sql, id, userId);
    if (!row) return null;
    return { workspaceId: row.workspace_id, memberId: row.member_id, roles: splitRoles(row.role) };
  }

  async membership(workspaceId: string, userId: string, manager?: EntityManager): Promise<Membership | null> {
    const row = await this.access.membership(workspaceId, userId, manager);
    if (!row) return null;
    return { workspaceId, memberId: row.id, roles: splitRoles(row.role) };
  }

  /**
   * Whether the user holds resource:action in at least one workspace (for an action that belongs
   * to no one workspace, e.g. checking a git server's access before linking it to a project).
   */
  async holdsInAnyWorkspace(userId: string, resource: string, action: string): Promise<boolean> {
    return (await this.workspacesWhere(userId, resource, action)).length > 0;
  }

  /** The workspaces where the user holds resource:action (a list across workspaces: the caller's tasks). */
  async workspacesWhere(userId: string, resource: string, action: string): Promise<string[]> {
    const out: string[] = [];
    for (const m of await this.access.membershipsOf(userId)) {
      if (hasPermission(await this.permissionsFor(m.organization_id, splitRoles(m.role)), resource, action)) out.push(m.organization_id);
    }
    return out;
  }

  /** Static roles cost nothing; custom roles are read from the workspace's role table. */
  async permissionsFor(workspaceId: string, roles: string[], manager?: EntityManager): Promise<Map<string, Set<string>>> {
    const maps: PermissionMap[] = [];
    const custom: string[] = [];
    for (const r of roles) {
      if (isStaticRole(r)) maps.push(STATIC_ROLE_PERMISSIONS[r]);
      else custom.push(r);
    }
    if (custom.length) maps.push(...(await this.access.customRolePermissions(workspaceId, custom, manager)));
    return unionPermissions(maps);
  }
}
