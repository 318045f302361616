import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** Project positions, PUT /project/reorder and the public board (docs/compatibility.md, "Projects"). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const order = (list: { id: string; position: number }[]) => list.map((p) => [p.id, p.position]);

describe('project positions and reorder', () => {
  it('new projects go last; GET /project sorts by position; reorder renumbers 0..n-1 and answers every project', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const p = [];
    for (const name of ['A', 'B', 'C', 'D']) p.push(await createProject(t, owner.token, workspaceId, { name }));
    expect(p.map((x) => x.position)).toEqual([0, 1, 2, 3]);
    await t.api.put(`/project/${p[1].id}/archive`, undefined, owner.token);

    // C first; A at 2 (ties go to the listed project); the others keep their order.
    const res = await t.api.put(
      `/project/reorder?workspaceId=${workspaceId}`,
      {
        projects: [
          { id: p[2].id, position: 0 },
          { id: p[0].id.toUpperCase(), position: 2 },
        ],
      },
      owner.token,
    );
    expect(res.status).toBe(200);
    expect(order(res.body)).toEqual([
      [p[2].id, 0],
      [p[1].id, 1],
      [p[0].id, 2],
      [p[3].id, 3],
    ]);
    expect(res.body[1].archivedAt).toEqual(expect.any(String));
    expect(res.body[0]).toEqual({ ...p[2], position: 0 });
    const listed = await t.api.get(`/project?workspaceId=${workspaceId}`, owner.token);
    expect(order(listed.body)).toEqual([
      [p[2].id, 0],
      [p[0].id, 2],
      [p[3].id, 3],
    ]);
    // Positions beyond the end and gaps are renumbered.
    const last = await t.api.put(`/project/reorder?workspaceId=${workspaceId}`, { projects: [{ id: p[2].id, position: 900 }] }, owner.token);
    expect(order(last.body)).toEqual([
      [p[1].id, 0],
      [p[0].id, 1],
      [p[3].id, 2],
      [p[2].id, 3],
    ]);
    // An empty list only renumbers (nothing to do here).
    expect(order((await t.api.put(`/project/reorder?workspaceId=${workspaceId}`, { projects: [] }, owner.token)).body)).toEqual(order(last.body));
    // A project created afterwards goes last.
    expect((await createProject(t, owner.token, workspaceId)).position).toBe(4);
  });

  it('refuses projects of another workspace, twice-listed or malformed ids, and changes nothing', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const mine = await createProject(t, owner.token, workspaceId);
    const other = await t.api.createWorkspace(owner.token);
    const elsewhere = await createProject(t, owner.token, other.id);
    const cases: [unknown, string][] = [
      [
        {
          projects: [
            { id: mine.id, position: 1 },
            { id: elsewhere.id, position: 0 },
          ],
        },
        `Project ${elsewhere.id} does not belong to this workspace`,
      ],
      [{ projects: [{ id: MISSING_ID, position: 0 }] }, `Project ${MISSING_ID} does not belong to this workspace`],
      [{ projects: [{ id: 'nope', position: 0 }] }, 'Project nope does not belong to this workspace'],
      [
        {
          projects: [
            { id: mine.id, position: 0 },
            { id: mine.id, position: 1 },
          ],
        },
        `Project ${mine.id} is listed more than once`,
      ],
      [{ projects: [{ id: mine.id, position: -1 }] }, 'projects.0.position must not be less than 0'],
      [{ projects: [{ id: mine.id }] }, 'projects.0.position must be an integer number'],
      [{ projects: 'all' }, 'projects must be an array'],
      [{ projects: [], workspaceId }, 'property workspaceId should not exist'],
    ];
    for (const [body, message] of cases) {
      const res = await t.api.put(`/project/reorder?workspaceId=${workspaceId}`, body, owner.token);
      expect([res.status, res.body.message]).toEqual([400, expect.stringContaining(message)]);
    }
    expect((await t.api.put(`/project/reorder`, { projects: [] }, owner.token)).body).toEqual({ message: 'workspaceId is required' });
    const [row] = await sql(t.databaseUrl, `SELECT position FROM project WHERE id = $1`, [elsewhere.id]);
    expect(row.position).toBe(0);
    expect((await t.api.get(`/project/${mine.id}`, owner.token)).body.position).toBe(0);
  });

  it('needs project:update in the workspace; a stranger gets 404', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const p = await createProject(t, owner.token, workspaceId);
    const member = await userWithRole(t, workspaceId, 'member');
    const stranger = await t.api.signUp();
    const body = { projects: [{ id: p.id, position: 0 }] };
    expect((await t.api.put(`/project/reorder?workspaceId=${workspaceId}`, body, member.token)).body).toEqual({ message: 'Insufficient permissions: project:update is needed' });
    expect((await t.api.put(`/project/reorder?workspaceId=${workspaceId}`, body, stranger.token)).body).toEqual({ message: 'Workspace not found' });
    const admin = await userWithRole(t, workspaceId, 'admin');
    expect((await t.api.put(`/project/reorder?workspaceId=${workspaceId}`, body, admin.token)).status).toBe(200);
  });
});

