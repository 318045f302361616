import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { isOutboxWake, recordQueries } from '../../support/query-counter';
import { createProject, createTask, ownerWithWorkspace, taskOnBoard, userWithRole } from '../../support/work-items';

/**
 * What clients of the original API send (docs/compatibility.md, "Tolerant inputs"): "" as none,
 * `status: ""` on create, the current projectId on PUT /task/:id, long slugs, palette colors, a
 * label detach without a body. Everything else stays strict.
 */
let t: TestApp;
beforeAll(async () => {
  // API role only: statement counts must not see the outbox relay's polling.
  t = await startTestApp({ APP_ROLES: 'api', DATABASE_POOL_SIZE: '10' });
});
afterAll(() => t?.close());

const activities = (taskId: string) => sql(t.databaseUrl, `SELECT type FROM activity WHERE task_id = $1 ORDER BY created_at, id`, [taskId]);

describe('"" means none', () => {
  it('on create: userId, dueDate and startDate "" are null, status "" is the first column', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    const res = await t.api.post(`/task/${project.id}`, { title: 'From a CLI', userId: '', dueDate: '', startDate: '', status: '' }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: null, dueDate: null, startDate: null, status: 'to-do', number: 1 });
    // A member without task:assign may send "" (it is no assignment).
    const member = await userWithRole(t, workspaceId, 'member');
    expect((await t.api.post(`/task/${project.id}`, { title: 'x', userId: '' }, member.token)).status).toBe(200);
  });

  it('on PUT /task/:id and PUT /task/assignee/:id, userId "" unassigns (with its activity); dates "" clear', async () => {
    const { owner, task } = await taskOnBoard(t);
    await t.api.put(`/task/${task.id}`, { userId: owner.user.id, dueDate: '2030-01-01T00:00:00Z', startDate: '2029-01-01T00:00:00Z' }, owner.token);
    const cleared = await t.api.put(`/task/${task.id}`, { userId: '', dueDate: '', startDate: '' }, owner.token);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ userId: null, dueDate: null, startDate: null });
    await t.api.put(`/task/assignee/${task.id}`, { userId: owner.user.id }, owner.token);
    const unassigned = await t.api.put(`/task/assignee/${task.id}`, { userId: '' }, owner.token);
    expect([unassigned.status, unassigned.body.userId]).toEqual([200, null]);
    expect((await activities(task.id)).map((a) => a.type)).toEqual([
      'created',
      'start_date_changed',
      'due_date_changed',
      'assignee_changed',
      'start_date_changed',
      'due_date_changed',
      'unassigned',
      'assignee_changed',
      'unassigned',
    ]);
  });

  it('PUT /task/due-date/:id with dueDate omitted or "" clears it', async () => {
    const { owner, task } = await taskOnBoard(t);
    for (const body of [{}, { dueDate: '' }, { dueDate: null }]) {
      expect((await t.api.put(`/task/due-date/${task.id}`, { dueDate: '2030-05-01T00:00:00Z' }, owner.token)).body.dueDate).toBe('2030-05-01T00:00:00.000Z');
      const res = await t.api.put(`/task/due-date/${task.id}`, body, owner.token);
      expect([JSON.stringify(body), res.status, res.body.dueDate]).toEqual([JSON.stringify(body), 200, null]);
    }
  });

  it('everything else stays strict', async () => {
    const { owner, project, task } = await taskOnBoard(t);
    const cases: [string, string, unknown, string][] = [
      ['POST', `/task/${project.id}`, { title: 'x', userId: ' ' }, 'userId must be a UUID'],
      ['POST', `/task/${project.id}`, { title: 'x', dueDate: ' ' }, 'dueDate must be a valid ISO 8601 date string'],
      ['POST', `/task/${project.id}`, { title: 'x', status: null }, 'status must be longer than or equal to 1 characters, status must be a string'],
      ['POST', `/task/${project.id}`, { title: 'x', projectId: project.id }, 'property projectId should not exist'],
      ['POST', `/task/${project.id}`, { title: '' }, 'title must be longer than or equal to 1 characters'],
      ['PUT', `/task/${task.id}`, { status: '' }, 'status must be longer than or equal to 1 characters'],
      ['PUT', `/task/${task.id}`, { projectId: null }, 'projectId must be shorter than or equal to 100 characters, projectId must be a string'],
      ['PUT', `/task/${task.id}`, { workspaceId: project.workspaceId }, 'property workspaceId should not exist'],
      ['PUT', `/task/assignee/${task.id}`, {}, 'userId must be a UUID'],
      ['PUT', `/task/due-date/${task.id}`, { dueDate: 'soon' }, 'dueDate must be a valid ISO 8601 date string'],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await t.api.request(method, path, body, { token: owner.token });
      expect([method, path, res.status, res.body]).toEqual([method, path, 400, { message }]);
    }
  });
});

