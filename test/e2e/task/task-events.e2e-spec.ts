import { DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';
import { TaskChangesRepository } from '../../../src/modules/task/task-changes.repository';

let t: TestApp;
// API role only: no outbox relay runs, so the event rows the write path leaves stay to be read.
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const events = (taskId: string) =>
  sql(t.databaseUrl, `SELECT id, name, payload FROM outbox WHERE queue = 'task-events' AND payload->'task'->>'id' = $1 ORDER BY created_at, payload->>'occurredAt'`, [taskId]);

async function board() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId, { name: 'Apollo' });
  return { owner, workspaceId, project };
}

describe('task events written by the write path', () => {
  it('create: one taskCreated event whose id is its history row and whose snapshot names project, task and actor', async () => {
    const { owner, workspaceId, project } = await board();
    const task = await createTask(t, owner.token, project.id, { title: 'Launch', description: 'Go', priority: 'high' });
    const [ev, ...more] = await events(task.id);
    expect(more).toEqual([]);
    const [created] = await sql(t.databaseUrl, `SELECT id FROM activity WHERE task_id = $1 AND type = 'created'`, [task.id]);
    expect(ev.id).toBe(created.id);
    expect(ev.name).toBe('taskCreated');
    expect(ev.payload).toEqual({
      id: created.id,
      kind: 'taskCreated',
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      workspaceId,
      project: { id: project.id, name: 'Apollo', slug: project.slug },
      task: { id: task.id, number: 1, title: 'Launch', description: 'Go', status: task.status, priority: 'high', assigneeId: null, dueDate: null },
      actor: { id: owner.user.id, name: owner.user.name },
      data: { number: 1, status: task.status, priority: 'high', userId: null },
    });
  });

  it('an update emits one event per event-worthy change, none for other fields, and nothing when nothing changes', async () => {
    const { owner, project } = await board();
    const task = await createTask(t, owner.token, project.id, { title: 'Old' });
    const res = await t.api.put(`/task/${task.id}`, { title: 'New', status: 'done', priority: 'low', description: 'D', dueDate: '2030-01-01T00:00:00Z' }, owner.token);
    expect(res.status).toBe(200);
    const after = await events(task.id);
    expect(after.map((e) => e.name)).toEqual(['taskCreated', 'taskTitleChanged', 'taskDescriptionChanged', 'taskStatusChanged', 'taskPriorityChanged', 'taskDueDateChanged']);
    const byKind = Object.fromEntries(after.map((e) => [e.name, e.payload]));
    expect(byKind.taskStatusChanged.data).toEqual({ oldStatus: task.status, newStatus: 'done' });
    expect(byKind.taskTitleChanged.data).toEqual({ oldTitle: 'Old', newTitle: 'New' });
    expect(byKind.taskPriorityChanged.data).toEqual({ oldPriority: 'no-priority', newPriority: 'low' });
    expect(byKind.taskDescriptionChanged.data).toEqual({ oldDescription: null, newDescription: 'D' });
    expect(byKind.taskDueDateChanged.data).toEqual({ oldDueDate: null, newDueDate: '2030-01-01T00:00:00.000Z' });
    // The snapshot is the task after the whole change.
    expect(byKind.taskTitleChanged.task).toMatchObject({ title: 'New', status: 'done', priority: 'low', description: 'D' });

    // The same values again, and a change of a field without an event kind (the start date): no new event.
    expect((await t.api.put(`/task/${task.id}`, { title: 'New', status: 'done', dueDate: '2030-01-01T00:00:00Z' }, owner.token)).status).toBe(200);
    expect((await t.api.put(`/task/${task.id}`, { startDate: '2029-01-01T00:00:00Z' }, owner.token)).status).toBe(200);
    expect(await events(task.id)).toHaveLength(after.length);
  });

  it('a comment emits taskCommentCreated with the comment; a move emits taskMoved, and taskStatusChanged when it changes the status, to the destination', async () => {
    const { owner, workspaceId, project } = await board();
    const task = await createTask(t, owner.token, project.id);
    const comment = await t.api.post(`/comment/${task.id}`, { content: 'Looks good' }, owner.token);
    expect(comment.status).toBe(200);
    const dest = await createProject(t, owner.token, workspaceId, { name: 'Gemini' });
    // A destination without the task's column: the task lands in the first column there.
    await sql(t.databaseUrl, `DELETE FROM board_column WHERE project_id = $1 AND slug = $2`, [dest.id, task.status]);
    const moved = await t.api.put(`/task/move/${task.id}`, { destinationProjectId: dest.id }, owner.token);
    expect(moved.status).toBe(200);
    const all = await events(task.id);
    expect(all.map((e) => e.name)).toEqual(['taskCreated', 'taskCommentCreated', 'taskMoved', 'taskStatusChanged']);
    expect(all[1].payload.data).toEqual({ commentId: comment.body.id, content: 'Looks good' });
    const newStatus = all[3].payload.task.status;
    expect(all[2].payload.project).toEqual({ id: dest.id, name: 'Gemini', slug: dest.slug });
    expect(all[2].payload.data).toEqual({ sourceProjectId: project.id, destinationProjectId: dest.id, oldNumber: 1, newNumber: 1, oldStatus: task.status, newStatus });
    expect(all[3].payload.project).toEqual({ id: dest.id, name: 'Gemini', slug: dest.slug });
    expect(all[3].payload.data).toEqual({ oldStatus: task.status, newStatus });
    expect(newStatus).not.toBe(task.status);

    // A move that keeps the status emits its taskMoved only.
    const back = await t.api.put(`/task/move/${task.id}`, { destinationProjectId: project.id, destinationStatus: newStatus }, owner.token);
    expect(back.status).toBe(200);
    expect((await events(task.id)).map((e) => e.name)).toEqual(['taskCreated', 'taskCommentCreated', 'taskMoved', 'taskStatusChanged', 'taskMoved']);
  });

  it('a change rolled back inside its transaction leaves no event', async () => {
    const { owner, project } = await board();
    const task = await createTask(t, owner.token, project.id, { title: 'Kept' });
    const ds = t.running.app.get<DataSource>(getDataSourceToken());
    const changes = t.running.app.get(TaskChangesRepository);
    const [row] = await sql(t.databaseUrl, `SELECT * FROM task WHERE id = $1`, [task.id]);
    await expect(
      ds.transaction(async (m) => {
        const written = await changes.update(
          row,
          { set: { title: 'Lost' }, activities: [{ type: 'title_changed', content: 'x', eventData: { oldTitle: 'Kept', newTitle: 'Lost' } }] },
          owner.user.id,
          m,
        );
        expect(written?.title).toBe('Lost');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await events(task.id)).map((e) => e.name)).toEqual(['taskCreated']);
  });
});
