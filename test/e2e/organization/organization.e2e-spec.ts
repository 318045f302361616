import { startTestApp, TestApp } from '../../support/app';
import { addMember, sql } from '../../support/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const full = (id: string) => `/auth/organization/get-full-organization?organizationId=${id}`;

describe('workspaces (organizations)', () => {
  it('create: the creator is owner, a default team holds the creator', async () => {
    const u = await t.api.signUp();
    const res = await t.api.post('/auth/organization/create', { name: 'Acme Corp', description: 'Widgets', logo: 'https://x/logo.png', metadata: '{"a":1}' }, u.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Acme Corp',
      slug: 'acme-corp',
      logo: 'https://x/logo.png',
      metadata: '{"a":1}',
      description: 'Widgets',
      createdAt: expect.any(String),
    });
    const f = await t.api.get(full(res.body.id), u.token);
    expect(f.status).toBe(200);
    expect(f.body.members).toHaveLength(1);
    expect(f.body.members[0]).toMatchObject({ userId: u.user.id, organizationId: res.body.id, role: 'owner' });
    expect(f.body.teams).toEqual([expect.objectContaining({ name: 'Acme Corp', organizationId: res.body.id })]);
    expect(f.body.invitations).toEqual([]);
    const tm = await sql(t.databaseUrl, `SELECT user_id FROM team_member WHERE team_id = $1`, [f.body.teams[0].id]);
    expect(tm.map((r) => r.user_id)).toEqual([u.user.id]);
  });

  it('slugs: derived ones get a suffix when taken, an explicit taken slug is 409', async () => {
    const u = await t.api.signUp();
    const a = await t.api.post('/auth/organization/create', { name: 'Same Name' }, u.token);
    const b = await t.api.post('/auth/organization/create', { name: 'Same Name' }, u.token);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.slug).toBe('same-name');
    expect(b.body.slug).toMatch(/^same-name-[a-z0-9]+$/);
    const c = await t.api.post('/auth/organization/create', { name: 'Other', slug: 'same-name' }, u.token);
    expect(c.status).toBe(409);
    expect(c.body).toEqual({ message: 'Slug is already taken' });
  });

  it('list shows only the caller’s workspaces', async () => {
    const a = await t.api.signUp();
    const b = await t.api.signUp();
    const wa = await t.api.createWorkspace(a.token, 'A only');
    const wb = await t.api.createWorkspace(b.token, 'B only');
    const la = await t.api.get('/auth/organization/list', a.token);
    expect(la.body.map((w: any) => w.id)).toEqual([wa.id]);
    const lb = await t.api.get('/auth/organization/list', b.token);
    expect(lb.body.map((w: any) => w.id)).toEqual([wb.id]);
  });

  it('update by owner/admin; member and viewer 403; non-member 404', async () => {
    const owner = await t.api.signUp();
    const admin = await t.api.signUp();
    const member = await t.api.signUp();
    const viewer = await t.api.signUp();
    const stranger = await t.api.signUp();
    const ws = await t.api.createWorkspace(owner.token, 'Roles');
    await addMember(t.databaseUrl, ws.id, admin.user.id, 'admin');
    await addMember(t.databaseUrl, ws.id, member.user.id, 'member');
    await addMember(t.databaseUrl, ws.id, viewer.user.id, 'viewer');
    const body = (name: string) => ({ organizationId: ws.id, data: { name } });

    const byOwner = await t.api.post('/auth/organization/update', body('Renamed'), owner.token);
    expect(byOwner.status).toBe(200);
    expect(byOwner.body).toEqual({ ...ws, name: 'Renamed' }); // the whole record; only the name changed
    expect((await t.api.get(full(ws.id), owner.token)).body).toMatchObject({ ...ws, name: 'Renamed' });
    const byAdmin = await t.api.post('/auth/organization/update', body('By admin'), admin.token);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toEqual({ ...ws, name: 'By admin' });
    for (const u of [member, viewer]) {
      const res = await t.api.post('/auth/organization/update', body('Nope'), u.token);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: 'Insufficient permissions: organization:update is needed' });
    }
    const foreign = await t.api.post('/auth/organization/update', body('Nope'), stranger.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: 'Workspace not found' });
    // a non-member cannot read anything either, and learns nothing
    for (const path of [full(ws.id), `/auth/organization/list-members?organizationId=${ws.id}`, `/auth/organization/list-teams?organizationId=${ws.id}`]) {
      const res = await t.api.get(path, stranger.token);
      expect(res.status).toBe(404);
    }
    // members and viewers read
    expect((await t.api.get(full(ws.id), viewer.token)).status).toBe(200);
    const members = await t.api.get(`/auth/organization/list-members?organizationId=${ws.id}`, member.token);
    expect(members.body.map((m: any) => m.role).sort()).toEqual(['admin', 'member', 'owner', 'viewer']);
    expect(members.body[0].user).toEqual(expect.objectContaining({ id: owner.user.id, email: owner.user.email }));
    // refused renames changed nothing: a re-read shows the admin's name
    expect((await t.api.get(full(ws.id), owner.token)).body).toMatchObject({ ...ws, name: 'By admin' });
    const [row] = await sql(t.databaseUrl, `SELECT name FROM workspace WHERE id = $1`, [ws.id]);
    expect(row.name).toBe('By admin');
  });

  it('delete: owner only, cascades', async () => {
    const owner = await t.api.signUp();
    const admin = await t.api.signUp();
    const ws = await t.api.createWorkspace(owner.token, 'Doomed');
    await addMember(t.databaseUrl, ws.id, admin.user.id, 'admin');
    const denied = await t.api.post('/auth/organization/delete', { organizationId: ws.id }, admin.token);
    expect(denied.status).toBe(403);
    const ok = await t.api.post('/auth/organization/delete', { organizationId: ws.id }, owner.token);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: ws.id, name: 'Doomed' });
    for (const table of ['workspace', 'member', 'team']) {
      const col = table === 'workspace' ? 'id' : 'organization_id';
      const rows = await sql(t.databaseUrl, `SELECT 1 FROM ${table} WHERE ${col} = $1`, [ws.id]);
      expect(rows).toHaveLength(0);
    }
    expect((await t.api.get(full(ws.id), owner.token)).status).toBe(404);
  });

  it('set-active puts the workspace on the session; routes with an optional organizationId use it', async () => {
    const u = await t.api.signUp();
    const ws = await t.api.createWorkspace(u.token, 'Active one');
    const none = await t.api.get('/auth/organization/get-full-organization', u.token);
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ message: 'No active organization' });
    const set = await t.api.post('/auth/organization/set-active', { organizationId: ws.id }, u.token);
    expect(set.status).toBe(200);
    expect(set.body.id).toBe(ws.id);
    const session = await t.api.get('/auth/get-session', u.token);
    expect(session.body.session.activeOrganizationId).toBe(ws.id);
    const implicit = await t.api.get('/auth/organization/get-full-organization', u.token);
    expect(implicit.status).toBe(200);
    expect(implicit.body.id).toBe(ws.id);
    const other = await t.api.signUp();
    const foreign = await t.api.post('/auth/organization/set-active', { organizationId: ws.id }, other.token);
    expect(foreign.status).toBe(404);
  });

  it('custom roles stored for a workspace grant through the same guard', async () => {
    const owner = await t.api.signUp();
    const editor = await t.api.signUp();
    const ws = await t.api.createWorkspace(owner.token, 'Custom');
    await sql(t.databaseUrl, `INSERT INTO organization_role (organization_id, role, permission) VALUES ($1, 'renamer', $2)`, [ws.id, JSON.stringify({ organization: ['update'] })]);
    await addMember(t.databaseUrl, ws.id, editor.user.id, 'viewer,renamer');
    const ok = await t.api.post('/auth/organization/update', { organizationId: ws.id, data: { name: 'Custom renamed' } }, editor.token);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ...ws, name: 'Custom renamed' });
    expect((await t.api.get(full(ws.id), owner.token)).body.name).toBe('Custom renamed');
    const no = await t.api.post('/auth/organization/delete', { organizationId: ws.id }, editor.token);
    expect([no.status, no.body]).toEqual([403, { message: 'Insufficient permissions: organization:delete is needed' }]);
    // the same role name in another workspace grants nothing here
    const ws2 = await t.api.createWorkspace(owner.token, 'Other');
    await addMember(t.databaseUrl, ws2.id, editor.user.id, 'renamer');
    const none = await t.api.post('/auth/organization/update', { organizationId: ws2.id, data: { name: 'x' } }, editor.token);
    expect([none.status, none.body]).toEqual([403, { message: 'Insufficient permissions: organization:update is needed' }]);
    expect((await t.api.get(full(ws2.id), owner.token)).body.name).toBe('Other');
  });

  it('logo and avatar must be http(s) URLs', async () => {
    for (const logo of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '/relative.png', 'https://']) {
      const res = await t.api.post('/auth/organization/create', { name: 'Logo test', logo }, (await t.api.signUp()).token);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'logo must be an http(s) URL' });
    }
    const res = await t.api.post('/auth/sign-up/email', { name: 'X', email: 'img@example.test', password: 'longenough1', image: 'javascript:alert(1)' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'image must be an http(s) URL' });
  });
});
