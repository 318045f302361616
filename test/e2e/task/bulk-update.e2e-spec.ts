import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** PATCH /task/bulk (docs/compatibility.md, "Bulk update"). */
let t: TestApp;
// API role only: the task events stay in the outbox to be counted.
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const bulk = (token: string, taskIds: string[], operation: string, value?: unknown) =>
  t.api.patch('/task/bulk', value === undefined ? { taskIds, operation } : { taskIds, operation, value }, token);
const historyOf = (ids: string[]) =>
  sql(t.databaseUrl, `SELECT task_id, type, event_data FROM activity WHERE task_id = ANY($1::uuid[]) AND type <> 'created' ORDER BY created_at, id`, [ids]);
const eventsOf = (ids: string[]) =>
  sql(t.databaseUrl, `SELECT name, payload FROM outbox WHERE queue = 'task-events' AND name <> 'taskCreated' AND payload->'task'->>'id' = ANY($1::text[])`, [ids]);

async function board(n = 3) {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId);
  const tasks = [];
  for (let i = 0; i < n; i++) tasks.push(await createTask(t, owner.token, project.id, { title: `Task ${i}` }));
  return { owner, workspaceId, project, tasks, ids: tasks.map((x: any) => x.id) };
}

describe('operations', () => {
  it('updateStatus: each changed task through the write path (activity, event, end of its column); unchanged ones are not counted', async () => {
    const { owner, project, tasks, ids } = await board();
    await t.api.put(`/task/status/${tasks[1].id}`, { status: 'done' }, owner.token);
    await createTask(t, owner.token, project.id, { title: 'Already done', status: 'done' });
    const before = await historyOf(ids);
    const res = await bulk(owner.token, [...ids, ids[0].toUpperCase()], 'updateStatus', 'done');
    expect([res.status, res.body]).toEqual([200, { success: true, updatedCount: 2 }]);
    const after = (await historyOf(ids)).slice(before.length);
    expect(after.map((a) => [a.task_id, a.type, a.event_data])).toEqual(
      expect.arrayContaining([
        [ids[0], 'status_changed', { oldStatus: 'to-do', newStatus: 'done' }],
        [ids[2], 'status_changed', { oldStatus: 'to-do', newStatus: 'done' }],
      ]),
    );
    expect(after).toHaveLength(2);
    expect((await eventsOf(ids)).map((e) => e.name)).toEqual(['taskStatusChanged', 'taskStatusChanged', 'taskStatusChanged']);
    const positions = await Promise.all(ids.map(async (id) => (await t.api.get(`/task/${id}`, owner.token)).body));
    expect(positions.map((x) => x.status)).toEqual(['done', 'done', 'done']);
    expect(new Set(positions.map((x) => x.position)).size).toBe(3);
    // Again: nothing changes, nothing is written.
    expect((await bulk(owner.token, ids, 'updateStatus', 'done')).body).toEqual({ success: true, updatedCount: 0 });
    expect(await historyOf(ids)).toHaveLength(before.length + 2);
  });

  it('updatePriority, updateDueDate and updateAssignee ("" and null unassign) write their activities', async () => {
    const { owner, workspaceId, ids } = await board(2);
    const member = await userWithRole(t, workspaceId, 'member');
    expect((await bulk(owner.token, ids, 'updatePriority', 'urgent')).body.updatedCount).toBe(2);
    expect((await bulk(owner.token, ids, 'updateDueDate', '2030-01-01T00:00:00Z')).body.updatedCount).toBe(2);
    expect((await bulk(owner.token, [ids[0]], 'updateDueDate', null)).body.updatedCount).toBe(1);
    expect((await bulk(owner.token, ids, 'updateDueDate', '')).body.updatedCount).toBe(1);
    expect((await bulk(owner.token, ids, 'updateAssignee', member.user.id.toUpperCase())).body.updatedCount).toBe(2);
    expect((await bulk(owner.token, [ids[0]], 'updateAssignee', '')).body.updatedCount).toBe(1);
    expect((await bulk(owner.token, ids, 'updateAssignee', null)).body.updatedCount).toBe(1);
    const types = (await historyOf([ids[0]])).map((a) => a.type);
    expect(types).toEqual(['priority_changed', 'due_date_changed', 'due_date_changed', 'assignee_changed', 'unassigned']);
    const task = (await t.api.get(`/task/${ids[1]}`, owner.token)).body;
    expect(task).toMatchObject({ priority: 'urgent', dueDate: null, userId: null });
    // Each change is an event, as for the single routes.
    const events = await eventsOf(ids);
    expect(events.map((e) => e.name).sort()).toEqual([
      'taskAssigned',
      'taskAssigned',
      ...Array(4).fill('taskDueDateChanged'),
      'taskPriorityChanged',
      'taskPriorityChanged',
      'taskUnassigned',
      'taskUnassigned',
    ]);
    expect(events.filter((e) => e.name === 'taskAssigned').map((e) => e.payload.task.assigneeId)).toEqual([member.user.id, member.user.id]);
  });

  it('addLabel (a catalogue id) and removeLabel (a name) count the tasks that changed', async () => {
    const { owner, workspaceId, ids } = await board();
    const label = (await t.api.post('/label', { name: 'Bug', color: 'red', workspaceId, taskId: ids[0] }, owner.token)).body;
    const catalogue = (await t.api.get(`/label/workspace/${workspaceId}`, owner.token)).body[0];
    expect((await bulk(owner.token, ids, 'addLabel', catalogue.id)).body).toEqual({ success: true, updatedCount: 2 });
    for (const id of ids) expect((await t.api.get(`/label/task/${id}`, owner.token)).body.map((l: any) => [l.name, l.color])).toEqual([['Bug', 'red']]);
    // A task's copy stands for its catalogue label.
    expect((await bulk(owner.token, ids, 'addLabel', label.id)).body.updatedCount).toBe(0);
    expect((await bulk(owner.token, [ids[0], ids[1]], 'removeLabel', 'bug')).body).toEqual({ success: true, updatedCount: 2 });
    expect((await t.api.get(`/label/task/${ids[2]}`, owner.token)).body).toHaveLength(1);
    expect((await bulk(owner.token, ids, 'removeLabel', 'nothing')).body.updatedCount).toBe(0);
    const other = await ownerWithWorkspace(t);
    const foreign = (await t.api.post('/label', { name: 'F', color: '#000000', workspaceId: other.workspaceId }, other.owner.token)).body;
    for (const value of [foreign.id, MISSING_ID, 'nope']) expect((await bulk(owner.token, ids, 'addLabel', value)).body).toEqual({ message: 'Label not found' });
  });

  it('delete removes the tasks with their relations', async () => {
    const { owner, workspaceId, ids } = await board();
    await t.api.post('/task-relation', { sourceTaskId: ids[0], targetTaskId: ids[2], relationType: 'blocks' }, owner.token);
    expect((await bulk(owner.token, [ids[0], ids[1]], 'delete')).body).toEqual({ success: true, updatedCount: 2 });
    expect((await t.api.get(`/task/${ids[0]}`, owner.token)).status).toBe(404);
    expect((await t.api.get(`/task/${ids[2]}`, owner.token)).status).toBe(200);
    expect((await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM task_relation WHERE workspace_id = $1`, [workspaceId]))[0].n).toBe(0);
  });
});

describe('moveToProject', () => {
  it('moves each task as the single move does (next number, status kept, old key kept); one already there is not counted', async () => {
    const { owner, workspaceId, project, tasks, ids } = await board(3);
    const dest = await createProject(t, owner.token, workspaceId);
    const there = await createTask(t, owner.token, dest.id, { title: 'Already there' });
    await t.api.put(`/task/status/${ids[1]}`, { status: 'in-progress' }, owner.token);
    const res = await bulk(owner.token, [ids[0], ids[1], there.id], 'moveToProject', dest.id.toUpperCase());
    expect([res.status, res.body]).toEqual([200, { success: true, updatedCount: 2 }]);
    const moved = await Promise.all([ids[0], ids[1]].map(async (id) => (await t.api.get(`/task/${id}`, owner.token)).body));
    expect(moved.map((x) => [x.projectId, x.status])).toEqual([
      [dest.id, 'to-do'],
      [dest.id, 'in-progress'],
    ]);
    expect(moved.map((x) => x.number).sort()).toEqual([there.number + 1, there.number + 2]);
    expect((await t.api.get(`/task/${ids[2]}`, owner.token)).body.projectId).toBe(project.id);
    const former = await sql(t.databaseUrl, `SELECT task_id, number FROM task_former_key WHERE project_id = $1 ORDER BY number`, [project.id]);
    expect(former.map((r) => [r.task_id, r.number])).toEqual([
      [ids[0], tasks[0].number],
      [ids[1], tasks[1].number],
    ]);
    expect((await historyOf([ids[0]])).map((a) => a.type)).toEqual(['moved']);
  });

  it('a destination the caller cannot see is 404, one of another workspace 400, a value that is not an id 400; nothing moves', async () => {
    const a = await board(1);
    const b = await board(1);
    const foreign = await createProject(t, b.owner.token, b.workspaceId);
    const hidden = await bulk(a.owner.token, a.ids, 'moveToProject', foreign.id);
    expect([hidden.status, hidden.body]).toEqual([404, { message: 'Project not found' }]);
    expect((await bulk(a.owner.token, a.ids, 'moveToProject', MISSING_ID)).body).toEqual({ message: 'Project not found' });
    await sql(t.databaseUrl, `INSERT INTO member (organization_id, user_id, role) VALUES ($1, $2, 'owner')`, [b.workspaceId, a.owner.user.id]);
    const across = await bulk(a.owner.token, a.ids, 'moveToProject', foreign.id);
    expect([across.status, across.body]).toEqual([400, { message: 'Tasks can only be moved within the same workspace' }]);
    const bad = await bulk(a.owner.token, a.ids, 'moveToProject', 'nope');
    expect([bad.status, bad.body.message]).toEqual([400, 'value must be a project id']);
    expect((await t.api.get(`/task/${a.ids[0]}`, a.owner.token)).body.projectId).toBe(a.project.id);
    expect(await historyOf(a.ids)).toEqual([]);
  });
});

describe('all or nothing', () => {
  it("a status that one task's project lacks refuses the whole request", async () => {
    const { owner, workspaceId, project, ids } = await board(1);
    await t.api.post(`/column/${project.id}`, { name: 'QA' }, owner.token);
    const other = await createProject(t, owner.token, workspaceId);
    const elsewhere = await createTask(t, owner.token, other.id);
    const res = await bulk(owner.token, [ids[0], elsewhere.id], 'updateStatus', 'qa');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Invalid status "qa"\. Valid statuses for this project: /);
    expect((await t.api.get(`/task/${ids[0]}`, owner.token)).body.status).toBe('to-do');
    expect(await historyOf([ids[0], elsewhere.id])).toEqual([]);
    expect(await eventsOf([ids[0], elsewhere.id])).toEqual([]);
  });

  it('tasks of two workspaces are refused (400 when the caller is in both, 404 when not), and nothing changes', async () => {
    const a = await board(1);
    const b = await board(1);
    const res = await bulk(a.owner.token, [a.ids[0], b.ids[0]], 'updatePriority', 'high');
    expect([res.status, res.body]).toEqual([404, { message: 'Task not found' }]);
    // Now A's owner is a member of B too.
    await sql(t.databaseUrl, `INSERT INTO member (organization_id, user_id, role) VALUES ($1, $2, 'owner')`, [b.workspaceId, a.owner.user.id]);
    const both = await bulk(a.owner.token, [a.ids[0], b.ids[0]], 'updatePriority', 'high');
    expect([both.status, both.body]).toEqual([400, { message: 'All tasks of a bulk update must be in one workspace' }]);
    for (const [id, token] of [
      [a.ids[0], a.owner.token],
      [b.ids[0], b.owner.token],
    ])
      expect((await t.api.get(`/task/${id}`, token)).body.priority).toBe('no-priority');
    expect((await bulk(a.owner.token, [a.ids[0], MISSING_ID], 'updatePriority', 'high')).body).toEqual({ message: 'Task not found' });
    expect((await bulk(a.owner.token, [a.ids[0], 'nope'], 'updatePriority', 'high')).body).toEqual({ message: 'Task not found' });
  });
});

describe('permissions and input', () => {
  it('each operation needs the permission of its single route', async () => {
    const { owner, workspaceId, ids } = await board(1);
    const member = await userWithRole(t, workspaceId, 'member');
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const forbidden = (permission: string) => ({ message: `Insufficient permissions: ${permission} is needed` });
    expect((await bulk(member.token, ids, 'delete')).body).toEqual(forbidden('task:delete'));
    expect((await bulk(member.token, ids, 'updateAssignee', owner.user.id)).body).toEqual(forbidden('task:assign'));
    expect((await bulk(member.token, ids, 'updatePriority', 'low')).body).toEqual({ success: true, updatedCount: 1 });
    expect((await bulk(member.token, ids, 'removeLabel', 'x')).body).toEqual({ success: true, updatedCount: 0 });
    expect((await bulk(viewer.token, ids, 'updatePriority', 'high')).body).toEqual(forbidden('task:update'));
    expect((await bulk(viewer.token, ids, 'removeLabel', 'x')).body).toEqual(forbidden('label:update'));
    expect((await bulk(viewer.token, ids, 'moveToProject', randomUUID())).body).toEqual(forbidden('task:update'));
    expect((await t.api.get(`/task/${ids[0]}`, owner.token)).body.priority).toBe('low');
  });

  it('an API key needs the scope of the operation, checked before the tasks are looked up', async () => {
    const { owner, ids } = await board(1);
    const key = (await t.api.post('/auth/api-key/create', { permissions: { task: ['read', 'update'] } }, owner.token)).body.key;
    expect((await bulk(key, ids, 'updatePriority', 'high')).body).toEqual({ success: true, updatedCount: 1 });
    for (const [operation, value] of [
      ['delete', undefined],
      ['updateAssignee', null],
      ['addLabel', randomUUID()],
    ] as const) {
      for (const taskIds of [ids, [randomUUID()]]) {
        const res = await bulk(key, taskIds, operation, value);
        expect([operation, res.status, res.body]).toEqual([operation, 403, { message: 'Insufficient API key scope' }]);
      }
    }
    expect((await t.api.get(`/task/${ids[0]}`, owner.token)).status).toBe(200);
  });

  it('validates ids, operation and the value of each operation', async () => {
    const { owner, workspaceId, ids } = await board(1);
    const outsider = await t.api.signUp();
    const cases: [unknown, string][] = [
      [{ taskIds: [], operation: 'delete' }, 'taskIds must contain at least 1 elements'],
      [{ taskIds: Array.from({ length: 501 }, () => randomUUID()), operation: 'delete' }, 'taskIds must contain no more than 500 elements'],
      [
        { taskIds: ids, operation: 'archive' },
        'operation must be one of the following values: updateStatus, updatePriority, updateAssignee, updateDueDate, addLabel, removeLabel, moveToProject, delete',
      ],
      [
        { taskIds: ids, operation: '__proto__', value: 'x' },
        'operation must be one of the following values: updateStatus, updatePriority, updateAssignee, updateDueDate, addLabel, removeLabel, moveToProject, delete',
      ],
      [{ taskIds: ids, operation: 'updateStatus' }, 'value must be a status (1-100 characters)'],
      [{ taskIds: ids, operation: 'updateStatus', value: '' }, 'value must be a status (1-100 characters)'],
      [{ taskIds: ids, operation: 'updatePriority', value: 'huge' }, 'value must be one of the following values: no-priority, low, medium, high, urgent'],
      [{ taskIds: ids, operation: 'updateAssignee', value: 'bob' }, 'value must be a user id, "" or null'],
      [{ taskIds: ids, operation: 'updateDueDate', value: 'tomorrow' }, 'value must be a valid ISO 8601 date string or null'],
      [{ taskIds: ids, operation: 'addLabel', value: 5 }, 'value must be a label id'],
      [{ taskIds: ids, operation: 'removeLabel', value: ' ' }, 'value must be a label name'],
      [{ taskIds: ids, operation: 'delete', workspaceId }, 'property workspaceId should not exist'],
      [{ taskIds: ids, operation: 'updateAssignee', value: outsider.user.id }, 'Assignee must be a member of this workspace'],
    ];
    for (const [body, message] of cases) {
      const res = await t.api.patch('/task/bulk', body, owner.token);
      expect([res.status, res.body]).toEqual([400, { message }]);
    }
    expect((await t.api.get(`/task/${ids[0]}`, owner.token)).status).toBe(200);
  });
});
