import { RESOURCE_ACTIONS, STATIC_ROLE_PERMISSIONS, StaticRole } from '../../../src/common/permissions/permissions';
import { startTestApp, TestApp } from '../../support/app';
import { addMember } from '../../support/fixtures';

/**
 * GET /auth/organization/my-permissions: the caller's roles in a workspace and what they allow
 * (docs/decisions-local.md, "Roles and permissions"; docs/records.md, "My permissions").
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const ORG = '/auth/organization';
const RESOURCES = Object.keys(RESOURCE_ACTIONS) as (keyof typeof RESOURCE_ACTIONS)[];
type Table = Record<string, string[]>;

/** The expected table: every resource, its actions in RESOURCE_ACTIONS order, those any of `grants` holds. */
function table(...grants: Array<Partial<Record<string, readonly string[]>>>): Table {
  return Object.fromEntries(RESOURCES.map((r) => [r, (RESOURCE_ACTIONS[r] as readonly string[]).filter((a) => grants.some((g) => g[r]?.includes(a)))]));
}
const ofRoles = (...roles: StaticRole[]) => table(...roles.map((r) => STATIC_ROLE_PERMISSIONS[r]));

const mine = (token: string, organizationId?: string) => t.api.get(`${ORG}/my-permissions${organizationId === undefined ? '' : `?organizationId=${organizationId}`}`, token);

async function workspace() {
  const owner = await t.api.signUp();
  const ws = await t.api.createWorkspace(owner.token, 'Permissions');
  return { owner, ws };
}

async function memberOf(workspaceId: string, role: string) {
  const user = await t.api.signUp();
  const memberId = await addMember(t.databaseUrl, workspaceId, user.user.id, role);
  return { ...user, memberId };
}

async function setRole(ownerToken: string, organizationId: string, memberId: string, role: string) {
  const res = await t.api.post(`${ORG}/update-member-role`, { role, memberId, organizationId }, ownerToken);
  if (res.status !== 200) throw new Error(`update-member-role failed: ${res.status} ${res.text}`);
}

async function createRole(ownerToken: string, organizationId: string, role: string, permission: Record<string, string[]>) {
  const res = await t.api.post(`${ORG}/create-role`, { organizationId, role, permission }, ownerToken);
  if (res.status !== 200) throw new Error(`create-role failed: ${res.status} ${res.text}`);
}

async function apiKey(token: string, permissions?: Record<string, string[]>) {
  const res = await t.api.post('/auth/api-key/create', { name: 'perms', ...(permissions ? { permissions } : {}) }, token);
  if (res.status !== 200) throw new Error(`api-key/create failed: ${res.status} ${res.text}`);
  return res.body.key as string;
}

