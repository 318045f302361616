import {
  hasPermission,
  insufficientPermissions,
  invalidPermission,
  isStaticRole,
  permissionTable,
  RESOURCE_ACTIONS,
  splitRoles,
  STATIC_ROLE_PERMISSIONS,
  STATIC_ROLES,
  unionPermissions,
} from './permissions';

describe('permissions', () => {
  const perms = (role: keyof typeof STATIC_ROLE_PERMISSIONS) => unionPermissions([STATIC_ROLE_PERMISSIONS[role]]);

  it('owner can do everything, admin all but deleting the organization/workspace', () => {
    expect(hasPermission(perms('owner'), 'organization', 'delete')).toBe(true);
    expect(hasPermission(perms('admin'), 'organization', 'delete')).toBe(false);
    expect(hasPermission(perms('admin'), 'workspace', 'delete')).toBe(false);
    expect(hasPermission(perms('admin'), 'workspace', 'manage_settings')).toBe(true);
    expect(hasPermission(perms('admin'), 'member', 'update')).toBe(true);
  });

  it('member has its documented set and nothing more', () => {
    const m = perms('member');
    expect(hasPermission(m, 'task', 'update')).toBe(true);
    expect(hasPermission(m, 'task', 'assign')).toBe(false);
    expect(hasPermission(m, 'task', 'delete')).toBe(false);
    expect(hasPermission(m, 'project', 'create')).toBe(true);
    expect(hasPermission(m, 'project', 'update')).toBe(false);
    expect(hasPermission(m, 'label', 'delete')).toBe(true);
    expect(hasPermission(m, 'workspace', 'manage_settings')).toBe(false);
  });

  it('viewer only reads', () => {
    const v = perms('viewer');
    expect(hasPermission(v, 'task', 'read')).toBe(true);
    expect(hasPermission(v, 'task', 'update')).toBe(false);
    expect(hasPermission(v, 'label', 'create')).toBe(false);
  });

  it('a multi-role member has the union', () => {
    const u = unionPermissions([STATIC_ROLE_PERMISSIONS.viewer, { task: ['assign'] }]);
    expect(hasPermission(u, 'task', 'assign')).toBe(true);
    expect(hasPermission(u, 'task', 'read')).toBe(true);
  });

  it('splits comma lists and arrays', () => {
    expect(splitRoles('admin, member,admin')).toEqual(['admin', 'member']);
    expect(splitRoles(['owner', ' x '])).toEqual(['owner', 'x']);
    expect(splitRoles(null)).toEqual([]);
  });

  it('permissionTable lists every resource, its actions in table order, [] where none', () => {
    const t = permissionTable(unionPermissions([{ task: ['assign', 'read'] }, { label: ['delete'] }]));
    expect(Object.keys(t)).toEqual(Object.keys(RESOURCE_ACTIONS));
    expect(t.task).toEqual(['read', 'assign']);
    expect(t.label).toEqual(['delete']);
    expect(t.organization).toEqual([]);
    expect(permissionTable(perms('owner'))).toEqual(Object.fromEntries(Object.entries(RESOURCE_ACTIONS).map(([r, a]) => [r, [...a]])));
  });

  it('validates permission objects against the table', () => {
    expect(invalidPermission({ task: ['update'] })).toBeNull();
    expect(invalidPermission({ task: ['fly'] })).toBe('The provided permission includes an invalid resource');
    expect(invalidPermission({ rocket: ['read'] })).toBe('The provided permission includes an invalid resource');
    expect(invalidPermission({ task: 'update' })).toBe('The provided permission includes an invalid resource');
    expect(invalidPermission(['task'])).toBe('permission must be an object');
  });
});

