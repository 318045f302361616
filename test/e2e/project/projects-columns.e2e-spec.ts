import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/** A project's fields with their defaults; each use adds its workspaceId, name and slug. */
const PROJECT_SHAPE = {
  id: expect.any(String),
  icon: null,
  description: null,
  createdAt: expect.any(String),
  isPublic: false,
  archivedAt: null,
  position: expect.any(Number),
};

describe('projects', () => {
  it('creates a project with exactly the spec fields and the four default columns', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const res = await t.api.post('/project', { name: 'Customer Support Portal', workspaceId }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...PROJECT_SHAPE, workspaceId, name: 'Customer Support Portal', slug: 'CSP' });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);

    const cols = await t.api.get(`/column/${res.body.id}`, owner.token);
    expect(cols.status).toBe(200);
    expect(cols.body.map((c: any) => [c.name, c.slug, c.position, c.isFinal])).toEqual([
      ['To Do', 'to-do', 0, false],
      ['In Progress', 'in-progress', 1, false],
      ['In Review', 'in-review', 2, false],
      ['Done', 'done', 3, true],
    ]);
    expect(cols.body[0]).toEqual({
      id: expect.any(String),
      projectId: res.body.id,
      name: 'To Do',
      slug: 'to-do',
      position: 0,
      icon: null,
      color: null,
      isFinal: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('takes optional fields and an explicit key; a taken key is 409, a derived one gets a number', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const a = await t.api.post('/project', { name: 'Backend', workspaceId, slug: 'API', icon: '🚀', description: 'the API', isPublic: true }, owner.token);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ slug: 'API', icon: '🚀', description: 'the API', isPublic: true });

    const taken = await t.api.post('/project', { name: 'Other', workspaceId, slug: 'api' }, owner.token);
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ message: 'Slug is already taken' });

    const derived1 = await createProject(t, owner.token, workspaceId, { name: 'API' });
    const derived2 = await createProject(t, owner.token, workspaceId, { name: 'api' });
    expect([derived1.slug, derived2.slug]).toEqual(['API2', 'API3']);

    // Keys are per workspace.
    const other = await ownerWithWorkspace(t);
    expect((await createProject(t, other.owner.token, other.workspaceId, { name: 'API' })).slug).toBe('API');
  });

  it('validates the body', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const cases: [unknown, number, string][] = [
      [{ workspaceId }, 400, 'name must be a string'],
      [{ name: '  ', workspaceId }, 400, 'name must be longer than or equal to 1 characters'],
      [{ name: 'X', workspaceId, slug: 'has space' }, 400, 'slug must be 1-64 letters or digits (dashes and underscores allowed inside)'],
      [{ name: 'X', workspaceId, slug: 'x'.repeat(65) }, 400, 'slug must be 1-64 letters or digits (dashes and underscores allowed inside)'],
      [{ name: 'X', workspaceId, isPublic: 'yes' }, 400, 'isPublic must be a boolean value'],
      [{ name: 'X', workspaceId, taskCounter: 5 }, 400, 'property taskCounter should not exist'],
      [{ name: 'X' }, 400, 'workspaceId is required'],
      [{ name: 'X', workspaceId: 'nope' }, 404, 'Workspace not found'],
      [{ name: 'X', workspaceId: MISSING_ID }, 404, 'Workspace not found'],
    ];
    for (const [body, status, message] of cases) {
      const res = await t.api.post('/project', body, owner.token);
      expect([res.status, res.body.message]).toEqual([status, expect.stringContaining(message)]);
    }
  });

  it('lists projects oldest first, archived ones only on request; archive and unarchive', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const p1 = await createProject(t, owner.token, workspaceId, { name: 'One' });
    const p2 = await createProject(t, owner.token, workspaceId, { name: 'Two' });

    const archived = await t.api.put(`/project/${p1.id}/archive`, undefined, owner.token);
    expect(archived.status).toBe(200);
    expect(archived.body.archivedAt).toEqual(expect.any(String));
    const again = await t.api.put(`/project/${p1.id}/archive`, undefined, owner.token);
    expect(again.body.archivedAt).toBe(archived.body.archivedAt);

    const visible = await t.api.get(`/project?workspaceId=${workspaceId}`, owner.token);
    expect(visible.status).toBe(200);
    expect(visible.body.map((p: any) => p.id)).toEqual([p2.id]);
    const all = await t.api.get(`/project?workspaceId=${workspaceId}&includeArchived=true`, owner.token);
    expect(all.body.map((p: any) => p.id)).toEqual([p1.id, p2.id]);
    expect(all.body[0]).toEqual({ ...PROJECT_SHAPE, id: p1.id, workspaceId, name: 'One', slug: 'ONE', archivedAt: archived.body.archivedAt });

    const un = await t.api.put(`/project/${p1.id}/unarchive`, undefined, owner.token);
    expect(un.status).toBe(200);
    expect(un.body.archivedAt).toBeNull();
    expect((await t.api.get(`/project?workspaceId=${workspaceId}`, owner.token)).body).toHaveLength(2);

    expect((await t.api.get(`/project`, owner.token)).body).toEqual({ message: 'workspaceId is required' });
    expect((await t.api.get(`/project?workspaceId=${workspaceId}&includeArchived=maybe`, owner.token)).status).toBe(400);
  });

  it('gets, updates and deletes a project; delete cascades to its columns, tasks and activities', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const p = await createProject(t, owner.token, workspaceId, { name: 'Web', slug: 'WEB' });
    const other = await createProject(t, owner.token, workspaceId, { name: 'Mobile', slug: 'MOB' });
    expect((await t.api.get(`/project/${p.id}`, owner.token)).body).toEqual(p);

    const upd = await t.api.put(`/project/${p.id}`, { name: 'Website', description: 'Marketing site', isPublic: true, icon: 'globe' }, owner.token);
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ ...p, name: 'Website', description: 'Marketing site', isPublic: true, icon: 'globe' });
    const cleared = await t.api.put(`/project/${p.id}`, { description: null }, owner.token);
    expect(cleared.body.description).toBeNull();
    expect((await t.api.put(`/project/${p.id}`, { slug: 'mob' }, owner.token)).status).toBe(409);
    expect((await t.api.put(`/project/${p.id}`, { workspaceId: MISSING_ID }, owner.token)).status).toBe(400);
    expect((await t.api.put(`/project/${p.id}`, {}, owner.token)).body).toEqual(cleared.body);

    const task = await createTask(t, owner.token, p.id);
    const del = await t.api.delete(`/project/${p.id}`, owner.token);
    expect(del.status).toBe(200);
    expect(del.body.id).toBe(p.id);
    expect((await t.api.get(`/project/${p.id}`, owner.token)).status).toBe(404);
    const [left] = await sql(
      t.databaseUrl,
      `SELECT (SELECT count(*) FROM board_column WHERE project_id = $1)::int AS cols,
              (SELECT count(*) FROM task WHERE project_id = $1)::int AS tasks,
              (SELECT count(*) FROM activity WHERE task_id = $2)::int AS acts`,
      [p.id, task.id],
    );
    expect(left).toEqual({ cols: 0, tasks: 0, acts: 0 });
    expect((await t.api.get(`/project/${other.id}`, owner.token)).status).toBe(200);
  });

  it('lets members create projects but only owners/admins change them; viewers only read', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const member = await userWithRole(t, workspaceId, 'member');
    const admin = await userWithRole(t, workspaceId, 'admin');
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const p = await createProject(t, member.token, workspaceId);
    const forbidden = { message: 'Insufficient permissions: project:update is needed' };
    const cols = (await t.api.get(`/column/${p.id}`, owner.token)).body;

    for (const u of [member, viewer]) {
      expect((await t.api.put(`/project/${p.id}`, { name: 'X' }, u.token)).body).toEqual(forbidden);
      expect((await t.api.put(`/project/${p.id}/archive`, undefined, u.token)).status).toBe(403);
      expect((await t.api.delete(`/project/${p.id}`, u.token)).status).toBe(403);
      expect((await t.api.post(`/column/${p.id}`, { name: 'QA' }, u.token)).status).toBe(403);
      expect((await t.api.put(`/column/${cols[0].id}`, { name: 'X' }, u.token)).body).toEqual(forbidden);
      expect((await t.api.delete(`/column/${cols[3].id}`, u.token)).body).toEqual(forbidden);
      expect((await t.api.put(`/column/reorder/${p.id}`, { columns: [{ id: cols[0].id, position: 9 }] }, u.token)).body).toEqual(forbidden);
      expect((await t.api.get(`/project/${p.id}`, u.token)).status).toBe(200);
      expect((await t.api.get(`/column/${p.id}`, u.token)).status).toBe(200);
    }
    expect((await t.api.post('/project', { name: 'V', workspaceId }, viewer.token)).status).toBe(403);
    expect((await t.api.put(`/project/${p.id}`, { name: 'By admin' }, admin.token)).status).toBe(200);
    expect((await t.api.post(`/column/${p.id}`, { name: 'QA' }, admin.token)).status).toBe(200);
    expect((await t.api.delete(`/project/${p.id}`, owner.token)).status).toBe(200);
  });
});

