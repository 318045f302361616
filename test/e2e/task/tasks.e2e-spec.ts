import { Client } from 'pg';
import { KeyedGate } from '../../../src/common/concurrency/keyed-gate';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { isOutboxWake, recordQueries } from '../../support/query-counter';
import { until } from '../../support/until';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';

let t: TestApp;
beforeAll(async () => {
  // API role only: the worker's outbox relay polls the database every second and would show up
  // in the statement counts of 'cost of the hot paths'.
  t = await startTestApp({ DATABASE_POOL_SIZE: '10', APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const activities = (taskId: string) => sql(t.databaseUrl, `SELECT type, user_id, content, event_data FROM activity WHERE task_id = $1 ORDER BY created_at, id`, [taskId]);
const VALID = 'to-do, in-progress, in-review, done, planned, archived';

async function board() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId);
  return { owner, workspaceId, project };
}

describe('creating and reading tasks', () => {
  it('creates a task with the spec fields, numbered per project, at the end of its column, with a created activity', async () => {
    const { owner, project } = await board();
    const res = await t.api.post(`/task/${project.id}`, { title: '  First  ' }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      projectId: project.id,
      position: 0,
      number: 1,
      userId: null,
      title: 'First',
      description: null,
      status: 'to-do',
      priority: 'no-priority',
      createdAt: expect.any(String),
      startDate: null,
      dueDate: null,
    });
    const second = await createTask(t, owner.token, project.id, {
      title: 'Second',
      description: 'Body',
      status: 'to-do',
      priority: 'urgent',
      startDate: '2025-05-01T08:00:00Z',
      dueDate: '2025-05-02T17:30:00+02:00',
      userId: owner.user.id,
    });
    expect(second).toMatchObject({
      number: 2,
      position: 1,
      description: 'Body',
      priority: 'urgent',
      userId: owner.user.id,
      startDate: '2025-05-01T08:00:00.000Z',
      dueDate: '2025-05-02T15:30:00.000Z',
    });
    const elsewhere = await createTask(t, owner.token, project.id, { status: 'done' });
    expect([elsewhere.number, elsewhere.position, elsewhere.status]).toEqual([3, 0, 'done']);
    expect(await activities(res.body.id)).toEqual([
      { type: 'created', user_id: owner.user.id, content: 'created the task', event_data: { number: 1, status: 'to-do', priority: 'no-priority', userId: null } },
    ]);
    expect((await t.api.get(`/task/${second.id}`, owner.token)).body).toEqual(second);
  });

  it('accepts the virtual statuses and refuses an unknown one with the contract message', async () => {
    const { owner, project } = await board();
    expect((await createTask(t, owner.token, project.id, { status: 'planned' })).status).toBe('planned');
    expect((await createTask(t, owner.token, project.id, { status: 'archived' })).status).toBe('archived');
    const bad = await t.api.post(`/task/${project.id}`, { title: 'x', status: 'doing' }, owner.token);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: `Invalid status "doing". Valid statuses for this project: ${VALID}` });
    // A refused create hands its number back: the next task still gets 3.
    expect((await createTask(t, owner.token, project.id)).number).toBe(3);
  });

  it('validates input', async () => {
    const { owner, project } = await board();
    const stranger = await t.api.signUp();
    const cases: [unknown, string][] = [
      [{}, 'title must be a string'],
      [{ title: '' }, 'title must be longer than or equal to 1 characters'],
      [{ title: 'x', priority: 'huge' }, 'priority must be one of the following values: no-priority, low, medium, high, urgent'],
      [{ title: 'x', dueDate: 'tomorrow' }, 'dueDate must be a valid ISO 8601 date string'],
      [{ title: 'x', startDate: '2025-02-30T00:00:00Z' }, 'startDate must be a valid ISO 8601 date string'],
      [{ title: 'x', userId: 'bob' }, 'userId must be a UUID'],
      [{ title: 'x', number: 7 }, 'property number should not exist'],
      [{ title: 'x', userId: stranger.user.id }, 'Assignee must be a member of this workspace'],
    ];
    for (const [body, message] of cases) {
      const res = await t.api.post(`/task/${project.id}`, body, owner.token);
      expect([res.status, res.body.message]).toEqual([400, expect.stringContaining(message)]);
    }
    expect((await t.api.post(`/task/${MISSING_ID}`, { title: 'x' }, owner.token)).body).toEqual({ message: 'Project not found' });
    expect((await t.api.get(`/task/${MISSING_ID}`, owner.token)).body).toEqual({ message: 'Task not found' });
    expect((await t.api.get(`/task/123`, owner.token)).body).toEqual({ message: 'Task not found' });
  });

  it('lists with filters, search, sorting and pagination', async () => {
    const { owner, workspaceId, project } = await board();
    const member = await userWithRole(t, workspaceId, 'member');
    await createTask(t, owner.token, project.id, { title: 'Fix login', priority: 'high', userId: member.user.id });
    await createTask(t, owner.token, project.id, { title: 'Write docs', description: 'about 100% coverage', status: 'done', priority: 'low' });
    await createTask(t, owner.token, project.id, { title: 'Deploy_v2', priority: 'urgent' });
    await createTask(t, owner.token, project.id, { title: 'Login page', status: 'in-progress' });
    await createTask(t, owner.token, (await createProject(t, owner.token, workspaceId)).id, { title: 'Other project login' });

    const all = await t.api.get(`/task/tasks/${project.id}`, owner.token);
    expect(all.status).toBe(200);
    expect(all.body.data.map((x: any) => x.number)).toEqual([4, 3, 2, 1]);
    expect(all.body.pagination).toEqual({ total: 4, page: 1, pageSize: 50, totalPages: 1 });
    expect(Object.keys(all.body.data[0]).sort()).toEqual(
      ['id', 'projectId', 'position', 'number', 'userId', 'title', 'description', 'status', 'priority', 'createdAt', 'startDate', 'dueDate'].sort(),
    );

    const get = async (qs: string) => (await t.api.get(`/task/tasks/${project.id}?${qs}`, owner.token)).body;
    expect((await get('status=done')).data.map((x: any) => x.title)).toEqual(['Write docs']);
    expect((await get('priority=urgent')).data.map((x: any) => x.title)).toEqual(['Deploy_v2']);
    expect((await get(`userId=${member.user.id}`)).data.map((x: any) => x.title)).toEqual(['Fix login']);
    expect((await get('q=LOGIN&sortBy=number&sortOrder=asc')).data.map((x: any) => x.title)).toEqual(['Fix login', 'Login page']);
    expect((await get('q=100%25')).data.map((x: any) => x.title)).toEqual(['Write docs']);
    expect((await get('q=_')).data.map((x: any) => x.title)).toEqual(['Deploy_v2']);
    expect((await get('sortBy=priority&sortOrder=desc')).data.map((x: any) => x.priority)).toEqual(['urgent', 'high', 'low', 'no-priority']);
    expect((await get('sortBy=title&sortOrder=asc')).data.map((x: any) => x.title)).toEqual(['Deploy_v2', 'Fix login', 'Login page', 'Write docs']);

    const page2 = await get('limit=3&page=2&sortBy=number&sortOrder=asc');
    expect(page2.data.map((x: any) => x.number)).toEqual([4]);
    expect(page2.pagination).toEqual({ total: 4, page: 2, pageSize: 3, totalPages: 2 });
    expect((await get('page=9')).pagination).toEqual({ total: 4, page: 9, pageSize: 50, totalPages: 1 });

    for (const qs of ['limit=0', 'limit=101', 'page=0', 'page=x', 'sortBy=secret', 'sortOrder=up', 'priority=x', 'userId=x', 'extra=1']) {
      expect([qs, (await t.api.get(`/task/tasks/${project.id}?${qs}`, owner.token)).status]).toEqual([qs, 400]);
    }
  });
});

