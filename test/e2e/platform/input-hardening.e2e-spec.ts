import { startTestApp, TestApp } from '../../support/app';
import { addMember, sql } from '../../support/fixtures';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const NUL = 'a\u0000b';

describe('input that used to answer 500', () => {
  it('a NUL character in a body string, a body key or a query is 400 {message} and stores nothing', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    const task = await createTask(t, owner.token, project.id);
    // Totals before and after (the file's tests run one at a time, so only these requests count).
    const totals = async () =>
      (
        await sql(
          t.databaseUrl,
          `SELECT (SELECT count(*)::int FROM task) AS tasks, (SELECT count(*)::int FROM activity WHERE type = 'comment') AS comments,
                  (SELECT count(*)::int FROM label) AS labels, (SELECT count(*)::int FROM workspace) AS workspaces,
                  (SELECT count(*)::int FROM organization_role) AS roles, (SELECT description FROM task WHERE id = $1) AS description`,
          [task.id],
        )
      )[0];
    const before = await totals();
    expect(before.description).toBeNull();
    const cases = [
      await t.api.post(`/task/${project.id}`, { title: NUL }, owner.token),
      await t.api.put(`/task/${task.id}`, { description: NUL }, owner.token),
      await t.api.post(`/comment/${task.id}`, { content: NUL }, owner.token),
      await t.api.post('/label', { name: NUL, color: '#000000', workspaceId }, owner.token),
      await t.api.post('/auth/organization/create', { name: NUL }, owner.token),
      await t.api.post('/auth/organization/create-role', { role: 'r1', permission: { task: ['read'] }, organizationId: workspaceId, additionalFields: { [NUL]: 1 } }, owner.token),
      await t.api.post('/auth/sign-in/email', { email: `x${NUL}@example.test`, password: 'whatever-123' }),
      await t.api.get(`/search?q=${encodeURIComponent(NUL)}`, owner.token),
      await t.api.get(`/task/tasks/${project.id}?q=${encodeURIComponent(NUL)}`, owner.token),
    ];
    for (const res of cases) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Text must not contain NUL characters' });
    }
    expect(await totals()).toEqual(before);
  });

  it('a body nested deeper than any route takes is 400 {message}, not a stack overflow', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    for (const [open, close] of [
      ['[', ']'],
      ['{"a":', '}'],
    ]) {
      for (const depth of [10_000, 100_000]) {
        const raw = `{"title":${open.repeat(depth)}1${close.repeat(depth)}}`;
        const res = await t.api.request('POST', `/task/${project.id}`, undefined, { token: owner.token, raw });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: 'Request body is nested too deeply' });
      }
    }
    // Ordinary nesting (a role's free-form fields) still works.
    const role = await t.api.post(
      '/auth/organization/create-role',
      { role: 'nested', permission: { task: ['read'] }, organizationId: workspaceId, additionalFields: { a: { b: { c: [1, { d: 2 }] } } } },
      owner.token,
    );
    expect(role.status).toBe(200);
  });

  it('a timestamp that passes the ISO 8601 pattern but is no real date (signed years) is 400, never stored wrong', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    const task = await createTask(t, owner.token, project.id);
    for (const date of ['-9999-01-01T00:00:00Z', '-4714-01-01', '+2024-01-01']) {
      const due = await t.api.put(`/task/due-date/${task.id}`, { dueDate: date }, owner.token);
      expect(due.status).toBe(400);
      expect(due.body).toEqual({ message: 'dueDate must be a valid ISO 8601 date string' });
      const entry = await t.api.post('/time-entry', { taskId: task.id, startTime: date }, owner.token);
      expect(entry.status).toBe(400);
      expect(entry.body).toEqual({ message: 'startTime must be a valid ISO 8601 date string' });
    }
    expect((await t.api.get(`/task/${task.id}`, owner.token)).body.dueDate).toBeNull();
    expect((await t.api.get(`/time-entry/task/${task.id}`, owner.token)).body).toEqual([]);
    const ok = await t.api.put(`/task/due-date/${task.id}`, { dueDate: '2024-05-01T10:00:00+02:00' }, owner.token);
    expect(ok.body.dueDate).toBe('2024-05-01T08:00:00.000Z');
  });

  it('a task list page too large for an offset is 400, not a database error', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    const res = await t.api.get(`/task/tasks/${project.id}?page=1e20`, owner.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'page must not be greater than 1000000000' });
    const last = await t.api.get(`/task/tasks/${project.id}?page=1000000000&limit=100`, owner.token);
    expect(last.status).toBe(200);
    expect(last.body.data).toEqual([]);
  });

  it('a time entry longer than the duration column holds is 400 and leaves the entry as it was', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    const task = await createTask(t, owner.token, project.id);
    const created = await t.api.post('/time-entry', { taskId: task.id, startTime: '2024-01-01T00:00:00Z', endTime: '9999-01-01T00:00:00Z' }, owner.token);
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ message: 'Time entry cannot be longer than 68 years' });
    const entry = (await t.api.post('/time-entry', { taskId: task.id, startTime: '2024-01-01T00:00:00Z' }, owner.token)).body;
    const res = await t.api.put(`/time-entry/${entry.id}`, { endTime: '9999-01-01T00:00:00Z' }, owner.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Time entry cannot be longer than 68 years' });
    expect((await t.api.get(`/time-entry/${entry.id}`, owner.token)).body).toEqual(entry);
  });

  it('permission objects naming Object members (constructor, __proto__) are 400 for roles and for API keys, and store nothing', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const bodies = [
      { role: 'r6', permission: '{"constructor":["read"]}', organizationId: workspaceId },
      { role: 'r7', permission: '{"__proto__":["read"]}', organizationId: workspaceId },
      { role: 'r8', permission: '{"toString":["read"]}', organizationId: workspaceId },
    ];
    for (const body of bodies) {
      const res = await t.api.post('/auth/organization/create-role', body, owner.token);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'The provided permission includes an invalid resource' });
    }
    expect((await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM organization_role WHERE organization_id = $1`, [workspaceId]))[0].n).toBe(0);

    // On the API-key route the DTO transformation drops `constructor` and `__proto__` keys, which
    // would leave a key scoped to nothing: refused like an empty permission object, nothing stored.
    const keysBefore = (await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM api_key WHERE user_id = $1`, [owner.user.id]))[0].n;
    for (const raw of ['{"permissions":{"constructor":["read"]}}', '{"permissions":{"__proto__":["read"]}}', '{"permissions":{}}', '{"permissions":{"task":[]}}']) {
      const key = await t.api.request('POST', '/auth/api-key/create', undefined, { token: owner.token, raw });
      expect([raw, key.status, key.body]).toEqual([raw, 400, { message: 'permissions must grant at least one action' }]);
    }
    expect((await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM api_key WHERE user_id = $1`, [owner.user.id]))[0].n).toBe(keysBefore);
  });
});

describe('null for a field that cannot be emptied', () => {
  it('is 400 on the update routes and changes nothing (was a 500 from a NOT NULL column)', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    const task = await createTask(t, owner.token, project.id);
    const label = (await t.api.post('/label', { name: 'L', color: '#000000', workspaceId }, owner.token)).body;
    const [column] = (await t.api.get(`/column/${project.id}`, owner.token)).body;
    const cases: [string, Record<string, unknown>][] = [
      [`/task/${task.id}`, { title: null }],
      [`/task/${task.id}`, { priority: null }],
      [`/task/${task.id}`, { position: null }],
      [`/task/${task.id}`, { status: null }],
      [`/label/${label.id}`, { name: null }],
      [`/label/${label.id}`, { color: null }],
      [`/column/${column.id}`, { name: null }],
      [`/column/${column.id}`, { isFinal: null }],
      [`/project/${project.id}`, { name: null }],
      [`/project/${project.id}`, { slug: null }],
      [`/project/${project.id}`, { isPublic: null }],
    ];
    for (const [path, body] of cases) {
      const res = await t.api.put(path, body, owner.token);
      expect({ path, body, status: res.status }).toEqual({ path, body, status: 400 });
      expect(res.body.message).toContain(Object.keys(body)[0]);
    }
    expect((await t.api.get(`/task/${task.id}`, owner.token)).body).toEqual(task);
    expect((await t.api.get(`/label/${label.id}`, owner.token)).body).toEqual(label);
    expect((await t.api.get(`/project/${project.id}`, owner.token)).body).toEqual(project);
  });

  it('is 400 for a workspace name or slug and a team name, which keep their values', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const [team] = (await t.api.get(`/auth/organization/list-teams?organizationId=${workspaceId}`, owner.token)).body;
    const before = (await t.api.get(`/auth/organization/get-full-organization?organizationId=${workspaceId}`, owner.token)).body;
    for (const data of [{ name: null }, { slug: null }]) {
      const res = await t.api.post('/auth/organization/update', { organizationId: workspaceId, data }, owner.token);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(`data.${Object.keys(data)[0]}`);
    }
    const teamRes = await t.api.post('/auth/organization/update-team', { teamId: team.id, data: { name: null } }, owner.token);
    expect(teamRes.status).toBe(400);
    expect(teamRes.body).toEqual({ message: 'data.name is required' });
    expect((await t.api.get(`/auth/organization/get-full-organization?organizationId=${workspaceId}`, owner.token)).body).toEqual(before);
    // The nullable fields can still be cleared.
    const cleared = await t.api.post('/auth/organization/update', { organizationId: workspaceId, data: { description: null } }, owner.token);
    expect(cleared.status).toBe(200);
  });

  it('an organizationId of null on a team route means "not sent", as on the other organization routes', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const [team] = (await t.api.get(`/auth/organization/list-teams?organizationId=${workspaceId}`, owner.token)).body;
    const other = await t.api.signUp();
    await addMember(t.databaseUrl, workspaceId, other.user.id, 'member');
    const add = await t.api.post('/auth/organization/add-team-member', { teamId: team.id, userId: other.user.id, organizationId: null }, owner.token);
    expect(add.status).toBe(200);
    expect(add.body).toMatchObject({ teamId: team.id, userId: other.user.id });
    const removed = await t.api.post('/auth/organization/remove-team-member', { teamId: team.id, userId: other.user.id, organizationId: null }, owner.token);
    expect(removed.body).toEqual({ message: 'Team member removed successfully.' });
  });
});

describe('API key scopes', () => {
  it('a scoped key cannot mint a key with more than its own scopes; it may mint a narrower one', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const scopedKey = (await t.api.post('/auth/api-key/create', { permissions: { task: ['read', 'update'] } }, owner.token)).body;
    const scoped = scopedKey.key;
    const before = (await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM api_key`))[0].n;
    for (const body of [{}, { permissions: { task: ['read', 'delete'] } }, { permissions: { project: ['read'] } }]) {
      const res = await t.api.post('/auth/api-key/create', body, scoped);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: 'Insufficient API key scope' });
    }
    expect((await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM api_key`))[0].n).toBe(before);
    const narrower = await t.api.post('/auth/api-key/create', { permissions: { task: ['read'] } }, scoped);
    expect(narrower.status).toBe(200);
    // its parent never expires, so neither does it
    expect(narrower.body).toEqual({
      id: expect.any(String),
      name: null,
      start: narrower.body.key.slice(0, 10),
      key: expect.stringMatching(/^tdm_/),
      permissions: { task: ['read'] },
      parentKeyId: scopedKey.id,
      createdAt: expect.any(String),
      expiresAt: null,
    });
    // The minted key is no stronger than asked: it cannot create a project.
    const res = await t.api.post('/project', { name: 'P', workspaceId }, narrower.body.key);
    expect(res.status).toBe(403);
  });

  it("a scoped key cannot revoke the user's other keys; it may revoke itself", async () => {
    const { owner } = await ownerWithWorkspace(t);
    const full = (await t.api.post('/auth/api-key/create', {}, owner.token)).body;
    const scoped = (await t.api.post('/auth/api-key/create', { permissions: { task: ['read'] } }, owner.token)).body;
    const res = await t.api.post('/auth/api-key/delete', { keyId: full.id }, scoped.key);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Insufficient API key scope' });
    expect((await t.api.get('/auth/get-session', full.key)).status).toBe(200);
    const self = await t.api.post('/auth/api-key/delete', { keyId: scoped.id }, scoped.key);
    expect(self.body).toEqual({ success: true });
    expect((await t.api.get('/auth/get-session', scoped.key)).status).toBe(401);
  });
});
