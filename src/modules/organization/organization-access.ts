import { ForbiddenException, NotFoundException } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ResolvedScope } from '../../common/decorators/require-permission.decorator';
import { INSUFFICIENT_PERMISSIONS, splitRoles } from '../../common/permissions/permissions';
import { WorkspaceRepository } from './workspace.repository';

export type PermissionSets = Map<string, Set<string>>;

/**
 * Serialises the changes of one workspace that check a count or an invariant before writing
 * (team and role limits, "at least one owner"), until `m`'s transaction ends.
 */
export async function lockWorkspace(workspaces: WorkspaceRepository, workspaceId: string, m: EntityManager): Promise<void> {
  if (!(await workspaces.lockForChange(workspaceId, m))) throw new NotFoundException('Workspace not found');
}

/** The permissions a caller can pass on: its roles' permissions, narrowed by its API key's scopes. */
export function grantablePermissions(scope: ResolvedScope, user: AuthUser): PermissionSets {
  const keyScopes = user.apiKey?.permissions;
  if (!keyScopes) return scope.permissions;
  const out: PermissionSets = new Map();
  for (const [res, actions] of scope.permissions) {
    const allowed = new Set(keyScopes[res] ?? []);
    out.set(res, new Set([...actions].filter((a) => allowed.has(a))));
  }
  return out;
}

/**
 * Pending invitations carry the id that lets their addressee join, so only members who manage
 * invitations see them (invitation:create or invitation:cancel, narrowed by an API key's scopes).
 */
export function assertCanSeeInvitations(scope: ResolvedScope, user: AuthUser): void {
  if (!managesInvitations(scope.permissions)) throw new ForbiddenException(`${INSUFFICIENT_PERMISSIONS}: invitation:create or invitation:cancel is needed`);
  if (!managesInvitations(grantablePermissions(scope, user))) throw new ForbiddenException('Insufficient API key scope');
}

export function canSeeInvitations(scope: ResolvedScope, user: AuthUser): boolean {
  return managesInvitations(grantablePermissions(scope, user));
}

function managesInvitations(perms: PermissionSets): boolean {
  const held = perms.get('invitation');
  return !!held && (held.has('create') || held.has('cancel'));
}

/**
 * No privilege escalation: a caller may grant (in a role, an invitation or a role change) only
 * actions it holds itself. Reads are not counted: every member reads.
 */
export function assertCanGrant(holder: PermissionSets, wanted: PermissionSets | Record<string, readonly string[]>, message: string): void {
  const entries: [string, Iterable<string>][] = wanted instanceof Map ? [...wanted] : Object.entries(wanted);
  for (const [res, actions] of entries) {
    for (const a of actions) {
      if (a !== 'read' && !holder.get(res)?.has(a)) throw new ForbiddenException(message);
    }
  }
}

/** Role input (a name, a comma list or an array) as a clean list of names. */
export function roleList(input: string | string[]): string[] {
  return splitRoles((Array.isArray(input) ? input : [input]).flatMap((r) => r.split(',')));
}

export const isOwner = (roles: string | string[]) => splitRoles(roles).includes('owner');