describe('updating tasks', () => {
  it('PUT /task/:id changes several fields and writes one activity per change, in one go', async () => {
    const { owner, project } = await board();
    const task = await createTask(t, owner.token, project.id, { title: 'Old', priority: 'low' });
    await createTask(t, owner.token, project.id, { status: 'in-progress' });
    const res = await t.api.put(
      `/task/${task.id}`,
      { title: 'New', description: 'Details', status: 'in-progress', priority: 'high', dueDate: '2025-06-01T00:00:00Z', startDate: '2025-05-01T00:00:00Z', userId: owner.user.id },
      owner.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...task,
      title: 'New',
      description: 'Details',
      status: 'in-progress',
      position: 1,
      priority: 'high',
      dueDate: '2025-06-01T00:00:00.000Z',
      startDate: '2025-05-01T00:00:00.000Z',
      userId: owner.user.id,
    });
    const acts = await activities(task.id);
    expect(acts.map((a) => [a.type, a.event_data])).toEqual([
      ['created', expect.any(Object)],
      ['title_changed', { oldTitle: 'Old', newTitle: 'New' }],
      ['description_changed', { oldDescription: null, newDescription: 'Details' }],
      ['status_changed', { oldStatus: 'to-do', newStatus: 'in-progress' }],
      ['priority_changed', { oldPriority: 'low', newPriority: 'high' }],
      ['start_date_changed', { oldStartDate: null, newStartDate: '2025-05-01T00:00:00.000Z' }],
      ['due_date_changed', { oldDueDate: null, newDueDate: '2025-06-01T00:00:00.000Z' }],
      ['assignee_changed', { oldUserId: null, newUserId: owner.user.id }],
    ]);
    expect(acts.every((a) => a.user_id === owner.user.id)).toBe(true);

    // An explicit position wins over "end of column".
    const placed = await t.api.put(`/task/${task.id}`, { status: 'done', position: 7 }, owner.token);
    expect([placed.body.status, placed.body.position]).toEqual(['done', 7]);
  });

  it('an update that changes nothing writes nothing', async () => {
    const { owner, project } = await board();
    const task = await createTask(t, owner.token, project.id, { title: 'Same', dueDate: '2025-06-01T00:00:00Z' });
    const [before] = await sql(t.databaseUrl, `SELECT updated_at FROM task WHERE id = $1`, [task.id]);
    const res = await t.api.put(`/task/${task.id}`, { title: 'Same', status: 'to-do', priority: 'no-priority', dueDate: '2025-06-01T02:00:00+02:00', userId: null }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(task);
    for (const [path, body] of [
      ['status', { status: 'to-do' }],
      ['title', { title: 'Same' }],
      ['assignee', { userId: null }],
      ['description', { description: null }],
    ] as const) {
      expect((await t.api.put(`/task/${path}/${task.id}`, body, owner.token)).body).toEqual(task);
    }
    expect((await activities(task.id)).map((a) => a.type)).toEqual(['created']);
    expect(await sql(t.databaseUrl, `SELECT updated_at FROM task WHERE id = $1`, [task.id])).toEqual([before]);
  });

  it('the single-field PUTs each change one field and write their activity', async () => {
    const { owner, workspaceId, project } = await board();
    const member = await userWithRole(t, workspaceId, 'member');
    const task = await createTask(t, owner.token, project.id);
    const steps: [string, object, object, string, object][] = [
      ['status', { status: 'in-review' }, { status: 'in-review' }, 'status_changed', { oldStatus: 'to-do', newStatus: 'in-review' }],
      ['priority', { priority: 'medium' }, { priority: 'medium' }, 'priority_changed', { oldPriority: 'no-priority', newPriority: 'medium' }],
      ['title', { title: 'Renamed' }, { title: 'Renamed' }, 'title_changed', { oldTitle: 'A task', newTitle: 'Renamed' }],
      ['description', { description: 'Why' }, { description: 'Why' }, 'description_changed', { oldDescription: null, newDescription: 'Why' }],
      ['assignee', { userId: member.user.id }, { userId: member.user.id }, 'assignee_changed', { oldUserId: null, newUserId: member.user.id }],
      ['assignee', { userId: null }, { userId: null }, 'unassigned', { oldUserId: member.user.id, newUserId: null }],
      ['due-date', { dueDate: '2030-01-01T12:00:00Z' }, { dueDate: '2030-01-01T12:00:00.000Z' }, 'due_date_changed', { oldDueDate: null, newDueDate: '2030-01-01T12:00:00.000Z' }],
      ['due-date', { dueDate: null }, { dueDate: null }, 'due_date_changed', { oldDueDate: '2030-01-01T12:00:00.000Z', newDueDate: null }],
    ];
    for (const [path, body, expected, type, eventData] of steps) {
      const res = await t.api.put(`/task/${path}/${task.id}`, body, owner.token);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.body).toMatchObject({ id: task.id, number: task.number, ...expected });
      const last = (await activities(task.id)).pop()!;
      expect([last.type, last.event_data]).toEqual([type, eventData]);
    }
    const bad = await t.api.put(`/task/status/${task.id}`, { status: 'nope' }, owner.token);
    expect(bad.body).toEqual({ message: `Invalid status "nope". Valid statuses for this project: ${VALID}` });
    expect((await t.api.put(`/task/assignee/${task.id}`, {}, owner.token)).body).toEqual({ message: 'userId must be a UUID' });
    expect((await t.api.put(`/task/due-date/${task.id}`, { dueDate: 'soon' }, owner.token)).status).toBe(400);
    expect((await t.api.put(`/task/title/${task.id}`, { title: 5 }, owner.token)).status).toBe(400);
    expect((await t.api.put(`/task/priority/${task.id}`, { priority: 'none' }, owner.token)).status).toBe(400);
    const stranger = await t.api.signUp();
    expect((await t.api.put(`/task/assignee/${task.id}`, { userId: stranger.user.id }, owner.token)).body).toEqual({
      message: 'Assignee must be a member of this workspace',
    });
    expect((await t.api.get(`/task/${task.id}`, owner.token)).body).toMatchObject({ status: 'in-review', userId: null, dueDate: null });
  });

  it('concurrent updates of one task all land, and the activity log tells one consistent story', async () => {
    const { owner, project } = await board();
    const task = await createTask(t, owner.token, project.id);
    const statuses = ['in-progress', 'in-review', 'done', 'to-do'];
    const results = await Promise.all([
      ...Array.from({ length: 24 }, (_, i) => t.api.put(`/task/status/${task.id}`, { status: statuses[i % 4] }, owner.token)),
      t.api.put(`/task/title/${task.id}`, { title: 'Renamed meanwhile' }, owner.token),
      t.api.put(`/task/priority/${task.id}`, { priority: 'urgent' }, owner.token),
    ]);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const final = (await t.api.get(`/task/${task.id}`, owner.token)).body;
    expect(final).toMatchObject({ title: 'Renamed meanwhile', priority: 'urgent' });
    const changes = (await activities(task.id)).filter((a) => a.type === 'status_changed').map((a) => a.event_data);
    expect(changes.length).toBeGreaterThan(0);
    let status = 'to-do';
    for (const c of changes) {
      expect(c.oldStatus).toBe(status);
      expect(c.newStatus).not.toBe(status);
      status = c.newStatus;
    }
    expect(final.status).toBe(status);
  });

  it('a change and its activity commit together: a failing activity insert rolls the change back', async () => {
    const { owner, project } = await board();
    const task = await createTask(t, owner.token, project.id);
    await sql(t.databaseUrl, `ALTER TABLE activity ADD CONSTRAINT test_no_priority CHECK (type <> 'priority_changed') NOT VALID`);
    try {
      const res = await t.api.put(`/task/priority/${task.id}`, { priority: 'urgent' }, owner.token);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ message: 'Internal server error' });
    } finally {
      await sql(t.databaseUrl, `ALTER TABLE activity DROP CONSTRAINT test_no_priority`);
    }
    expect((await t.api.get(`/task/${task.id}`, owner.token)).body.priority).toBe('no-priority');
  });

  it('members update but do not assign or delete; viewers only read; owners and admins do everything', async () => {
    const { owner, workspaceId, project } = await board();
    const member = await userWithRole(t, workspaceId, 'member');
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const admin = await userWithRole(t, workspaceId, 'admin');
    const task = await createTask(t, member.token, project.id);
    const forbidden = (permission: string) => ({ message: `Insufficient permissions: ${permission} is needed` });

    expect((await t.api.put(`/task/status/${task.id}`, { status: 'done' }, member.token)).status).toBe(200);
    expect((await t.api.put(`/task/${task.id}`, { title: 'By member' }, member.token)).status).toBe(200);
    expect((await t.api.put(`/task/assignee/${task.id}`, { userId: member.user.id }, member.token)).body).toEqual(forbidden('task:assign'));
    expect((await t.api.put(`/task/${task.id}`, { userId: member.user.id }, member.token)).body).toEqual(forbidden('task:assign'));
    expect((await t.api.post(`/task/${project.id}`, { title: 'x', userId: member.user.id }, member.token)).body).toEqual(forbidden('task:assign'));
    // Sending the current assignee unchanged is not an assignment.
    expect((await t.api.put(`/task/${task.id}`, { userId: null, title: 'Again' }, member.token)).status).toBe(200);
    expect((await t.api.delete(`/task/${task.id}`, member.token)).body).toEqual(forbidden('task:delete'));

    for (const [method, path, body, permission] of [
      ['post', `/task/${project.id}`, { title: 'x' }, 'task:create'],
      ['put', `/task/${task.id}`, { title: 'x' }, 'task:update'],
      ['put', `/task/status/${task.id}`, { status: 'to-do' }, 'task:update'],
      ['put', `/task/priority/${task.id}`, { priority: 'low' }, 'task:update'],
      ['put', `/task/title/${task.id}`, { title: 'x' }, 'task:update'],
      ['put', `/task/description/${task.id}`, { description: 'x' }, 'task:update'],
      ['put', `/task/assignee/${task.id}`, { userId: null }, 'task:assign'],
      ['put', `/task/due-date/${task.id}`, { dueDate: null }, 'task:update'],
      ['put', `/task/move/${task.id}`, { destinationProjectId: project.id }, 'task:update'],
      ['delete', `/task/${task.id}`, undefined, 'task:delete'],
    ] as const) {
      const res = await t.api.request(method.toUpperCase(), path, body, { token: viewer.token });
      expect([path, res.status, res.body]).toEqual([path, 403, forbidden(permission)]);
    }
    expect((await t.api.get(`/task/${task.id}`, viewer.token)).status).toBe(200);
    expect((await t.api.get(`/task/tasks/${project.id}`, viewer.token)).status).toBe(200);

    expect((await t.api.put(`/task/assignee/${task.id}`, { userId: viewer.user.id }, admin.token)).body.userId).toBe(viewer.user.id);
    const del = await t.api.delete(`/task/${task.id}`, owner.token);
    expect(del.status).toBe(200);
    expect(del.body.id).toBe(task.id);
    expect((await t.api.get(`/task/${task.id}`, owner.token)).status).toBe(404);
    expect((await t.api.delete(`/task/${task.id}`, owner.token)).status).toBe(404);
  });

  it('an API key needs task:assign in its scopes to change the assignee', async () => {
    const { owner, project } = await board();
    const task = await createTask(t, owner.token, project.id);
    const key = (await t.api.post('/auth/api-key/create', { permissions: { task: ['read', 'update'] } }, owner.token)).body.key;
    expect((await t.api.put(`/task/title/${task.id}`, { title: 'By key' }, key)).status).toBe(200);
    expect((await t.api.put(`/task/${task.id}`, { userId: owner.user.id }, key)).body).toEqual({ message: 'Insufficient API key scope' });
  });
});

