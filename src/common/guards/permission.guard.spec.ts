import { BadRequestException, ExecutionContext, ForbiddenException, NotFoundException, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthUser } from '../decorators/current-user.decorator';
import { PERMISSION_METADATA, PermissionRequirement, ScopeLocator } from '../decorators/require-permission.decorator';
import { AccessRepository, LocatedRow } from '../permissions/access.repository';
import { AccessService } from '../permissions/access.service';
import { PrefetchedMembership } from '../permissions/prefetched-membership';
import { PermissionMap } from '../permissions/permissions';
import { ScopeRegistry } from '../permissions/scope-registry';
import { PermissionGuard } from './permission.guard';

/**
 * The permission guard with the real AccessService and ScopeRegistry over a made-up membership
 * table (no database): which answer (pass, 400, 403, 404) each request gets, and what it hands on.
 */

const WORKSPACE = 'aaaaaaaa-0000-4000-8000-000000000001';
const TASK = 'bbbbbbbb-0000-4000-8000-000000000002';
const OTHER_TASK = 'bbbbbbbb-0000-4000-8000-000000000003';
const MEMBER = 'cccccccc-0000-4000-8000-000000000004';
const USER = 'dddddddd-0000-4000-8000-000000000005';

class FakeAccessRepository {
  /** Resource id → its row for USER. */
  readonly rows = new Map<string, LocatedRow>();
  readonly customRoles = new Map<string, PermissionMap>();
  readonly located: Array<[string, string, string, string]> = [];

  async locateWithMembership(kind: string, kindSql: string, id: string, userId: string): Promise<LocatedRow | undefined> {
    this.located.push([kind, kindSql, id, userId]);
    return userId === USER ? this.rows.get(id) : undefined;
  }

  async membership(): Promise<undefined> {
    return undefined;
  }

  async membershipsOf(): Promise<[]> {
    return [];
  }

  async customRolePermissions(workspaceId: string, roles: string[]): Promise<PermissionMap[]> {
    return workspaceId === WORKSPACE ? roles.flatMap((r) => (this.customRoles.has(r) ? [this.customRoles.get(r)!] : [])) : [];
  }
}

const user = (over: Partial<AuthUser> = {}): AuthUser => ({ id: USER, name: 'Ada', email: 'ada@example.test', isInstanceAdmin: false, ...over });

function setUp() {
  const repo = new FakeAccessRepository();
  const registry = new ScopeRegistry();
  registry.register('task', { notFound: 'Task not found', sql: 'SELECT task sql' });
  registry.register('workspace', { notFound: 'Workspace not found', sql: 'SELECT workspace sql' });
  const guard = new PermissionGuard(new Reflector(), new AccessService(repo as unknown as AccessRepository, registry), registry);

  /** Runs the guard for a route that declares `need` (none: undefined), on `req`. */
  const run = (need: PermissionRequirement | undefined, req: Record<string, unknown>, type = 'http') => {
    const handler = () => undefined;
    class Controller {}
    if (need) SetMetadata(PERMISSION_METADATA, need)(handler);
    const ctx = {
      getType: () => type,
      getHandler: () => handler,
      getClass: () => Controller,
      switchToHttp: () => ({ getRequest: () => req }),
    } as unknown as ExecutionContext;
    return guard.canActivate(ctx);
  };
  return { repo, run };
}

const taskParam: ScopeLocator = { kind: 'task', from: 'params', key: 'taskId' };
const need = (resource: string, action: string, scope: ScopeLocator = taskParam): PermissionRequirement => ({ resource, action, scope });

