import { startTestApp, TestApp } from '../../support/app';
import { MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** GET /workspace/:workspaceId/members, the original's member list (docs/compatibility.md, "Workspace members"). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('GET /workspace/:workspaceId/members', () => {
  it('answers the members with their users, as list-members does', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const res = await t.api.get(`/workspace/${workspaceId}/members`, viewer.token);
    expect(res.status).toBe(200);
    const user = (a: typeof owner) => ({
      id: a.user.id,
      name: expect.any(String),
      email: a.user.email,
      emailVerified: expect.any(Boolean),
      image: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.body).toEqual([
      { id: expect.any(String), userId: owner.user.id, organizationId: workspaceId, role: 'owner', createdAt: expect.any(String), user: user(owner) },
      { id: expect.any(String), userId: viewer.user.id, organizationId: workspaceId, role: 'viewer', createdAt: expect.any(String), user: user(viewer) },
    ]);
    expect((await t.api.get(`/auth/organization/list-members?organizationId=${workspaceId}`, owner.token)).body).toEqual(res.body);
  });

  it('another workspace, an unknown or malformed id → 404; an API key needs workspace:read', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const other = await ownerWithWorkspace(t);
    for (const id of [workspaceId, MISSING_ID, 'nope']) {
      const res = await t.api.get(`/workspace/${id}/members`, other.owner.token);
      expect([id, res.status, res.body]).toEqual([id, 404, { message: 'Workspace not found' }]);
    }
    const taskOnly = (await t.api.post('/auth/api-key/create', { permissions: { task: ['read'] } }, owner.token)).body.key;
    expect((await t.api.get(`/workspace/${workspaceId}/members`, taskOnly)).body).toEqual({ message: 'Insufficient API key scope' });
    const reader = (await t.api.post('/auth/api-key/create', { permissions: { workspace: ['read'] } }, owner.token)).body.key;
    expect((await t.api.get(`/workspace/${workspaceId}/members`, reader)).status).toBe(200);
  });
});