describe('ordering a column', () => {
  const order = async (projectId: string, status: string) =>
    (await sql(t.databaseUrl, `SELECT id, position FROM task WHERE project_id = $1 AND status = $2 ORDER BY position, number`, [projectId, status])) as {
      id: string;
      position: number;
    }[];

  it('PUT /task/reorder/:projectId sets the positions of one column as listed, writing no activity', async () => {
    const { owner, project } = await board();
    const [a, b, c] = [await createTask(t, owner.token, project.id), await createTask(t, owner.token, project.id), await createTask(t, owner.token, project.id)];
    const other = await createTask(t, owner.token, project.id, { status: 'done' });
    const res = await t.api.put(`/task/reorder/${project.id}`, { status: a.status, taskIds: [c.id, a.id, b.id] }, owner.token);
    expect([res.status, res.body]).toEqual([200, {}]);
    expect(await order(project.id, a.status)).toEqual([
      { id: c.id, position: 0 },
      { id: a.id, position: 1 },
      { id: b.id, position: 2 },
    ]);
    expect((await activities(c.id)).map((x) => x.type)).toEqual(['created']);
    // The board reads them in that order.
    const listed = await t.api.get(`/task/tasks/${project.id}?status=${a.status}&sortBy=position&sortOrder=asc`, owner.token);
    expect(listed.body.data.map((x: { id: string }) => x.id)).toEqual([c.id, a.id, b.id]);
    expect((await order(project.id, 'done')).map((x) => x.position)).toEqual([other.position]);
  });

  it('is all or nothing: a task of another column or project, or one listed twice, is 400 and changes nothing', async () => {
    const { owner, workspaceId, project } = await board();
    const [a, b] = [await createTask(t, owner.token, project.id), await createTask(t, owner.token, project.id)];
    const done = await createTask(t, owner.token, project.id, { status: 'done' });
    const elsewhere = await createTask(t, owner.token, (await createProject(t, owner.token, workspaceId)).id);
    const before = await order(project.id, a.status);
    for (const [ids, message] of [
      [[b.id, a.id, done.id], `Task ${done.id} is not in column ${a.status} of this project`],
      [[b.id, elsewhere.id, a.id], `Task ${elsewhere.id} is not in column ${a.status} of this project`],
      [[b.id, a.id, b.id], `Task ${b.id} is listed more than once`],
      [[b.id, 'nope'], 'each of taskIds must be a task id'],
    ] as const) {
      const res = await t.api.put(`/task/reorder/${project.id}`, { status: a.status, taskIds: ids }, owner.token);
      expect([res.status, res.body.message]).toEqual([400, message]);
    }
    expect(await order(project.id, a.status)).toEqual(before);
    // A viewer may not.
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    expect((await t.api.put(`/task/reorder/${project.id}`, { status: a.status, taskIds: [b.id, a.id] }, viewer.token)).status).toBe(403);
    expect(await order(project.id, a.status)).toEqual(before);
  });
});

