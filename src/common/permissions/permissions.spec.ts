import { hasPermission, invalidPermission, permissionTable, RESOURCE_ACTIONS, splitRoles, STATIC_ROLE_PERMISSIONS, unionPermissions } from './permissions';

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