describe('GET /auth/organization/my-permissions', () => {
  it('the owner has every permission, every resource listed in the documented order; the cookie session gets the same', async () => {
    const { owner, ws } = await workspace();
    const res = await mine(owner.token, ws.id);
    expect(res.status).toBe(200);
    const every = Object.fromEntries(RESOURCES.map((r) => [r, [...RESOURCE_ACTIONS[r]]]));
    expect(res.body).toEqual({ organizationId: ws.id, roles: ['owner'], permissions: every });
    expect(Object.keys(res.body.permissions)).toEqual(RESOURCES);
    const byCookie = await t.api.get(`${ORG}/my-permissions?organizationId=${ws.id}`, undefined, { headers: { cookie: `tandem_session=${owner.token}` } });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body).toEqual(res.body);
  });

  it("a plain member gets the member role's set, with [] for the resources it has nothing of", async () => {
    const { ws } = await workspace();
    const m = await memberOf(ws.id, 'member');
    const res = await mine(m.token, ws.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ organizationId: ws.id, roles: ['member'], permissions: ofRoles('member') });
    expect(res.body.permissions.organization).toEqual([]);
    expect(res.body.permissions).not.toEqual(ofRoles('owner'));
  });

  it('a custom role changes the answer at once; its actions come in the stable order whatever order the role lists them in', async () => {
    const { owner, ws } = await workspace();
    const m = await memberOf(ws.id, 'member');
    expect((await mine(m.token, ws.id)).body.permissions).toEqual(ofRoles('member'));
    await createRole(owner.token, ws.id, 'mover', { task: ['assign', 'update'], label: ['read'] });
    await setRole(owner.token, ws.id, m.memberId, 'mover');
    const res = await mine(m.token, ws.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ organizationId: ws.id, roles: ['mover'], permissions: table({ task: ['update', 'assign'], label: ['read'] }) });
    expect(res.body.permissions.task).toEqual(['update', 'assign']);
    expect(res.body.permissions.workspace).toEqual([]);
  });

  it('two roles: the union of a static and a custom role', async () => {
    const { owner, ws } = await workspace();
    const m = await memberOf(ws.id, 'viewer');
    await createRole(owner.token, ws.id, 'closer', { task: ['delete', 'assign'], member: ['update'] });
    await setRole(owner.token, ws.id, m.memberId, 'viewer, closer');
    const res = await mine(m.token, ws.id);
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual(['viewer', 'closer']);
    expect(res.body.permissions).toEqual(table(STATIC_ROLE_PERMISSIONS.viewer, { task: ['delete', 'assign'], member: ['update'] }));
    expect(res.body.permissions.task).toEqual(['read', 'delete', 'assign']);
    // Two static roles likewise.
    await setRole(owner.token, ws.id, m.memberId, 'viewer,member');
    expect((await mine(m.token, ws.id)).body).toEqual({ organizationId: ws.id, roles: ['viewer', 'member'], permissions: ofRoles('viewer', 'member') });
  });

  it("an API key limited by scopes gets what the key can do: its scopes ∩ its user's roles; an unscoped key gets the roles' set", async () => {
    const { owner, ws } = await workspace();
    const ownerKey = await apiKey(owner.token, { workspace: ['read'], task: ['read', 'delete'], organization: ['delete'] });
    const asOwnerKey = await mine(ownerKey, ws.id);
    expect(asOwnerKey.status).toBe(200);
    expect(asOwnerKey.body).toEqual({
      organizationId: ws.id,
      roles: ['owner'],
      permissions: table({ workspace: ['read'], task: ['read', 'delete'], organization: ['delete'] }),
    });

    // A member's key with scopes beyond the member role: only what both allow.
    const m = await memberOf(ws.id, 'member');
    const memberKey = await apiKey(m.token, { workspace: ['read'], task: ['delete', 'update', 'read'], member: ['update'] });
    const asMemberKey = await mine(memberKey, ws.id);
    expect(asMemberKey.status).toBe(200);
    expect(asMemberKey.body).toEqual({ organizationId: ws.id, roles: ['member'], permissions: table({ workspace: ['read'], task: ['read', 'update'] }) });

    const unscoped = await mine(await apiKey(m.token), ws.id);
    expect(unscoped.status).toBe(200);
    expect(unscoped.body.permissions).toEqual(ofRoles('member'));

    // Like every workspace read, a scoped key needs workspace:read.
    const taskOnly = await mine(await apiKey(owner.token, { task: ['read'] }), ws.id);
    expect(taskOnly.status).toBe(403);
    expect(taskOnly.body).toEqual({ message: 'Insufficient API key scope' });
  });

  it('a non-member, an unknown and a malformed workspace id: 404 Workspace not found', async () => {
    const { ws } = await workspace();
    const stranger = await t.api.signUp();
    await t.api.createWorkspace(stranger.token, 'Own');
    for (const id of [ws.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await mine(stranger.token, id);
      expect([id, res.status, res.body]).toEqual([id, 404, { message: 'Workspace not found' }]);
    }
    const strangerKey = await mine(await apiKey(stranger.token), ws.id);
    expect(strangerKey.status).toBe(404);
  });

  it('the OpenAPI document describes the answer: its schema lists every resource with its actions', async () => {
    const doc = (await t.api.get('/openapi.json')).body;
    const ok = doc.paths['/api/auth/organization/my-permissions'].get.responses['200'];
    expect(ok.description).toContain('My permissions (docs/records.md)');
    const ref = ok.content['application/json'].schema.$ref as string;
    const schema = doc.components.schemas[ref.split('/').pop()!];
    expect(schema.required).toEqual(expect.arrayContaining(['organizationId', 'roles', 'permissions']));
    expect(schema.properties.roles).toMatchObject({ type: 'array', items: { type: 'string' } });
    const tableRef = schema.properties.permissions.allOf[0].$ref as string;
    const perms = doc.components.schemas[tableRef.split('/').pop()!];
    expect(perms.required).toEqual(RESOURCES);
    for (const r of RESOURCES) expect([r, perms.properties[r]]).toEqual([r, { type: 'array', items: { type: 'string', enum: [...RESOURCE_ACTIONS[r]] } }]);
  });

  it("without organizationId: the session's active organization, else 400 No active organization", async () => {
    const { owner, ws } = await workspace();
    const m = await memberOf(ws.id, 'member');
    const none = await mine(m.token);
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ message: 'No active organization' });
    expect((await t.api.post(`${ORG}/set-active`, { organizationId: ws.id }, m.token)).status).toBe(200);
    const active = await mine(m.token);
    expect(active.status).toBe(200);
    expect(active.body).toEqual({ organizationId: ws.id, roles: ['member'], permissions: ofRoles('member') });
    // An explicit id wins over the active one.
    const other = await t.api.createWorkspace(m.token, 'Mine');
    expect((await mine(m.token, other.id)).body).toMatchObject({ organizationId: other.id, roles: ['owner'] });
    // An API key has no active organization.
    const byKey = await mine(await apiKey(owner.token));
    expect(byKey.status).toBe(400);
    expect(byKey.body).toEqual({ message: 'No active organization' });
  });
});
