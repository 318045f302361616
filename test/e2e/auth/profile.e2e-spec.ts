import { startTestApp, TestApp } from '../../support/app';
import { addMember, sql } from '../../support/fixtures';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';

/** POST /auth/update-user and POST /auth/delete-user (docs/compatibility.md, "Profile"). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const userRow = async (id: string) => (await sql(t.databaseUrl, `SELECT id, name, image FROM "user" WHERE id = $1`, [id]))[0];

describe('POST /auth/update-user', () => {
  it('changes the name and the image (null removes it) and answers {status: true}', async () => {
    const u = await t.api.signUp({ name: 'Old Name' });
    const res = await t.api.post('/auth/update-user', { name: '  New Name ', image: 'https://cdn.example.test/me.png' }, u.token);
    expect([res.status, res.body]).toEqual([200, { status: true }]);
    expect((await t.api.get('/auth/get-session', u.token)).body.user).toMatchObject({ name: 'New Name', image: 'https://cdn.example.test/me.png' });
    expect((await t.api.post('/auth/update-user', { image: null }, u.token)).body).toEqual({ status: true });
    expect(await userRow(u.user.id)).toEqual({ id: u.user.id, name: 'New Name', image: null });
    // Nothing sent, nothing changed.
    expect((await t.api.post('/auth/update-user', {}, u.token)).body).toEqual({ status: true });
    expect((await userRow(u.user.id)).name).toBe('New Name');
  });

  it('validates the fields, refuses others and scoped API keys; an unscoped key works', async () => {
    const u = await t.api.signUp({ name: 'Kept' });
    const cases: [unknown, string][] = [
      [{ name: '' }, 'name must be longer than or equal to 1 characters'],
      [{ name: null }, 'name must be longer than or equal to 1 characters, name must be a string'],
      [{ image: 'javascript:alert(1)' }, 'image must be an http(s) URL'],
      [{ email: 'other@example.test' }, 'property email should not exist'],
    ];
    for (const [body, message] of cases) {
      const res = await t.api.post('/auth/update-user', body, u.token);
      expect([res.status, res.body]).toEqual([400, { message }]);
    }
    const scoped = (await t.api.post('/auth/api-key/create', { permissions: { task: ['read'] } }, u.token)).body.key;
    expect((await t.api.post('/auth/update-user', { name: 'Key' }, scoped)).body).toEqual({ message: 'Insufficient API key scope' });
    expect((await userRow(u.user.id)).name).toBe('Kept');
    const full = (await t.api.post('/auth/api-key/create', {}, u.token)).body.key;
    expect((await t.api.post('/auth/update-user', { name: 'By key' }, full)).body).toEqual({ status: true });
    expect((await t.api.post('/auth/update-user', { name: 'x' })).status).toBe(401);
  });
});

describe('POST /auth/delete-user', () => {
  it('deletes the account: sessions, API keys and memberships go, solo workspaces go, tasks stay unassigned, comments stay without an author', async () => {
    const leaver = await t.api.signUp({ name: 'Leaver' });
    const solo = await t.api.createWorkspace(leaver.token, 'Solo');
    const soloProject = await createProject(t, leaver.token, solo.id);
    await createTask(t, leaver.token, soloProject.id);
    const key = (await t.api.post('/auth/api-key/create', {}, leaver.token)).body.key;

    const { owner, workspaceId } = await ownerWithWorkspace(t);
    await addMember(t.databaseUrl, workspaceId, leaver.user.id, 'admin');
    const project = await createProject(t, owner.token, workspaceId);
    const assigned = await createTask(t, owner.token, project.id, { title: 'Theirs', userId: leaver.user.id });
    const created = await createTask(t, leaver.token, project.id, { title: 'Made by them' });
    const comment = (await t.api.post(`/comment/${assigned.id}`, { content: 'Bye' }, leaver.token)).body;
    // Their notification settings and the notifications they have go with them too.
    expect((await t.api.put('/notification-preferences', { emailEnabled: true }, leaver.token)).status).toBe(200);
    expect((await t.api.put(`/notification-preferences/workspaces/${workspaceId}`, { isActive: true, emailEnabled: true }, leaver.token)).status).toBe(200);
    await t.api.put(`/task/title/${assigned.id}`, { title: 'Theirs, renamed' }, owner.token);

    const res = await t.api.post('/auth/delete-user', { password: leaver.password }, leaver.token);
    expect([res.status, res.body]).toEqual([200, { success: true }]);

    expect((await t.api.get('/auth/get-session', leaver.token)).status).toBe(401);
    expect((await t.api.get('/auth/organization/list', key)).status).toBe(401);
    expect((await t.api.post('/auth/sign-in/email', { email: leaver.user.email, password: leaver.password })).status).toBe(401);
    const [left] = await sql(
      t.databaseUrl,
      `SELECT (SELECT count(*)::int FROM "user" WHERE id = $1) AS users,
              (SELECT count(*)::int FROM workspace WHERE id = $2) AS solo,
              (SELECT count(*)::int FROM project WHERE id = $3) AS solo_projects,
              (SELECT count(*)::int FROM member WHERE user_id = $1) AS memberships,
              (SELECT count(*)::int FROM session WHERE user_id = $1) AS sessions,
              (SELECT count(*)::int FROM api_key WHERE user_id = $1) AS keys,
              (SELECT count(*)::int FROM notification_rule WHERE user_id = $1) AS rules`,
      [leaver.user.id, solo.id, soloProject.id],
    );
    expect(left).toEqual({ users: 0, solo: 0, solo_projects: 0, memberships: 0, sessions: 0, keys: 0, rules: 0 });
    // The shared workspace keeps their work.
    expect((await t.api.get(`/task/${assigned.id}`, owner.token)).body).toEqual({ ...assigned, title: 'Theirs, renamed', userId: null });
    expect((await t.api.get(`/task/${created.id}`, owner.token)).status).toBe(200);
    const comments = (await t.api.get(`/comment/${assigned.id}`, owner.token)).body;
    expect(comments).toEqual([{ ...comment, userId: null }]);
    expect((await t.api.get(`/auth/organization/list-members?organizationId=${workspaceId}`, owner.token)).body.map((m: any) => m.userId)).toEqual([owner.user.id]);
  });

  it('refuses a wrong password, the only owner of a shared workspace and scoped keys, deleting nothing', async () => {
    const owner = await t.api.signUp();
    const workspaceId = (await t.api.createWorkspace(owner.token)).id;
    const other = await t.api.signUp();
    await addMember(t.databaseUrl, workspaceId, other.user.id, 'member');
    const solo = await t.api.createWorkspace(owner.token, 'Also solo');

    expect((await t.api.post('/auth/delete-user', { password: 'not the password' }, owner.token)).body).toEqual({ message: 'Invalid password' });
    const refused = await t.api.post('/auth/delete-user', { password: owner.password }, owner.token);
    expect([refused.status, refused.body]).toEqual([400, { message: 'Transfer ownership or delete the workspace first' }]);
    const scoped = (await t.api.post('/auth/api-key/create', { permissions: { workspace: ['read'] } }, owner.token)).body.key;
    expect((await t.api.post('/auth/delete-user', { password: owner.password }, scoped)).body).toEqual({ message: 'Insufficient API key scope' });
    expect((await t.api.post('/auth/delete-user', {}, owner.token)).body).toEqual({
      message: 'password must be shorter than or equal to 128 characters, password must be a string',
    });
    expect((await t.api.get('/auth/get-session', owner.token)).status).toBe(200);
    expect((await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM workspace WHERE id = ANY($1::uuid[])`, [[workspaceId, solo.id]]))[0].n).toBe(2);

    // With a second owner the workspace stays with them, and the solo one goes.
    await sql(t.databaseUrl, `UPDATE member SET role = 'owner' WHERE user_id = $1`, [other.user.id]);
    expect((await t.api.post('/auth/delete-user', { password: owner.password }, owner.token)).body).toEqual({ success: true });
    const ws = await t.api.get(`/auth/organization/get-full-organization?organizationId=${workspaceId}`, other.token);
    expect(ws.body.members.map((m: any) => [m.userId, m.role])).toEqual([[other.user.id, 'owner']]);
    expect((await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM workspace WHERE id = $1`, [solo.id]))[0].n).toBe(0);
  });

  it('a user without a password (signed up with OAuth) cannot delete the account this way', async () => {
    const u = await t.api.signUp();
    await sql(t.databaseUrl, `UPDATE "user" SET password_hash = NULL WHERE id = $1`, [u.user.id]);
    expect((await t.api.post('/auth/delete-user', { password: u.password }, u.token)).body).toEqual({ message: 'Invalid password' });
    expect((await userRow(u.user.id)).id).toBe(u.user.id);
  });
});