describe('moving tasks', () => {
  it('moves a task: next number and end position in the destination, same-slug status, moved activity', async () => {
    const { owner, workspaceId, project } = await board();
    const dest = await createProject(t, owner.token, workspaceId);
    for (let i = 0; i < 3; i++) await createTask(t, owner.token, dest.id, { status: 'in-progress' });
    const task = await createTask(t, owner.token, project.id, { status: 'in-progress' });

    const res = await t.api.put(`/task/move/${task.id}`, { destinationProjectId: dest.id }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      task: { ...task, projectId: dest.id, number: 4, position: 3, status: 'in-progress' },
      sourceProjectId: project.id,
      destinationProjectId: dest.id,
    });
    expect((await activities(task.id)).map((a) => [a.type, a.event_data])).toEqual([
      ['created', expect.any(Object)],
      ['moved', { sourceProjectId: project.id, destinationProjectId: dest.id, oldNumber: 1, newNumber: 4, oldStatus: 'in-progress', newStatus: 'in-progress' }],
    ]);
    // The source's counter is not given back: the next task there is number 2.
    expect((await createTask(t, owner.token, project.id)).number).toBe(2);
  });

  it('applies the destination status rules', async () => {
    const { owner, workspaceId, project } = await board();
    const dest = await createProject(t, owner.token, workspaceId);
    const qa = (await t.api.post(`/column/${project.id}`, { name: 'QA' }, owner.token)).body;
    expect(qa.slug).toBe('qa');

    const a = await createTask(t, owner.token, project.id, { status: 'qa' });
    const moved = await t.api.put(`/task/move/${a.id}`, { destinationProjectId: dest.id }, owner.token);
    expect(moved.body.task.status).toBe('to-do');
    expect((await activities(a.id)).map((x) => x.type)).toEqual(['created', 'moved', 'status_changed']);

    const b = await createTask(t, owner.token, project.id, { status: 'planned' });
    expect((await t.api.put(`/task/move/${b.id}`, { destinationProjectId: dest.id }, owner.token)).body.task.status).toBe('to-do');

    const c = await createTask(t, owner.token, project.id);
    const explicit = await t.api.put(`/task/move/${c.id}`, { destinationProjectId: dest.id, destinationStatus: 'done' }, owner.token);
    expect(explicit.body.task).toMatchObject({ status: 'done', position: 0 });

    const d = await createTask(t, owner.token, project.id);
    for (const destinationStatus of ['qa', 'planned', 'archived']) {
      const bad = await t.api.put(`/task/move/${d.id}`, { destinationProjectId: dest.id, destinationStatus }, owner.token);
      expect([bad.status, bad.body]).toEqual([400, { message: 'Selected status is not valid for the destination project' }]);
    }
    const same = await t.api.put(`/task/move/${d.id}`, { destinationProjectId: project.id }, owner.token);
    expect([same.status, same.body]).toEqual([400, { message: 'Task is already in that project' }]);
    expect((await t.api.get(`/task/${d.id}`, owner.token)).body).toMatchObject({ projectId: project.id, number: d.number });
    // Refused moves consumed no number in the destination.
    const [{ task_counter }] = await sql(t.databaseUrl, `SELECT task_counter FROM project WHERE id = $1`, [dest.id]);
    expect(task_counter).toBe(3);
  });

  it('stays inside the workspace: another of my workspaces is 400, a workspace I am not in is 404', async () => {
    const { owner, project } = await board();
    const task = await createTask(t, owner.token, project.id);
    const mine = await t.api.createWorkspace(owner.token);
    const myOther = await createProject(t, owner.token, mine.id);
    const foreign = await ownerWithWorkspace(t);
    const theirs = await createProject(t, foreign.owner.token, foreign.workspaceId);

    const cross = await t.api.put(`/task/move/${task.id}`, { destinationProjectId: myOther.id }, owner.token);
    expect([cross.status, cross.body]).toEqual([400, { message: 'Tasks can only be moved within the same workspace' }]);
    for (const destinationProjectId of [theirs.id, MISSING_ID, 'nope']) {
      const res = await t.api.put(`/task/move/${task.id}`, { destinationProjectId }, owner.token);
      expect([res.status, res.body]).toEqual([404, { message: 'Project not found' }]);
    }
    expect((await t.api.put(`/task/move/${task.id}`, {}, owner.token)).body).toEqual({ message: 'destinationProjectId must be a string' });
    expect((await t.api.get(`/task/${task.id}`, owner.token)).body.projectId).toBe(project.id);
  });
});

