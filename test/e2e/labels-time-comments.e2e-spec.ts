import { startTestApp, TestApp } from '../support/app';
import { sql } from '../support/fixtures';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace, userWithRole } from '../support/work-items';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

async function taskOnBoard() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId);
  const task = await createTask(t, owner.token, project.id);
  return { owner, workspaceId, project, task };
}

describe('labels', () => {
  it('creates catalogue labels idempotently per name; with taskId also attaches and answers the task copy', async () => {
    const { owner, workspaceId, project, task } = await taskOnBoard();
    const res = await t.api.post('/label', { name: 'Bug', color: '#EF4444', workspaceId }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(String), name: 'Bug', color: '#EF4444', createdAt: expect.any(String), taskId: null, workspaceId });

    const again = await t.api.post('/label', { name: 'bug', color: '#000000', workspaceId }, owner.token);
    expect(again.body).toEqual(res.body);

    const attached = await t.api.post('/label', { name: 'BUG', color: '#000000', workspaceId, taskId: task.id }, owner.token);
    expect(attached.status).toBe(200);
    expect(attached.body).toEqual({ id: expect.any(String), name: 'Bug', color: '#EF4444', createdAt: expect.any(String), taskId: task.id, workspaceId });
    expect(attached.body.id).not.toBe(res.body.id);
    const twice = await t.api.post('/label', { name: 'Bug', color: '#EF4444', workspaceId, taskId: task.id }, owner.token);
    expect(twice.body.id).toBe(attached.body.id);

    const fresh = await t.api.post('/label', { name: 'Feature', color: '#22c55e', workspaceId, taskId: task.id }, owner.token);
    expect(fresh.body).toMatchObject({ name: 'Feature', taskId: task.id });

    const catalogue = await t.api.get(`/label/workspace/${workspaceId}`, owner.token);
    expect(catalogue.body.map((l: any) => [l.name, l.taskId])).toEqual([
      ['Bug', null],
      ['Feature', null],
    ]);
    const onTask = await t.api.get(`/label/task/${task.id}`, owner.token);
    expect(onTask.body.map((l: any) => [l.name, l.taskId])).toEqual([
      ['Bug', task.id],
      ['Feature', task.id],
    ]);
    expect((await t.api.get(`/label/${res.body.id}`, owner.token)).body).toEqual(res.body);

    const otherTask = await createTask(t, owner.token, project.id);
    expect((await t.api.get(`/label/task/${otherTask.id}`, owner.token)).body).toEqual([]);
  });

  it('validates colors, names and task ids', async () => {
    const { owner, workspaceId } = await taskOnBoard();
    const stranger = await taskOnBoard();
    const cases: [unknown, number, string][] = [
      [{ name: 'x', color: 'red', workspaceId }, 400, 'color must be a hex color like #RRGGBB'],
      [{ name: 'x', color: '#12345', workspaceId }, 400, 'color must be a hex color like #RRGGBB'],
      [{ name: 'x', color: '#1234567', workspaceId }, 400, 'color must be a hex color like #RRGGBB'],
      [{ name: '', color: '#123456', workspaceId }, 400, 'name must be longer than or equal to 1 characters'],
      [{ name: 'x', color: '#123456' }, 400, 'workspaceId is required'],
      [{ name: 'x', color: '#123456', workspaceId, taskId: stranger.task.id }, 404, 'Task not found'],
      [{ name: 'x', color: '#123456', workspaceId, taskId: 'nope' }, 404, 'Task not found'],
    ];
    for (const [body, status, message] of cases) {
      const res = await t.api.post('/label', body, owner.token);
      expect([res.status, res.body]).toEqual([status, { message }]);
    }
    const label = (await t.api.post('/label', { name: 'ok', color: '#123456', workspaceId }, owner.token)).body;
    expect((await t.api.put(`/label/${label.id}`, { color: 'blue' }, owner.token)).status).toBe(400);
    expect((await t.api.put(`/label/${label.id}`, { taskId: MISSING_ID }, owner.token)).status).toBe(400);
    // Nothing was written by the refused requests.
    expect((await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM label WHERE workspace_id = $1`, [workspaceId]))[0].n).toBe(1);
  });

  it('renaming or recoloring a catalogue label updates its task copies in the same transaction', async () => {
    const { owner, workspaceId, project, task } = await taskOnBoard();
    const task2 = await createTask(t, owner.token, project.id);
    const cat = (await t.api.post('/label', { name: 'Bug', color: '#EF4444', workspaceId }, owner.token)).body;
    const c1 = (await t.api.put(`/label/${cat.id}/task`, { taskId: task.id }, owner.token)).body;
    const c2 = (await t.api.put(`/label/${cat.id}/task`, { taskId: task2.id }, owner.token)).body;
    expect([c1.taskId, c2.taskId]).toEqual([task.id, task2.id]);

    const upd = await t.api.put(`/label/${cat.id}`, { name: 'Defect', color: '#111111' }, owner.token);
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ ...cat, name: 'Defect', color: '#111111' });
    for (const tk of [task, task2]) {
      expect((await t.api.get(`/label/task/${tk.id}`, owner.token)).body.map((l: any) => [l.name, l.color])).toEqual([['Defect', '#111111']]);
    }

    // A conflict anywhere (another catalogue label's name) changes nothing at all.
    await t.api.post('/label', { name: 'Feature', color: '#22c55e', workspaceId }, owner.token);
    const clash = await t.api.put(`/label/${cat.id}`, { name: 'feature', color: '#222222' }, owner.token);
    expect([clash.status, clash.body]).toEqual([409, { message: 'A label named "feature" already exists' }]);
    const names = await sql(t.databaseUrl, `SELECT name, color FROM label WHERE id = $1 OR catalog_label_id = $1`, [cat.id]);
    expect(names).toEqual([
      { name: 'Defect', color: '#111111' },
      { name: 'Defect', color: '#111111' },
      { name: 'Defect', color: '#111111' },
    ]);

    // Editing one task's copy leaves the catalogue alone.
    const copyEdit = await t.api.put(`/label/${c1.id}`, { color: '#333333' }, owner.token);
    expect(copyEdit.body).toMatchObject({ id: c1.id, color: '#333333', taskId: task.id });
    expect((await t.api.get(`/label/${cat.id}`, owner.token)).body.color).toBe('#111111');
  });

  it('attaches and detaches; deleting a catalogue label removes it from every task', async () => {
    const { owner, workspaceId, project, task } = await taskOnBoard();
    const cat = (await t.api.post('/label', { name: 'Docs', color: '#0000ff', workspaceId }, owner.token)).body;
    const copy = await t.api.put(`/label/${cat.id}/task`, { taskId: task.id }, owner.token);
    expect(copy.status).toBe(200);
    expect(copy.body).toEqual({ id: expect.any(String), name: 'Docs', color: '#0000ff', createdAt: expect.any(String), taskId: task.id, workspaceId });
    expect((await t.api.put(`/label/${cat.id}/task`, { taskId: task.id }, owner.token)).body.id).toBe(copy.body.id);

    const off = await t.api.delete(`/label/${cat.id}/task`, owner.token, { taskId: task.id });
    expect(off.status).toBe(200);
    expect(off.body.id).toBe(copy.body.id);
    expect((await t.api.get(`/label/task/${task.id}`, owner.token)).body).toEqual([]);
    expect((await t.api.delete(`/label/${cat.id}/task`, owner.token, { taskId: task.id })).body).toEqual({ message: 'Label is not attached to this task' });
    expect((await t.api.put(`/label/${cat.id}/task`, {}, owner.token)).body).toEqual({ message: 'taskId must be a string' });
    expect((await t.api.put(`/label/${cat.id}/task`, { taskId: MISSING_ID }, owner.token)).body).toEqual({ message: 'Task not found' });

    const t2 = await createTask(t, owner.token, project.id);
    const c2 = (await t.api.put(`/label/${cat.id}/task`, { taskId: t2.id }, owner.token)).body;
    // Detaching by the task copy's own id works too.
    expect((await t.api.delete(`/label/${c2.id}/task`, owner.token, { taskId: t2.id })).body.id).toBe(c2.id);
    await t.api.put(`/label/${cat.id}/task`, { taskId: t2.id }, owner.token);

    const del = await t.api.delete(`/label/${cat.id}`, owner.token);
    expect(del.status).toBe(200);
    expect(del.body.id).toBe(cat.id);
    expect((await t.api.get(`/label/${cat.id}`, owner.token)).body).toEqual({ message: 'Label not found' });
    expect((await t.api.get(`/label/task/${t2.id}`, owner.token)).body).toEqual([]);
  });

  it('viewers read labels but cannot write them; members can', async () => {
    const { owner, workspaceId, task } = await taskOnBoard();
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const member = await userWithRole(t, workspaceId, 'member');
    const cat = (await t.api.post('/label', { name: 'UI', color: '#abcdef', workspaceId }, member.token)).body;
    const forbidden = { message: 'Insufficient permissions' };
    expect((await t.api.post('/label', { name: 'V', color: '#abcdef', workspaceId }, viewer.token)).body).toEqual(forbidden);
    expect((await t.api.put(`/label/${cat.id}`, { name: 'V' }, viewer.token)).body).toEqual(forbidden);
    expect((await t.api.put(`/label/${cat.id}/task`, { taskId: task.id }, viewer.token)).body).toEqual(forbidden);
    expect((await t.api.delete(`/label/${cat.id}/task`, viewer.token, { taskId: task.id })).body).toEqual(forbidden);
    expect((await t.api.delete(`/label/${cat.id}`, viewer.token)).body).toEqual(forbidden);
    expect((await t.api.get(`/label/workspace/${workspaceId}`, viewer.token)).body).toHaveLength(1);
    expect((await t.api.get(`/label/${cat.id}`, viewer.token)).status).toBe(200);
    expect((await t.api.put(`/label/${cat.id}/task`, { taskId: task.id }, member.token)).status).toBe(200);
    expect((await t.api.delete(`/label/${cat.id}`, owner.token)).status).toBe(200);
  });
});

describe('time entries', () => {
  it('records time in whole seconds; a missing end is a running timer', async () => {
    const { owner, task } = await taskOnBoard();
    const res = await t.api.post(
      '/time-entry',
      { taskId: task.id, startTime: '2025-03-01T09:00:00Z', endTime: '2025-03-01T10:30:15.900Z', description: 'pairing' },
      owner.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      taskId: task.id,
      userId: owner.user.id,
      description: 'pairing',
      startTime: '2025-03-01T09:00:00.000Z',
      duration: 5415,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      endTime: '2025-03-01T10:30:15.900Z',
    });
    const running = await t.api.post('/time-entry', { taskId: task.id, startTime: '2025-03-02T09:00:00+01:00' }, owner.token);
    expect(running.body).toMatchObject({ startTime: '2025-03-02T08:00:00.000Z', endTime: null, duration: 0, description: null });

    const list = await t.api.get(`/time-entry/task/${task.id}`, owner.token);
    expect(list.body.map((e: any) => e.id)).toEqual([res.body.id, running.body.id]);
    expect((await t.api.get(`/time-entry/${res.body.id}`, owner.token)).body).toEqual(res.body);
  });

  it('refuses a start after the end and unparsable dates', async () => {
    const { owner, task } = await taskOnBoard();
    const cases: [unknown, number, string][] = [
      [{ taskId: task.id, startTime: '2025-03-01T10:00:00Z', endTime: '2025-03-01T09:59:59Z' }, 400, 'Start time cannot be after end time'],
      [{ taskId: task.id, startTime: 'yesterday' }, 400, 'startTime must be a valid ISO 8601 date string'],
      [{ taskId: task.id, startTime: '2025-03-01T10:00:00Z', endTime: '2025-13-01T00:00:00Z' }, 400, 'endTime must be a valid ISO 8601 date string'],
      [{ taskId: task.id }, 400, 'startTime must be a valid ISO 8601 date string'],
      [{ taskId: task.id, startTime: '2025-03-01T10:00:00Z', duration: 5 }, 400, 'property duration should not exist'],
      [{ startTime: '2025-03-01T10:00:00Z' }, 400, 'taskId is required'],
      [{ taskId: MISSING_ID, startTime: '2025-03-01T10:00:00Z' }, 404, 'Task not found'],
    ];
    for (const [body, status, message] of cases) {
      const res = await t.api.post('/time-entry', body, owner.token);
      expect([res.status, res.body]).toEqual([status, { message }]);
    }
    expect((await t.api.get(`/time-entry/task/${task.id}`, owner.token)).body).toEqual([]);
  });

  it('updates times and description (stopping and restarting a timer), and deletes', async () => {
    const { owner, task } = await taskOnBoard();
    const e = (await t.api.post('/time-entry', { taskId: task.id, startTime: '2025-03-01T09:00:00Z' }, owner.token)).body;
    const stopped = await t.api.put(`/time-entry/${e.id}`, { startTime: '2025-03-01T09:00:00Z', endTime: '2025-03-01T09:45:00Z' }, owner.token);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ id: e.id, endTime: '2025-03-01T09:45:00.000Z', duration: 2700, description: null });
    const moved = await t.api.put(`/time-entry/${e.id}`, { startTime: '2025-03-01T09:40:00Z', description: 'review' }, owner.token);
    expect(moved.body).toMatchObject({ startTime: '2025-03-01T09:40:00.000Z', endTime: '2025-03-01T09:45:00.000Z', duration: 300, description: 'review' });
    const bad = await t.api.put(`/time-entry/${e.id}`, { startTime: '2025-03-01T10:00:00Z' }, owner.token);
    expect([bad.status, bad.body]).toEqual([400, { message: 'Start time cannot be after end time' }]);
    expect((await t.api.put(`/time-entry/${e.id}`, { endTime: 'later' }, owner.token)).status).toBe(400);
    const restarted = await t.api.put(`/time-entry/${e.id}`, { endTime: null }, owner.token);
    expect(restarted.body).toMatchObject({ endTime: null, duration: 0, description: 'review' });

    const del = await t.api.delete(`/time-entry/${e.id}`, owner.token);
    expect(del.status).toBe(200);
    expect(del.body.id).toBe(e.id);
    expect((await t.api.get(`/time-entry/${e.id}`, owner.token)).body).toEqual({ message: 'Time entry not found' });
    expect((await t.api.put(`/time-entry/${e.id}`, {}, owner.token)).status).toBe(404);
  });

  it('viewers read time entries but cannot record or change them', async () => {
    const { owner, workspaceId, task } = await taskOnBoard();
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const e = (await t.api.post('/time-entry', { taskId: task.id, startTime: '2025-03-01T09:00:00Z' }, owner.token)).body;
    expect((await t.api.post('/time-entry', { taskId: task.id, startTime: '2025-03-01T09:00:00Z' }, viewer.token)).status).toBe(403);
    expect((await t.api.put(`/time-entry/${e.id}`, { description: 'x' }, viewer.token)).status).toBe(403);
    expect((await t.api.delete(`/time-entry/${e.id}`, viewer.token)).status).toBe(403);
    expect((await t.api.get(`/time-entry/${e.id}`, viewer.token)).status).toBe(200);
    expect((await t.api.get(`/time-entry/task/${task.id}`, viewer.token)).body).toHaveLength(1);
  });
});

describe('comments and activity', () => {
  it('adds comments with the record shape; lists comments oldest first and activity newest first', async () => {
    const { owner, task } = await taskOnBoard();
    const res = await t.api.post(`/comment/${task.id}`, { content: '  First!  ' }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      taskId: task.id,
      type: 'comment',
      createdAt: expect.any(String),
      userId: owner.user.id,
      content: 'First!',
      eventData: null,
      externalUserName: null,
      externalUserAvatar: null,
      externalSource: null,
      externalUrl: null,
    });
    await t.api.put(`/task/status/${task.id}`, { status: 'done' }, owner.token);
    const second = (await t.api.post(`/comment/${task.id}`, { content: 'Second' }, owner.token)).body;

    const comments = await t.api.get(`/comment/${task.id}`, owner.token);
    expect(comments.body.map((c: any) => c.content)).toEqual(['First!', 'Second']);
    const acts = await t.api.get(`/activity/${task.id}`, owner.token);
    expect(acts.body.map((a: any) => a.type)).toEqual(['comment', 'status_changed', 'comment', 'created']);
    expect(acts.body[0]).toEqual(second);
    expect(acts.body[1]).toMatchObject({ taskId: task.id, userId: owner.user.id, eventData: { oldStatus: 'to-do', newStatus: 'done' }, externalSource: null });
    expect((await t.api.post(`/comment/${task.id}`, { content: '   ' }, owner.token)).status).toBe(400);
    expect((await t.api.post(`/comment/${task.id}`, {}, owner.token)).status).toBe(400);
    expect((await t.api.post(`/comment/${MISSING_ID}`, { content: 'x' }, owner.token)).body).toEqual({ message: 'Task not found' });
  });

  it('only the author edits or deletes a comment; to anyone else it is not found', async () => {
    const { owner, workspaceId, task } = await taskOnBoard();
    const member = await userWithRole(t, workspaceId, 'member');
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const c = (await t.api.post(`/comment/${task.id}`, { content: 'Mine' }, member.token)).body;

    const notFound = { message: 'Comment not found' };
    expect((await t.api.put(`/comment/${c.id}`, { content: 'Hijacked' }, owner.token)).body).toEqual(notFound);
    expect((await t.api.delete(`/comment/${c.id}`, owner.token)).body).toEqual(notFound);
    expect((await t.api.post(`/comment/${task.id}`, { content: 'x' }, viewer.token)).body).toEqual({ message: 'Insufficient permissions' });
    expect((await t.api.get(`/comment/${task.id}`, viewer.token)).body).toHaveLength(1);

    expect((await t.api.put(`/comment/${c.id}`, { content: ' ' }, member.token)).status).toBe(400);
    expect((await t.api.put(`/comment/${c.id}`, { content: 'x', type: 'created' }, member.token)).status).toBe(400);
    const edited = await t.api.put(`/comment/${c.id}`, { content: 'Mine, edited' }, member.token);
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ ...c, content: 'Mine, edited' });

    // A non-comment activity is never a comment.
    const [created] = await sql(t.databaseUrl, `SELECT id FROM activity WHERE task_id = $1 AND type = 'created'`, [task.id]);
    expect((await t.api.put(`/comment/${created.id}`, { content: 'x' }, owner.token)).body).toEqual(notFound);
    expect((await t.api.delete(`/comment/${created.id}`, owner.token)).body).toEqual(notFound);

    const del = await t.api.delete(`/comment/${c.id}`, member.token);
    expect(del.status).toBe(200);
    expect(del.body.id).toBe(c.id);
    expect((await t.api.get(`/comment/${task.id}`, member.token)).body).toEqual([]);
    expect((await t.api.delete(`/comment/${c.id}`, member.token)).body).toEqual(notFound);
  });
});
