import { startTestApp, TestApp } from '../../support/app';
import { MISSING_ID, taskOnBoard, userWithRole } from '../../support/work-items';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());
describe('time entries', () => {
  it('records time in whole seconds; a missing end is a running timer', async () => {
    const { owner, task } = await taskOnBoard(t);
    const res = await t.api.post('/time-entry', { taskId: task.id, startTime: '2025-03-01T09:00:00Z', endTime: '2025-03-01T10:30:15.900Z', description: 'pairing' }, owner.token);
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
    const { owner, task } = await taskOnBoard(t);
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
    const { owner, task } = await taskOnBoard(t);
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
    const { owner, workspaceId, task } = await taskOnBoard(t);
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const e = (await t.api.post('/time-entry', { taskId: task.id, startTime: '2025-03-01T09:00:00Z' }, owner.token)).body;
    expect((await t.api.post('/time-entry', { taskId: task.id, startTime: '2025-03-01T09:00:00Z' }, viewer.token)).status).toBe(403);
    expect((await t.api.put(`/time-entry/${e.id}`, { description: 'x' }, viewer.token)).status).toBe(403);
    expect((await t.api.delete(`/time-entry/${e.id}`, viewer.token)).status).toBe(403);
    expect((await t.api.get(`/time-entry/${e.id}`, viewer.token)).status).toBe(200);
    expect((await t.api.get(`/time-entry/task/${task.id}`, viewer.token)).body).toHaveLength(1);
  });
});