describe('columns', () => {
  it('adds a column at the end with a slug from its name; reserved and duplicate slugs are 409', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const p = await createProject(t, owner.token, workspaceId);
    const res = await t.api.post(`/column/${p.id}`, { name: 'Ready for QA', color: '#22c55e', icon: 'check', isFinal: false }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      projectId: p.id,
      name: 'Ready for QA',
      slug: 'ready-for-qa',
      position: 4,
      icon: 'check',
      color: '#22c55e',
      isFinal: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    for (const name of ['Planned', 'ARCHIVED']) {
      const r = await t.api.post(`/column/${p.id}`, { name }, owner.token);
      expect(r.status).toBe(409);
      expect(r.body.message).toBe(`Column slug "${name.toLowerCase()}" is reserved`);
    }
    const dup = await t.api.post(`/column/${p.id}`, { name: 'in progress' }, owner.token);
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ message: 'Column slug "in-progress" already exists in this project' });
    expect((await t.api.post(`/column/${p.id}`, { name: '!!!' }, owner.token)).body).toEqual({ message: 'name must contain a letter or digit' });
    expect((await t.api.post(`/column/${p.id}`, { name: 'X', slug: 'x' }, owner.token)).status).toBe(400);
    expect((await t.api.post(`/column/${MISSING_ID}`, { name: 'X' }, owner.token)).body).toEqual({ message: 'Project not found' });
    expect((await t.api.post(`/column/not-a-uuid`, { name: 'X' }, owner.token)).status).toBe(404);
  });

  it('updates name, icon, color and isFinal; the slug stays', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const p = await createProject(t, owner.token, workspaceId);
    const [todo] = (await t.api.get(`/column/${p.id}`, owner.token)).body;
    const res = await t.api.put(`/column/${todo.id}`, { name: 'Backlog', color: '#000000', icon: 'inbox', isFinal: true }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: todo.id, name: 'Backlog', slug: 'to-do', color: '#000000', icon: 'inbox', isFinal: true, position: 0 });
    expect((await t.api.put(`/column/${todo.id}`, { slug: 'x' }, owner.token)).status).toBe(400);
    expect((await t.api.put(`/column/${MISSING_ID}`, { name: 'x' }, owner.token)).body).toEqual({ message: 'Column not found' });
  });

  it('deletes an empty column; one holding tasks is 409', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const p = await createProject(t, owner.token, workspaceId);
    const cols = (await t.api.get(`/column/${p.id}`, owner.token)).body;
    await createTask(t, owner.token, p.id, { status: 'to-do' });
    const busy = await t.api.delete(`/column/${cols[0].id}`, owner.token);
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({ message: 'Column still holds tasks; move them first' });
    const del = await t.api.delete(`/column/${cols[2].id}`, owner.token);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: cols[2].id, slug: 'in-review' });
    expect((await t.api.get(`/column/${p.id}`, owner.token)).body.map((c: any) => c.slug)).toEqual(['to-do', 'in-progress', 'done']);
    expect((await t.api.delete(`/column/${cols[2].id}`, owner.token)).status).toBe(404);

    // The board keeps at least one column.
    const empty = await createProject(t, owner.token, workspaceId);
    const four = (await t.api.get(`/column/${empty.id}`, owner.token)).body;
    for (const c of four.slice(1)) expect((await t.api.delete(`/column/${c.id}`, owner.token)).status).toBe(200);
    const last = await t.api.delete(`/column/${four[0].id}`, owner.token);
    expect([last.status, last.body]).toEqual([409, { message: 'A project needs at least one column' }]);
  });

  it('reorders all listed columns together and answers {}', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const p = await createProject(t, owner.token, workspaceId);
    const cols = (await t.api.get(`/column/${p.id}`, owner.token)).body;
    const res = await t.api.put(`/column/reorder/${p.id}`, { columns: cols.map((c: any, i: number) => ({ id: c.id, position: 3 - i })) }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await t.api.get(`/column/${p.id}`, owner.token)).body.map((c: any) => [c.slug, c.position])).toEqual([
      ['done', 0],
      ['in-review', 1],
      ['in-progress', 2],
      ['to-do', 3],
    ]);
  });

  it('reorder is all or nothing: a column of another project is 400 and nothing moves', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const p = await createProject(t, owner.token, workspaceId);
    const q = await createProject(t, owner.token, workspaceId);
    const cols = (await t.api.get(`/column/${p.id}`, owner.token)).body;
    const foreign = (await t.api.get(`/column/${q.id}`, owner.token)).body[0];
    const before = await sql(t.databaseUrl, `SELECT id, position, updated_at FROM board_column WHERE project_id = $1 ORDER BY id`, [p.id]);

    const res = await t.api.put(
      `/column/reorder/${p.id}`,
      {
        columns: [
          { id: cols[0].id, position: 9 },
          { id: foreign.id, position: 0 },
          { id: cols[1].id, position: 8 },
        ],
      },
      owner.token,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `Column ${foreign.id} does not belong to this project` });
    const malformed = await t.api.put(
      `/column/reorder/${p.id}`,
      {
        columns: [
          { id: cols[0].id, position: 9 },
          { id: 'zzz', position: 1 },
        ],
      },
      owner.token,
    );
    expect(malformed.body).toEqual({ message: 'Column zzz does not belong to this project' });
    expect(await sql(t.databaseUrl, `SELECT id, position, updated_at FROM board_column WHERE project_id = $1 ORDER BY id`, [p.id])).toEqual(before);

    expect((await t.api.put(`/column/reorder/${p.id}`, { columns: [{ id: cols[0].id, position: -1 }] }, owner.token)).status).toBe(400);
    expect((await t.api.put(`/column/reorder/${p.id}`, { columns: 'x' }, owner.token)).status).toBe(400);
    expect(
      (
        await t.api.put(
          `/column/reorder/${p.id}`,
          {
            columns: [
              { id: cols[0].id, position: 1 },
              { id: cols[0].id, position: 2 },
            ],
          },
          owner.token,
        )
      ).status,
    ).toBe(400);
    expect((await t.api.put(`/column/reorder/${MISSING_ID}`, { columns: [] }, owner.token)).body).toEqual({ message: 'Project not found' });
  });
});