describe('numbers under concurrency', () => {
  it('50 parallel creates plus 10 moves into one project get 60 distinct numbers 1..60', async () => {
    const { owner, workspaceId, project } = await board();
    const source = await createProject(t, owner.token, workspaceId);
    const movers = [];
    for (let i = 0; i < 10; i++) movers.push(await createTask(t, owner.token, source.id));
    const results = await Promise.all([
      ...Array.from({ length: 50 }, (_, i) => t.api.post(`/task/${project.id}`, { title: `Parallel ${i}` }, owner.token)),
      ...movers.map((m) => t.api.put(`/task/move/${m.id}`, { destinationProjectId: project.id }, owner.token)),
    ]);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const numbers = results.map((r) => (r.body.task ?? r.body).number).sort((a: number, b: number) => a - b);
    expect(numbers).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const [{ n, distinct }] = await sql(t.databaseUrl, `SELECT count(*)::int AS n, count(DISTINCT number)::int AS distinct FROM task WHERE project_id = $1`, [project.id]);
    expect([n, distinct]).toEqual([60, 60]);
  });

  it('sends at most two claims of one project to Postgres at a time; the others wait in the service, then all land', async () => {
    const { owner, workspaceId, project } = await board();
    const source = await createProject(t, owner.token, workspaceId);
    const movers = [];
    for (let i = 0; i < 5; i++) movers.push(await createTask(t, owner.token, source.id));
    // Hold the destination's counter row, as a slow claim would: every move into it waits for it.
    const holder = new Client({ connectionString: t.databaseUrl });
    await holder.connect();
    let moves: Promise<{ status: number; body: any }>[] = [];
    // Counts the claims of this project the gate is asked for (entered) and lets through (started).
    let entered = 0;
    let started = 0;
    const run = KeyedGate.prototype.run;
    const gate = jest.spyOn(KeyedGate.prototype, 'run').mockImplementation(function <T>(this: KeyedGate, key: string, task: () => Promise<T>): Promise<T> {
      if (key !== project.id) return run.call(this, key, task) as Promise<T>;
      entered++;
      return run.call(this, key, () => {
        started++;
        return task();
      }) as Promise<T>;
    });
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM project WHERE id = $1 FOR UPDATE', [project.id]);
      moves = movers.map((m) => t.api.put(`/task/move/${m.id}`, { destinationProjectId: project.id }, owner.token));
      const waitingOnTheRow = async () =>
        (
          await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%claimed AS%'`)
        )[0].n;
      // Every move has reached the gate, and two of them Postgres: the three others cannot start
      // before one of those ends, which the held row prevents (no time is given for anything).
      await until('all five moves at the gate', () => entered === 5);
      await until('two moves waiting for the counter row', async () => (await waitingOnTheRow()) >= 2);
      expect(started).toBe(2);
      expect(await waitingOnTheRow()).toBe(2);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
      gate.mockRestore();
    }
    const results = await Promise.all(moves);
    expect(started).toBe(5);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.map((r) => r.body.task.number).sort((a: number, b: number) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('cost of the hot paths', () => {
  it('GET /task/:id costs 2 SQL statements in all: session check with the permission lookup, the task', async () => {
    const { owner, project } = await board();
    const task = await createTask(t, owner.token, project.id);
    await t.api.get(`/task/${task.id}`, owner.token); // warm-up
    const rec = recordQueries();
    let res;
    try {
      res = await t.api.get(`/task/${task.id}`, owner.token);
    } finally {
      rec.stop();
    }
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(task.id);
    console.log(`GET /task/:id statements (${rec.statements.length}):\n  ${rec.statements.join('\n  ')}`);
    expect(rec.statements).toHaveLength(2);
    expect(rec.statements[0]).toMatch(/FROM session s JOIN "user".*LEFT JOIN member m/);
    expect(rec.statements[1]).toMatch(/^SELECT .* FROM task WHERE id = \$1 AND workspace_id = \$2$/);

    const put = recordQueries();
    try {
      expect((await t.api.put(`/task/status/${task.id}`, { status: 'done' }, owner.token)).status).toBe(200);
    } finally {
      put.stop();
    }
    console.log(`PUT /task/status/:id statements (${put.statements.length}):\n  ${put.statements.join('\n  ')}`);
    // The change wrote an event, so the relay is woken after the commit: at most one wake, apart.
    const wakes = put.statements.filter(isOutboxWake);
    expect(wakes.length).toBeLessThanOrEqual(1);
    expect(put.statements.filter((q) => !isOutboxWake(q))).toHaveLength(3);
  });
});