describe('the permission tables', () => {
  it('the resource/action table of docs/decisions-local.md, "Roles and permissions", in its order', () => {
    expect(RESOURCE_ACTIONS).toEqual({
      organization: ['update', 'delete'],
      member: ['create', 'update', 'delete'],
      invitation: ['create', 'cancel'],
      team: ['create', 'update', 'delete'],
      ac: ['create', 'read', 'update', 'delete'],
      project: ['create', 'read', 'update', 'delete'],
      task: ['create', 'read', 'update', 'delete', 'assign'],
      label: ['create', 'read', 'update', 'delete'],
      workspace: ['read', 'update', 'delete', 'manage_settings'],
    });
    expect(Object.keys(RESOURCE_ACTIONS)).toEqual(['organization', 'member', 'invitation', 'team', 'ac', 'project', 'task', 'label', 'workspace']);
  });

  it('owner: everything; admin: everything but deleting the organization or the workspace', () => {
    const all = Object.fromEntries(Object.entries(RESOURCE_ACTIONS).map(([r, a]) => [r, [...a]]));
    expect(permissionTable(unionPermissions([STATIC_ROLE_PERMISSIONS.owner]))).toEqual(all);
    expect(permissionTable(unionPermissions([STATIC_ROLE_PERMISSIONS.admin]))).toEqual({ ...all, organization: ['update'], workspace: ['read', 'update', 'manage_settings'] });
  });

  it('member and viewer, resource by resource', () => {
    const none = Object.fromEntries(Object.keys(RESOURCE_ACTIONS).map((r) => [r, []]));
    expect(permissionTable(unionPermissions([STATIC_ROLE_PERMISSIONS.member]))).toEqual({
      ...none,
      ac: ['read'],
      project: ['create', 'read'],
      task: ['create', 'read', 'update'],
      label: ['create', 'read', 'update', 'delete'],
      workspace: ['read'],
    });
    expect(permissionTable(unionPermissions([STATIC_ROLE_PERMISSIONS.viewer]))).toEqual({
      ...none,
      ac: ['read'],
      project: ['read'],
      task: ['read'],
      label: ['read'],
      workspace: ['read'],
    });
  });

  it('the static roles, and nothing else, are static', () => {
    expect(STATIC_ROLES.filter(isStaticRole)).toEqual(['owner', 'admin', 'member', 'viewer']);
    expect(['Owner', 'triager', '', 'constructor'].filter(isStaticRole)).toEqual([]);
  });

  it('the 403 message names what is missing after the prefix clients match on', () => {
    expect(insufficientPermissions('task', 'delete')).toBe('Insufficient permissions: task:delete is needed');
  });

  it('a resource or action no role holds is refused; unknown names find nothing, inherited names neither', () => {
    const owner = unionPermissions([STATIC_ROLE_PERMISSIONS.owner]);
    expect(hasPermission(owner, 'rocket', 'read')).toBe(false);
    expect(hasPermission(owner, 'constructor', 'read')).toBe(false);
    expect(hasPermission(unionPermissions([]), 'task', 'read')).toBe(false);
  });

  it('a union keeps every action of every map, a resource given twice included', () => {
    const u = unionPermissions([{ task: ['read'] }, { task: ['assign'], label: ['read'] }, { label: undefined }]);
    expect([...u.entries()].map(([r, a]) => [r, [...a]])).toEqual([
      ['task', ['read', 'assign']],
      ['label', ['read']],
    ]);
  });

  it('roles: blanks trimmed, empties and duplicates dropped, order kept', () => {
    expect(splitRoles(' viewer ,,owner, viewer,')).toEqual(['viewer', 'owner']);
    expect(splitRoles(undefined)).toEqual([]);
    expect(splitRoles('')).toEqual([]);
  });

  it('a permission object: own keys of the table only, arrays of its actions only', () => {
    expect(invalidPermission({})).toBeNull();
    expect(invalidPermission({ task: [] })).toBeNull();
    expect(invalidPermission({ task: ['read', 'assign'], workspace: ['manage_settings'] })).toBeNull();
    for (const bad of [{ constructor: ['read'] }, { toString: [] }, { task: ['read', 7] }, { task: ['read', 'fly'] }, { task: null }]) {
      expect([bad, invalidPermission(bad)]).toEqual([bad, 'The provided permission includes an invalid resource']);
    }
    expect(invalidPermission(JSON.parse('{"__proto__": ["read"]}'))).toBe('The provided permission includes an invalid resource');
    for (const bad of [null, undefined, 'task', 7, []]) expect([bad, invalidPermission(bad)]).toEqual([bad, 'permission must be an object']);
  });
});
