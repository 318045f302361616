import { EntityManager } from 'typeorm';
import { AccessRepository } from './access.repository';
import { AccessService } from './access.service';
import { PermissionMap } from './permissions';
import { ScopeRegistry } from './scope-registry';

const W1 = 'aaaaaaaa-0000-4000-8000-000000000001';
const W2 = 'aaaaaaaa-0000-4000-8000-000000000002';

const TASK = 'bbbbbbbb-0000-4000-8000-000000000001';

function service(memberships: { organization_id: string; role: string }[], customRoles: Record<string, PermissionMap> = {}) {
  const asked: Array<[string, string[]]> = [];
  /** The transaction each read was handed (none: the repository's own connection). */
  const managers: unknown[] = [];
  const located: unknown[][] = [];
  const repo = {
    locateWithMembership: async (kind: string, kindSql: string, id: string, userId: string) => {
      located.push([kind, kindSql, id, userId]);
      if (id !== TASK) return undefined;
      return userId === 'u' ? { workspace_id: W1, member_id: 'm-1', role: 'member,viewer' } : { workspace_id: W1, member_id: null, role: null };
    },
    membership: async (workspaceId: string, userId: string, manager?: unknown) => {
      managers.push(manager);
      return workspaceId === W1 && userId === 'u' ? { id: 'm-1', role: 'admin, triager' } : undefined;
    },
    membershipsOf: async () => memberships,
    customRolePermissions: async (workspaceId: string, roles: string[], manager?: unknown) => {
      asked.push([workspaceId, roles]);
      managers.push(manager);
      return roles.filter((r) => customRoles[`${workspaceId} ${r}`]).map((r) => customRoles[`${workspaceId} ${r}`]);
    },
  };
  const registry = new ScopeRegistry();
  registry.register('task', { notFound: 'Task not found', sql: 'SELECT workspace_id FROM task WHERE id = $1' });
  return { access: new AccessService(repo as unknown as AccessRepository, registry), asked, managers, located };
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

  it("locates a resource with the kind's statement: its workspace and the caller's membership and roles there", async () => {
    const { access, located } = service([]);
    expect(await access.locate('task', TASK, 'u')).toEqual({ workspaceId: W1, memberId: 'm-1', roles: ['member', 'viewer'] });
    expect(await access.locate('task', TASK, 'stranger')).toEqual({ workspaceId: W1, memberId: null, roles: [] });
    expect(await access.locate('task', 'bbbbbbbb-0000-4000-8000-000000000009', 'u')).toBeNull();
    expect(located[0]).toEqual(['task', 'SELECT workspace_id FROM task WHERE id = $1', TASK, 'u']);
    await expect(access.locate('comet', TASK, 'u')).rejects.toThrow('Unknown scope kind "comet"');
  });

  it("reads the membership and the custom roles in the caller's transaction when given one", async () => {
    const { access, managers } = service([], { [`${W1} triager`]: { task: ['assign'] } });
    const tx = { name: 'transaction' } as unknown as EntityManager;
    await access.membership(W1, 'u', tx);
    await access.permissionsFor(W1, ['triager'], tx);
    await access.membership(W1, 'u');
    expect(managers).toEqual([tx, tx, undefined]);
  });
});
