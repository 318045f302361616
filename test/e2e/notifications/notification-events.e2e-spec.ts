import { TimeEntryRepository } from '../../../src/modules/time-entry/time-entry.repository';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { createTask, MISSING_ID } from '../../support/work-items';
import { team } from './notification-support';

/**
 * The two personal event kinds are written by the change itself, into the outbox, in the same
 * statement (docs/notifications.md, "Who hears of what"). An API-only process relays nothing, so
 * the outbox rows stay for the test to read.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const eventsOfTask = (taskId: string) =>
  sql(t.databaseUrl, `SELECT id, queue, name, payload FROM outbox WHERE payload->'task'->>'id' = $1 ORDER BY created_at, payload->>'occurredAt'`, [taskId]);

describe('assignment', () => {
  it('an assignment writes a taskAssigned event with the history row, an unassignment a taskUnassigned one; assigning the same user again writes none', async () => {
    const { owner, bob, project } = await team(t);
    const task = await createTask(t, owner.token, project.id);
    expect((await t.api.put(`/task/assignee/${task.id}`, { userId: bob.user.id }, owner.token)).status).toBe(200);
    const [history] = await sql(t.databaseUrl, `SELECT id FROM activity WHERE task_id = $1 AND type = 'assignee_changed'`, [task.id]);
    const [created, assigned] = await eventsOfTask(task.id);
    expect(created.name).toBe('taskCreated');
    expect(assigned).toMatchObject({
      id: history.id,
      queue: 'task-events',
      name: 'taskAssigned',
      payload: {
        id: history.id,
        kind: 'taskAssigned',
        task: { id: task.id, assigneeId: bob.user.id },
        actor: { id: owner.user.id, name: owner.user.name },
        data: { oldUserId: null, newUserId: bob.user.id },
      },
    });

    expect((await t.api.put(`/task/assignee/${task.id}`, { userId: bob.user.id }, owner.token)).status).toBe(200);
    expect((await t.api.put(`/task/assignee/${task.id}`, { userId: null }, owner.token)).status).toBe(200);
    const events = await eventsOfTask(task.id);
    expect(events.map((e) => e.name)).toEqual(['taskCreated', 'taskAssigned', 'taskUnassigned']);
    expect(events[2].payload).toMatchObject({ task: { assigneeId: null }, data: { oldUserId: bob.user.id, newUserId: null, oldUserName: bob.user.name, newUserName: null } });
    expect((await sql(t.databaseUrl, `SELECT type FROM activity WHERE task_id = $1 ORDER BY created_at`, [task.id])).map((a) => a.type)).toEqual([
      'created',
      'assignee_changed',
      'unassigned',
    ]);
  });

  it('one update that reassigns and changes the status writes both events, the task snapshot after the change', async () => {
    const { owner, bob, project } = await team(t);
    const task = await createTask(t, owner.token, project.id);
    expect((await t.api.put(`/task/${task.id}`, { userId: bob.user.id, status: 'done' }, owner.token)).status).toBe(200);
    const events = (await eventsOfTask(task.id)).slice(1);
    expect(events.map((e) => e.name)).toEqual(['taskStatusChanged', 'taskAssigned']);
    for (const e of events) expect(e.payload.task).toMatchObject({ status: 'done', assigneeId: bob.user.id });
  });
});

describe('time entries', () => {
  it('a time entry writes a timeEntryCreated event (id = the entry) in the insert itself', async () => {
    const { owner, bob, project } = await team(t);
    const task = await createTask(t, owner.token, project.id, { userId: bob.user.id });
    const entry = await t.api.post('/time-entry', { taskId: task.id, startTime: '2030-01-02T09:00:00Z', description: 'Running' }, owner.token);
    expect(entry.status).toBe(200);
    const [, e] = await eventsOfTask(task.id);
    expect(e).toEqual({
      id: entry.body.id,
      queue: 'task-events',
      name: 'timeEntryCreated',
      payload: {
        id: entry.body.id,
        kind: 'timeEntryCreated',
        occurredAt: entry.body.createdAt,
        workspaceId: expect.any(String),
        project: { id: project.id, name: project.name, slug: project.slug },
        task: expect.objectContaining({ id: task.id, number: task.number, assigneeId: bob.user.id }),
        actor: { id: owner.user.id, name: owner.user.name },
        data: { timeEntryId: entry.body.id, startTime: '2030-01-02T09:00:00.000Z', endTime: null, duration: 0, description: 'Running' },
      },
    });
    // Editing or deleting an entry tells nobody.
    expect((await t.api.put(`/time-entry/${entry.body.id}`, { endTime: '2030-01-02T10:00:00Z' }, owner.token)).status).toBe(200);
    expect((await t.api.delete(`/time-entry/${entry.body.id}`, owner.token)).status).toBe(200);
    expect(await eventsOfTask(task.id)).toHaveLength(2);
  });

  it('an insert that fails writes no event either', async () => {
    const { owner, workspaceId } = await team(t);
    const [{ n: before }] = await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM outbox`);
    const repo = t.running.app.get(TimeEntryRepository);
    const start = new Date('2030-01-01T00:00:00Z');
    await expect(repo.insert(workspaceId, MISSING_ID, owner.user.id, { description: null, startTime: start, endTime: null, duration: 0 })).rejects.toMatchObject({ code: '23503' });
    const [{ n: after }] = await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM outbox`);
    expect(after).toBe(before);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM time_entry WHERE task_id = $1`, [MISSING_ID])).toEqual([]);
  });
});
