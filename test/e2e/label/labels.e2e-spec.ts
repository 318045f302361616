import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { MISSING_ID, createTask, taskOnBoard, userWithRole } from '../../support/work-items';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());
describe('labels', () => {
  it('creates catalogue labels idempotently per name; with taskId also attaches and answers the task copy', async () => {
    const { owner, workspaceId, project, task } = await taskOnBoard(t);
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
    const { owner, workspaceId } = await taskOnBoard(t);
    const stranger = await taskOnBoard(t);
    const COLOR = 'color must be a hex color like #RRGGBB or one of gray, dark-gray, purple, teal, green, yellow, orange, pink, red';
    const cases: [unknown, number, string][] = [
      [{ name: 'x', color: 'blue', workspaceId }, 400, COLOR],
      [{ name: 'x', color: 'Red', workspaceId }, 400, COLOR],
      [{ name: 'x', color: '#12345', workspaceId }, 400, COLOR],
      [{ name: 'x', color: '#1234567', workspaceId }, 400, COLOR],
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
    const { owner, workspaceId, project, task } = await taskOnBoard(t);
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
    const { owner, workspaceId, project, task } = await taskOnBoard(t);
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

  it('GET /label/:id/tasks lists the tasks that carry the label, oldest copy first, from the catalogue label or a copy', async () => {
    const { owner, workspaceId, project, task } = await taskOnBoard(t);
    const cat = (await t.api.post('/label', { name: 'Blocker', color: '#ff0000', workspaceId }, owner.token)).body;
    const other = (await t.api.post('/label', { name: 'Other', color: '#00ff00', workspaceId }, owner.token)).body;
    expect((await t.api.get(`/label/${cat.id}/tasks`, owner.token)).body).toEqual({ taskIds: [] });
    const t2 = await createTask(t, owner.token, project.id);
    const t3 = await createTask(t, owner.token, project.id);
    const copy = (await t.api.put(`/label/${cat.id}/task`, { taskId: t2.id }, owner.token)).body;
    await t.api.put(`/label/${cat.id}/task`, { taskId: task.id }, owner.token);
    await t.api.put(`/label/${other.id}/task`, { taskId: t3.id }, owner.token);
    expect((await t.api.get(`/label/${cat.id}/tasks`, owner.token)).body).toEqual({ taskIds: [t2.id, task.id] });
    expect((await t.api.get(`/label/${copy.id}/tasks`, owner.token)).body).toEqual({ taskIds: [t2.id, task.id] });
    await t.api.delete(`/label/${cat.id}/task`, owner.token, { taskId: t2.id });
    expect((await t.api.get(`/label/${cat.id}/tasks`, owner.token)).body).toEqual({ taskIds: [task.id] });
    expect((await t.api.get(`/label/${MISSING_ID}/tasks`, owner.token)).body).toEqual({ message: 'Label not found' });
  });

  it('viewers read labels but cannot write them; members can', async () => {
    const { owner, workspaceId, task } = await taskOnBoard(t);
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const member = await userWithRole(t, workspaceId, 'member');
    const cat = (await t.api.post('/label', { name: 'UI', color: '#abcdef', workspaceId }, member.token)).body;
    const forbidden = (permission: string) => ({ message: `Insufficient permissions: ${permission} is needed` });
    expect((await t.api.post('/label', { name: 'V', color: '#abcdef', workspaceId }, viewer.token)).body).toEqual(forbidden('label:create'));
    expect((await t.api.put(`/label/${cat.id}`, { name: 'V' }, viewer.token)).body).toEqual(forbidden('label:update'));
    expect((await t.api.put(`/label/${cat.id}/task`, { taskId: task.id }, viewer.token)).body).toEqual(forbidden('label:update'));
    expect((await t.api.delete(`/label/${cat.id}/task`, viewer.token, { taskId: task.id })).body).toEqual(forbidden('label:update'));
    expect((await t.api.delete(`/label/${cat.id}`, viewer.token)).body).toEqual(forbidden('label:delete'));
    expect((await t.api.get(`/label/workspace/${workspaceId}`, viewer.token)).body).toHaveLength(1);
    expect((await t.api.get(`/label/${cat.id}`, viewer.token)).status).toBe(200);
    expect((await t.api.put(`/label/${cat.id}/task`, { taskId: task.id }, member.token)).status).toBe(200);
    expect((await t.api.delete(`/label/${cat.id}`, owner.token)).status).toBe(200);
  });
});
