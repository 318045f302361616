import { AccessRepository } from './access.repository';
import { AccessService } from './access.service';
import { PermissionMap } from './permissions';
import { ScopeRegistry } from './scope-registry';

const W1 = 'aaaaaaaa-0000-4000-8000-000000000001';
const W2 = 'aaaaaaaa-0000-4000-8000-000000000002';

function service(memberships: { organization_id: string; role: string }[], customRoles: Record<string, PermissionMap> = {}) {
  const asked: Array<[string, string[]]> = [];
  const repo = {
    membership: async (workspaceId: string, userId: string) => (workspaceId === W1 && userId === 'u' ? { id: 'm-1', role: 'admin, triager' } : undefined),
    membershipsOf: async () => memberships,
    customRolePermissions: async (workspaceId: string, roles: string[]) => {
      asked.push([workspaceId, roles]);
      return roles.filter((r) => customRoles[`${workspaceId} ${r}`]).map((r) => customRoles[`${workspaceId} ${r}`]);
    },
  };
  return { access: new AccessService(repo as unknown as AccessRepository, new ScopeRegistry()), asked };
}

describe('AccessService', () => {
  it('a membership with its roles split; none for a non-member', async () => {
    const { access } = service([]);
    expect(await access.membership(W1, 'u')).toEqual({ workspaceId: W1, memberId: 'm-1', roles: ['admin', 'triager'] });
    expect(await access.membership(W2, 'u')).toBeNull();
  });

  it('static roles cost no statement; custom roles are read for their workspace only', async () => {
    const { access, asked } = service([], { [`${W1} triager`]: { task: ['assign'] } });
    const staticOnly = await access.permissionsFor(W1, ['viewer']);
    expect([...staticOnly.get('task')!]).toEqual(['read']);
    expect(asked).toEqual([]);
    const mixed = await access.permissionsFor(W1, ['viewer', 'triager']);
    expect([...mixed.get('task')!]).toEqual(['read', 'assign']);
    expect(asked).toEqual([[W1, ['triager']]]);
    expect((await access.permissionsFor(W2, ['triager'])).get('task')).toBeUndefined();
  });

  it('holds a permission in any workspace when one membership grants it', async () => {
    const { access } = service(
      [
        { organization_id: W1, role: 'viewer' },
        { organization_id: W2, role: 'triager' },
      ],
      { [`${W2} triager`]: { task: ['assign'] } },
    );
    expect(await access.holdsInAnyWorkspace('u', 'task', 'assign')).toBe(true);
    expect(await access.holdsInAnyWorkspace('u', 'task', 'read')).toBe(true);
    expect(await access.holdsInAnyWorkspace('u', 'task', 'delete')).toBe(false);
    expect(await service([]).access.holdsInAnyWorkspace('u', 'task', 'read')).toBe(false);
  });
});
