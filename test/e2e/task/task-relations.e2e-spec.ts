import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace, taskOnBoard, userWithRole } from '../../support/work-items';

/** Task relations (docs/compatibility.md, "Task relations"). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const relate = (token: string, sourceTaskId: string, targetTaskId: string, relationType: string) =>
  t.api.post('/task-relation', { sourceTaskId, targetTaskId, relationType }, token);

describe('task relations', () => {
  it('relates two tasks (also across projects of the workspace) and lists them from either end with both tasks', async () => {
    const { owner, workspaceId, project, task: parent } = await taskOnBoard(t);
    const member = await userWithRole(t, workspaceId, 'member');
    const child = await createTask(t, owner.token, project.id, { title: 'Child', userId: member.user.id, priority: 'high' });
    const elsewhere = await createTask(t, owner.token, (await createProject(t, owner.token, workspaceId)).id, { title: 'Elsewhere' });

    const sub = await relate(owner.token, parent.id, child.id, 'subtask');
    expect(sub.status).toBe(200);
    expect(sub.body).toEqual({ id: expect.any(String), sourceTaskId: parent.id, targetTaskId: child.id, relationType: 'subtask', createdAt: expect.any(String) });
    // A member (task:update) may relate; ids in any case.
    const blocks = await relate(member.token, child.id.toUpperCase(), elsewhere.id.toUpperCase(), 'blocks');
    expect(blocks.body).toMatchObject({ sourceTaskId: child.id, targetTaskId: elsewhere.id, relationType: 'blocks' });

    const summary = (x: any, assigneeName: string | null) => ({
      id: x.id,
      title: x.title,
      status: x.status,
      priority: x.priority,
      number: x.number,
      projectId: x.projectId,
      userId: x.userId,
      assigneeName,
    });
    const list = await t.api.get(`/task-relation/${child.id}`, owner.token);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { ...sub.body, sourceTask: summary(parent, null), targetTask: summary(child, member.user.name) },
      { ...blocks.body, sourceTask: summary(child, member.user.name), targetTask: summary(elsewhere, null) },
    ]);
    expect((await t.api.get(`/task-relation/${parent.id}`, owner.token)).body.map((r: any) => r.id)).toEqual([sub.body.id]);
    expect((await t.api.get(`/task-relation/${elsewhere.id}`, owner.token)).body.map((r: any) => r.id)).toEqual([blocks.body.id]);
    // Any member reads them.
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    expect((await t.api.get(`/task-relation/${child.id}`, viewer.token)).body).toEqual(list.body);
  });

  it("a project's relations: those with an end among its tasks, oldest first; none of another project's alone", async () => {
    const { owner, workspaceId, project, task: a } = await taskOnBoard(t);
    const b = await createTask(t, owner.token, project.id, { title: 'B' });
    const other = await createProject(t, owner.token, workspaceId);
    const c = await createTask(t, owner.token, other.id, { title: 'C' });
    const d = await createTask(t, owner.token, other.id, { title: 'D' });
    const ab = (await relate(owner.token, a.id, b.id, 'blocks')).body;
    const ca = (await relate(owner.token, c.id, a.id, 'blocks')).body;
    const cd = (await relate(owner.token, c.id, d.id, 'related')).body;
    const list = async (projectId: string) => ((await t.api.get(`/task-relation/project/${projectId}`, owner.token)).body as { id: string }[]).map((r) => r.id);
    expect(await list(project.id)).toEqual([ab.id, ca.id]);
    expect(await list(other.id)).toEqual([ca.id, cd.id]);
    expect((await t.api.get(`/task-relation/project/${project.id}`, owner.token)).body[0]).toEqual(ab);
    const stranger = await ownerWithWorkspace(t);
    expect((await t.api.get(`/task-relation/project/${project.id}`, stranger.owner.token)).body).toEqual({ message: 'Project not found' });
  });

  it('refuses a relation to itself, a task of another workspace, a repeated pair and type (either way round), bad types', async () => {
    const { owner, workspaceId, project, task: a } = await taskOnBoard(t);
    const b = await createTask(t, owner.token, project.id);
    const ownOtherWorkspace = await t.api.createWorkspace(owner.token);
    const foreignOwn = await createTask(t, owner.token, (await createProject(t, owner.token, ownOtherWorkspace.id)).id);
    const stranger = await taskOnBoard(t);

    expect((await relate(owner.token, a.id, b.id, 'blocks')).status).toBe(200);
    const cases: [string, string, string, number, string][] = [
      [a.id, a.id.toUpperCase(), 'related', 400, 'A task cannot be related to itself'],
      [a.id, foreignOwn.id, 'related', 404, 'Task not found'],
      [a.id, stranger.task.id, 'related', 404, 'Task not found'],
      [a.id, MISSING_ID, 'related', 404, 'Task not found'],
      [a.id, 'nope', 'related', 404, 'Task not found'],
      [stranger.task.id, a.id, 'related', 404, 'Task not found'],
      [a.id, b.id, 'blocks', 409, 'These tasks already have a blocks relation'],
      [b.id, a.id, 'blocks', 409, 'These tasks already have a blocks relation'],
      [a.id, b.id, 'parent', 400, 'relationType must be one of the following values: subtask, blocks, related'],
    ];
    for (const [source, target, type, status, message] of cases) {
      const res = await relate(owner.token, source, target, type);
      expect([source, target, type, res.status, res.body]).toEqual([source, target, type, status, { message }]);
    }
    expect((await t.api.post('/task-relation', { targetTaskId: b.id, relationType: 'related' }, owner.token)).body).toEqual({ message: 'sourceTaskId is required' });
    expect((await t.api.post('/task-relation', { sourceTaskId: a.id, targetTaskId: b.id, relationType: 'related', workspaceId }, owner.token)).status).toBe(400);
    // Another type for the same pair is a relation of its own.
    expect((await relate(owner.token, b.id, a.id, 'related')).status).toBe(200);
    const [{ n }] = await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM task_relation WHERE workspace_id = $1`, [workspaceId]);
    expect(n).toBe(2);
  });

  it('needs task:update to relate or delete; a stranger gets 404', async () => {
    const { owner, workspaceId, project, task: a } = await taskOnBoard(t);
    const b = await createTask(t, owner.token, project.id);
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const stranger = await t.api.signUp();
    expect((await relate(viewer.token, a.id, b.id, 'related')).body).toEqual({ message: 'Insufficient permissions: task:update is needed' });
    expect((await relate(stranger.token, a.id, b.id, 'related')).body).toEqual({ message: 'Task not found' });
    const rel = (await relate(owner.token, a.id, b.id, 'related')).body;
    expect((await t.api.delete(`/task-relation/${rel.id}`, viewer.token)).body).toEqual({ message: 'Insufficient permissions: task:update is needed' });
    expect((await t.api.delete(`/task-relation/${rel.id}`, stranger.token)).body).toEqual({ message: 'Task relation not found' });
    expect((await t.api.get(`/task-relation/${a.id}`, stranger.token)).body).toEqual({ message: 'Task not found' });

    const del = await t.api.delete(`/task-relation/${rel.id}`, owner.token);
    expect([del.status, del.body]).toEqual([200, rel]);
    expect((await t.api.delete(`/task-relation/${rel.id}`, owner.token)).body).toEqual({ message: 'Task relation not found' });
    expect((await t.api.delete(`/task-relation/nope`, owner.token)).body).toEqual({ message: 'Task relation not found' });
    expect((await t.api.get(`/task-relation/${a.id}`, owner.token)).body).toEqual([]);
  });

  it('deleting a task deletes its relations, at either end', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    const [a, b, c] = [await createTask(t, owner.token, project.id), await createTask(t, owner.token, project.id), await createTask(t, owner.token, project.id)];
    await relate(owner.token, a.id, b.id, 'subtask');
    await relate(owner.token, c.id, a.id, 'blocks');
    const kept = (await relate(owner.token, b.id, c.id, 'related')).body;
    expect((await t.api.delete(`/task/${a.id}`, owner.token)).status).toBe(200);
    const left = await sql(t.databaseUrl, `SELECT id FROM task_relation WHERE workspace_id = $1`, [workspaceId]);
    expect(left.map((r) => r.id)).toEqual([kept.id]);
    expect((await t.api.get(`/task-relation/${b.id}`, owner.token)).body.map((r: any) => r.id)).toEqual([kept.id]);
  });
});
