/** The resource → actions table (docs/decisions-local.md, "Roles and permissions"). */
export const RESOURCE_ACTIONS = {
  organization: ['update', 'delete'],
  member: ['create', 'update', 'delete'],
  invitation: ['create', 'cancel'],
  team: ['create', 'update', 'delete'],
  ac: ['create', 'read', 'update', 'delete'],
  project: ['create', 'read', 'update', 'delete'],
  task: ['create', 'read', 'update', 'delete', 'assign'],
  label: ['create', 'read', 'update', 'delete'],
  workspace: ['read', 'update', 'delete', 'manage_settings'],
} as const;

export type Resource = keyof typeof RESOURCE_ACTIONS;
export type Action<R extends Resource = Resource> = (typeof RESOURCE_ACTIONS)[R][number];
export type PermissionMap = Partial<Record<Resource, readonly string[]>>;

/**
 * The 403 message for a member whose roles lack a permission (docs/decisions-local.md, "Errors and
 * conventions"): clients match on the `Insufficient permissions` prefix; the rest names what is missing.
 */
export const INSUFFICIENT_PERMISSIONS = 'Insufficient permissions';
export const insufficientPermissions = (resource: string, action: string): string => `${INSUFFICIENT_PERMISSIONS}: ${resource}:${action} is needed`;

export const STATIC_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type StaticRole = (typeof STATIC_ROLES)[number];

const all = (): PermissionMap => Object.fromEntries(Object.entries(RESOURCE_ACTIONS).map(([r, a]) => [r, [...a]])) as PermissionMap;

const readOnly = (): PermissionMap =>
  Object.fromEntries(
    Object.entries(RESOURCE_ACTIONS)
      .filter(([, a]) => (a as readonly string[]).includes('read'))
      .map(([r]) => [r, ['read']]),
  ) as PermissionMap;

export const STATIC_ROLE_PERMISSIONS: Record<StaticRole, PermissionMap> = {
  owner: all(),
  admin: {
    ...all(),
    organization: ['update'],
    workspace: ['read', 'update', 'manage_settings'],
  },
  member: {
    ac: ['read'],
    project: ['create', 'read'],
    task: ['create', 'read', 'update'],
    label: ['create', 'read', 'update', 'delete'],
    workspace: ['read'],
  },
  viewer: readOnly(),
};

export const isStaticRole = (r: string): r is StaticRole => (STATIC_ROLES as readonly string[]).includes(r);

/** Roles are stored comma-joined. */
export function splitRoles(role: string | string[] | null | undefined): string[] {
  const list = Array.isArray(role) ? role : String(role ?? '').split(',');
  return [...new Set(list.map((r) => r.trim()).filter(Boolean))];
}

/** The union of several permission maps (a multi-role member has the union). */
export function unionPermissions(maps: PermissionMap[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const m of maps) {
    for (const [res, actions] of Object.entries(m)) {
      const set = out.get(res) ?? new Set<string>();
      for (const a of actions ?? []) set.add(a);
      out.set(res, set);
    }
  }
  return out;
}

/**
 * A permission map as a table over every resource of RESOURCE_ACTIONS (`[]` where none), each
 * resource's actions in RESOURCE_ACTIONS order, so the answer's shape does not depend on the roles.
 */
export function permissionTable(perms: Map<string, Set<string>>): Record<Resource, string[]> {
  return Object.fromEntries(
    Object.entries(RESOURCE_ACTIONS).map(([res, actions]) => [res, (actions as readonly string[]).filter((a) => perms.get(res)?.has(a) ?? false)]),
  ) as Record<Resource, string[]>;
}

export function hasPermission(perms: Map<string, Set<string>>, resource: string, action: string): boolean {
  return perms.get(resource)?.has(action) ?? false;
}

/** Validates a permission object; returns an error sentence or null. */
export function invalidPermission(permission: unknown): string | null {
  if (!permission || typeof permission !== 'object' || Array.isArray(permission)) return 'permission must be an object';
  for (const [res, actions] of Object.entries(permission as Record<string, unknown>)) {
    // Own keys only: `constructor` or `__proto__` must not find Object's members.
    const known = Object.hasOwn(RESOURCE_ACTIONS, res) ? (RESOURCE_ACTIONS as Record<string, readonly string[]>)[res] : undefined;
    if (!known || !Array.isArray(actions) || actions.some((a) => typeof a !== 'string' || !known.includes(a))) {
      return 'The provided permission includes an invalid resource';
    }
  }
  return null;
}