describe('PUT /task/:id with projectId', () => {
  it('accepts the current project (any case) with position and the other fields', async () => {
    const { owner, project, task } = await taskOnBoard(t);
    const res = await t.api.put(`/task/${task.id}`, { projectId: project.id.toUpperCase(), title: 'Renamed', position: 7, status: 'in-progress' }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ projectId: project.id, title: 'Renamed', position: 7, status: 'in-progress' });
  });

  it('refuses another project (even one the caller owns, or a made-up id) and changes nothing', async () => {
    const { owner, workspaceId, project, task } = await taskOnBoard(t);
    const other = await createProject(t, owner.token, workspaceId);
    for (const projectId of [other.id, 'not-a-project', '00000000-0000-4000-8000-000000000000']) {
      const res = await t.api.put(`/task/${task.id}`, { projectId, title: 'Moved?' }, owner.token);
      expect([projectId, res.status, res.body]).toEqual([projectId, 400, { message: 'Use PUT /task/move/{id} to move a task to another project' }]);
    }
    expect((await t.api.get(`/task/${task.id}`, owner.token)).body).toMatchObject({ projectId: project.id, title: task.title });
    expect((await activities(task.id)).map((a) => a.type)).toEqual(['created']);
  });

  it('costs no statement more than PUT without it', async () => {
    const { owner, project, task } = await taskOnBoard(t);
    await t.api.get(`/task/${task.id}`, owner.token); // prepared statements warm
    const rec = recordQueries();
    const res = await t.api.put(`/task/${task.id}`, { projectId: project.id, title: 'Counted' }, owner.token);
    rec.stop();
    expect(res.status).toBe(200);
    // Session check with the permission lookup, read, write (and the relay's wake after the commit,
    // apart): as asserted for PUT /task/status/:id in tasks.e2e-spec.ts.
    expect(rec.statements.filter((q) => !isOutboxWake(q))).toHaveLength(3);
  });
});

describe('project slugs', () => {
  it('take 1-64 letters of any script, digits, - and _ inside; 65 characters are refused; still unique case-insensitively', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const long = `cli-test-${Date.now()}`;
    expect(long).toHaveLength(22);
    for (const slug of [long, 'x'.repeat(64), 'Проект', 'プロジェクト', 'a_b-c', 'Ä']) {
      const res = await t.api.post('/project', { name: 'P', workspaceId, slug }, owner.token);
      expect([slug, res.status, res.body.slug]).toEqual([slug, 200, slug]);
    }
    const MSG = 'slug must be 1-64 letters or digits (dashes and underscores allowed inside)';
    for (const slug of ['x'.repeat(65), '-a', 'a-', 'a b', 'a.b', '🚀']) {
      const res = await t.api.post('/project', { name: 'P', workspaceId, slug }, owner.token);
      expect([slug, res.status, res.body]).toEqual([slug, 400, { message: MSG }]);
    }
    expect((await t.api.post('/project', { name: 'P', workspaceId, slug: 'проект' }, owner.token)).body).toEqual({ message: 'Slug is already taken' });
    // One key typed two ways (composed and decomposed Ä) is one key.
    expect((await t.api.post('/project', { name: 'P', workspaceId, slug: 'A\u0308' }, owner.token)).body).toEqual({ message: 'Slug is already taken' });
  });

  it('a long key still finds its tasks in search as KEY-n', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const slug = `cli-test-${Date.now()}`;
    const project = await createProject(t, owner.token, workspaceId, { slug });
    const task = await createTask(t, owner.token, project.id, { title: 'Findable' });
    const res = await t.api.get(`/search?q=${slug}-1&type=tasks`, owner.token);
    expect(res.body.tasks.map((x: any) => x.id)).toEqual([task.id]);
  });
});

describe('labels', () => {
  it('take the palette names as colors, stored as given', async () => {
    const { owner, workspaceId, task } = await taskOnBoard(t);
    for (const color of ['gray', 'dark-gray', 'purple', 'teal', 'green', 'yellow', 'orange', 'pink', 'red']) {
      const res = await t.api.post('/label', { name: `L-${color}`, color, workspaceId, taskId: task.id }, owner.token);
      expect([color, res.status, res.body.color]).toEqual([color, 200, color]);
    }
    const label = (await t.api.post('/label', { name: 'hex', color: '#123456', workspaceId }, owner.token)).body;
    expect((await t.api.put(`/label/${label.id}`, { color: 'teal' }, owner.token)).body.color).toBe('teal');
    expect((await t.api.put(`/label/${label.id}`, { color: 'navy' }, owner.token)).status).toBe(400);
  });

  it('DELETE /label/:id/task without a body detaches the task copy :id; a catalogue id without taskId is refused', async () => {
    const { owner, workspaceId, task } = await taskOnBoard(t);
    const copy = (await t.api.post('/label', { name: 'bug', color: 'red', workspaceId, taskId: task.id }, owner.token)).body;
    const catalogue = (await t.api.get(`/label/workspace/${workspaceId}`, owner.token)).body[0];
    const refused = await t.api.delete(`/label/${catalogue.id}/task`, owner.token);
    expect([refused.status, refused.body]).toEqual([400, { message: 'taskId is required to detach a workspace label' }]);
    const res = await t.api.delete(`/label/${copy.id}/task`, owner.token);
    expect([res.status, res.body]).toEqual([200, copy]);
    expect((await t.api.get(`/label/task/${task.id}`, owner.token)).body).toEqual([]);
    // An empty JSON body works the same; the copy is gone now.
    const again = await t.api.delete(`/label/${copy.id}/task`, owner.token, {});
    expect([again.status, again.body]).toEqual([404, { message: 'Label not found' }]);
    // The {taskId} form stays.
    await t.api.put(`/label/${catalogue.id}/task`, { taskId: task.id }, owner.token);
    expect((await t.api.delete(`/label/${catalogue.id}/task`, owner.token, { taskId: task.id })).status).toBe(200);
    expect((await t.api.delete(`/label/${catalogue.id}/task`, owner.token, { taskId: task.id, extra: 1 })).status).toBe(400);
  });
});