describe('PermissionGuard', () => {
  it('passes a member who holds the permission, and hands on the resolved scope', async () => {
    const { repo, run } = setUp();
    repo.rows.set(TASK, { workspace_id: WORKSPACE, member_id: MEMBER, role: 'member' });
    const req: Record<string, any> = { user: user(), params: { taskId: TASK } };
    await expect(run(need('task', 'update'), req)).resolves.toBe(true);
    expect(repo.located).toEqual([['task', 'SELECT task sql', TASK, USER]]);
    expect(req.scope).toMatchObject({ workspaceId: WORKSPACE, memberId: MEMBER, roles: ['member'], resourceId: TASK });
    expect([...req.scope.permissions.get('task')]).toEqual(['create', 'read', 'update']);
  });

  it('answers 403, naming the permission, to a member without it', async () => {
    const { repo, run } = setUp();
    repo.rows.set(TASK, { workspace_id: WORKSPACE, member_id: MEMBER, role: 'member' });
    const req: Record<string, any> = { user: user(), params: { taskId: TASK } };
    const err = await run(need('task', 'delete'), req).catch((e) => e);
    expect(err).toBeInstanceOf(ForbiddenException);
    expect(err.message).toBe('Insufficient permissions: task:delete is needed');
    expect(req.scope).toBeUndefined();
  });

  it('a read needs membership only, whatever the roles hold', async () => {
    const { repo, run } = setUp();
    repo.customRoles.set('nobody', {});
    repo.rows.set(TASK, { workspace_id: WORKSPACE, member_id: MEMBER, role: 'nobody' });
    const req: Record<string, any> = { user: user(), params: { taskId: TASK } };
    await expect(run(need('task', 'read'), req)).resolves.toBe(true);
    expect(req.scope.roles).toEqual(['nobody']);
    await expect(run(need('task', 'update'), { user: user(), params: { taskId: TASK } })).rejects.toBeInstanceOf(ForbiddenException);
  });

  it("a custom role's permissions come from the workspace's role table, added to the static roles'", async () => {
    const { repo, run } = setUp();
    repo.customRoles.set('triager', { task: ['assign'] });
    repo.rows.set(TASK, { workspace_id: WORKSPACE, member_id: MEMBER, role: 'viewer,triager' });
    const req: Record<string, any> = { user: user(), params: { taskId: TASK } };
    await expect(run(need('task', 'assign'), req)).resolves.toBe(true);
    expect([...req.scope.permissions.get('task')].sort()).toEqual(['assign', 'read']);
    await expect(run(need('task', 'update'), { user: user(), params: { taskId: TASK } })).rejects.toBeInstanceOf(ForbiddenException);
  });

  it("answers 404 with the kind's message to a non-member and for an unknown resource: a foreign object is never revealed", async () => {
    const { repo, run } = setUp();
    repo.rows.set(TASK, { workspace_id: WORKSPACE, member_id: null, role: null });
    for (const id of [TASK, OTHER_TASK]) {
      const err = await run(need('task', 'read'), { user: user(), params: { taskId: id } }).catch((e) => e);
      expect([id, err]).toEqual([id, new NotFoundException('Task not found')]);
    }
  });

  it('a malformed id is a 404 without a lookup; a missing or empty one a 400; a non-string one a 400', async () => {
    const { repo, run } = setUp();
    await expect(run(need('task', 'read'), { user: user(), params: { taskId: 'not-a-uuid' } })).rejects.toEqual(new NotFoundException('Task not found'));
    for (const taskId of [undefined, null, '']) {
      await expect(run(need('task', 'read'), { user: user(), params: { taskId } })).rejects.toEqual(new BadRequestException('taskId is required'));
    }
    await expect(run(need('task', 'read'), { user: user() })).rejects.toEqual(new BadRequestException('taskId is required'));
    await expect(run(need('task', 'read'), { user: user(), params: { taskId: 7 } })).rejects.toEqual(new BadRequestException('taskId must be a string'));
    expect(repo.located).toEqual([]);
  });

  it('looks the id up lower-cased, wherever the route says it is (params, body, query)', async () => {
    const { repo, run } = setUp();
    repo.rows.set(TASK, { workspace_id: WORKSPACE, member_id: MEMBER, role: 'owner' });
    for (const from of ['params', 'body', 'query'] as const) {
      const req: Record<string, any> = { user: user(), [from]: { taskId: TASK.toUpperCase() } };
      await expect(run(need('task', 'delete', { kind: 'task', from, key: 'taskId' }), req)).resolves.toBe(true);
      expect(req.scope.resourceId).toBe(TASK);
    }
    expect(repo.located.map((l) => l[2])).toEqual([TASK, TASK, TASK]);
  });

  it("falls back to the session's active workspace when the route allows it and the id is absent", async () => {
    const { repo, run } = setUp();
    repo.rows.set(WORKSPACE, { workspace_id: WORKSPACE, member_id: MEMBER, role: 'admin' });
    const scope: ScopeLocator = { kind: 'workspace', from: 'query', key: 'organizationId', fallbackToActive: true };
    const req: Record<string, any> = { user: user({ activeOrganizationId: WORKSPACE }), query: {} };
    await expect(run(need('workspace', 'update', scope), req)).resolves.toBe(true);
    expect(req.scope.resourceId).toBe(WORKSPACE);
    await expect(run(need('workspace', 'update', scope), { user: user({ activeOrganizationId: null }), query: {} })).rejects.toEqual(
      new BadRequestException('No active organization'),
    );
    // An empty or null id falls back too; a given id is used even when the session has another active workspace.
    for (const organizationId of ['', null]) {
      const r: Record<string, any> = { user: user({ activeOrganizationId: WORKSPACE }), query: { organizationId } };
      await expect(run(need('workspace', 'update', scope), r)).resolves.toBe(true);
      expect(r.scope.resourceId).toBe(WORKSPACE);
    }
    repo.rows.set(OTHER_TASK, { workspace_id: OTHER_TASK, member_id: MEMBER, role: 'admin' });
    const given: Record<string, any> = { user: user({ activeOrganizationId: WORKSPACE }), query: { organizationId: OTHER_TASK } };
    await expect(run(need('workspace', 'update', scope), given)).resolves.toBe(true);
    expect(given.scope.resourceId).toBe(OTHER_TASK);
    // Without the fallback, the active workspace is not used.
    await expect(run(need('workspace', 'update', { ...scope, fallbackToActive: false }), { user: user({ activeOrganizationId: WORKSPACE }), query: {} })).rejects.toEqual(
      new BadRequestException('organizationId is required'),
    );
  });

  it('uses the membership the authentication prefetched for this very resource instead of a lookup of its own, and only that one', async () => {
    const { repo, run } = setUp();
    repo.rows.set(OTHER_TASK, { workspace_id: WORKSPACE, member_id: null, role: null });
    const prefetched = (over: Partial<PrefetchedMembership>): PrefetchedMembership => ({
      kind: 'task',
      id: TASK,
      found: { workspaceId: WORKSPACE, memberId: MEMBER, roles: ['member'] },
      ...over,
    });
    const req: Record<string, any> = { user: user(), params: { taskId: TASK.toUpperCase() }, prefetchedMembership: prefetched({}) };
    await expect(run(need('task', 'update'), req)).resolves.toBe(true);
    expect(req.scope.memberId).toBe(MEMBER);
    expect(repo.located).toEqual([]);
    // Prefetched as not found: 404 without a lookup.
    await expect(run(need('task', 'update'), { user: user(), params: { taskId: TASK }, prefetchedMembership: prefetched({ found: null }) })).rejects.toEqual(
      new NotFoundException('Task not found'),
    );
    expect(repo.located).toEqual([]);
    // Prefetched for another resource, or for another kind with the same id: looked up (OTHER_TASK: not a member).
    for (const other of [prefetched({ id: TASK }), prefetched({ kind: 'workspace', id: OTHER_TASK })]) {
      const req2 = { user: user(), params: { taskId: OTHER_TASK }, prefetchedMembership: other };
      await expect(run(need('task', 'update'), req2)).rejects.toEqual(new NotFoundException('Task not found'));
    }
    expect(repo.located.map((l) => l[2])).toEqual([OTHER_TASK, OTHER_TASK]);
  });

  it('lets through what it does not scope: other transports, routes without a permission, public routes', async () => {
    const { repo, run } = setUp();
    await expect(run(need('task', 'delete'), { user: user(), params: { taskId: TASK } }, 'rpc')).resolves.toBe(true);
    await expect(run(undefined, { user: user(), params: { taskId: TASK } })).resolves.toBe(true);
    const req: Record<string, any> = { params: { taskId: TASK } };
    await expect(run(need('task', 'delete'), req)).resolves.toBe(true);
    expect(req.scope).toBeUndefined();
    expect(repo.located).toEqual([]);
  });
});