describe('GET /public-project/:id', () => {
  it('answers the board of a public project to anyone: columns with their tasks, planned and archived tasks, no emails', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Open roadmap', isPublic: true, description: 'What we build next' });
    const first = await createTask(t, owner.token, project.id, { title: 'First', userId: owner.user.id });
    const second = await createTask(t, owner.token, project.id, { title: 'Second' });
    const done = await createTask(t, owner.token, project.id, { title: 'Shipped', status: 'done' });
    const planned = await createTask(t, owner.token, project.id, { title: 'Someday', status: 'planned' });
    const archived = await createTask(t, owner.token, project.id, { title: 'Old', status: 'archived' });
    await t.api.post(`/comment/${first.id}`, { content: 'internal remark' }, owner.token);

    const res = await t.api.get(`/public-project/${project.id}`);
    expect(res.status).toBe(200);
    const columns = (await t.api.get(`/column/${project.id}`, owner.token)).body;
    expect(res.body).toEqual({
      ...project,
      columns: columns.map((c: any) => {
        const tasks = c.slug === 'to-do' ? [first, second] : c.slug === 'done' ? [done] : [];
        return { ...c, tasks, taskCount: tasks.length };
      }),
      plannedTasks: [planned],
      plannedTaskCount: 1,
      archivedTasks: [archived],
      archivedTaskCount: 1,
    });
    expect(res.text).not.toContain(owner.user.email);
    expect(res.text).not.toContain('internal remark');
    // The same for a signed-in stranger.
    const stranger = await t.api.signUp();
    expect((await t.api.get(`/public-project/${project.id}`, stranger.token)).body).toEqual(res.body);
  });

  it('a private, unknown or malformed project is 404 the same way, so a private project does not show it exists', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const secret = await createProject(t, owner.token, workspaceId, { name: 'Secret' });
    await createTask(t, owner.token, secret.id, { title: 'Hidden' });
    for (const id of [secret.id, MISSING_ID, 'nope']) {
      const res = await t.api.get(`/public-project/${id}`);
      expect([id, res.status, res.body]).toEqual([id, 404, { message: 'Project not found' }]);
    }
    // Not even its own owner sees it through the public route.
    expect((await t.api.get(`/public-project/${secret.id}`, owner.token)).status).toBe(404);
    // Made public it shows; made private again it is gone at once.
    await t.api.put(`/project/${secret.id}`, { isPublic: true }, owner.token);
    expect((await t.api.get(`/public-project/${secret.id}`)).status).toBe(200);
    await t.api.put(`/project/${secret.id}`, { isPublic: false }, owner.token);
    expect((await t.api.get(`/public-project/${secret.id}`)).body).toEqual({ message: 'Project not found' });
  });

  it('counts each client address against RATE_LIMIT_API', async () => {
    const limited = await startTestApp({ APP_ROLES: 'api', RATE_LIMIT_API: '2' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.api.get(`/public-project/${MISSING_ID}`)).status);
      expect(statuses).toEqual([404, 404, 429]);
    } finally {
      await limited.close();
    }
  });
});
