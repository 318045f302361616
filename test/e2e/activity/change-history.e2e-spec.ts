import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { createTask, MISSING_ID, taskOnBoard, userWithRole } from '../../support/work-items';

/**
 * The history rows of the changes that are not task fields (docs/records.md, "Activity"): each
 * change writes exactly one row of its type, with its values; a refused change writes none.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/** The task's history rows, oldest first, as stored. */
const rowsOf = (taskId: string) =>
  sql(t.databaseUrl, `SELECT type, user_id, content, event_data FROM activity WHERE task_id = $1 ORDER BY created_at, id`, [taskId]) as Promise<
    { type: string; user_id: string | null; content: string | null; event_data: Record<string, any> | null }[]
  >;

/** Runs `change` and answers the history rows it added to the task. */
async function added(taskId: string, change: () => Promise<unknown>) {
  const before = (await rowsOf(taskId)).length;
  await change();
  return (await rowsOf(taskId)).slice(before);
}

describe('history of every change', () => {
  it('records a start date set and cleared, once each, and nothing for the same date again', async () => {
    const { owner, task } = await taskOnBoard(t);
    const set = await added(task.id, async () => expect((await t.api.put(`/task/${task.id}`, { startDate: '2026-12-03T00:00:00Z' }, owner.token)).status).toBe(200));
    expect(set).toEqual([
      {
        type: 'start_date_changed',
        user_id: owner.user.id,
        content: 'set the start date to 2026-12-03',
        event_data: { oldStartDate: null, newStartDate: '2026-12-03T00:00:00.000Z' },
      },
    ]);
    expect(await added(task.id, () => t.api.put(`/task/${task.id}`, { startDate: '2026-12-03T00:00:00.000Z' }, owner.token))).toEqual([]);
    const cleared = await added(task.id, () => t.api.put(`/task/${task.id}`, { startDate: null }, owner.token));
    expect(cleared).toEqual([expect.objectContaining({ type: 'start_date_changed', event_data: { oldStartDate: '2026-12-03T00:00:00.000Z', newStartDate: null } })]);
    // The activity route answers it like any other history row.
    const [latest] = (await t.api.get(`/activity/${task.id}`, owner.token)).body;
    expect(latest).toMatchObject({ type: 'start_date_changed', userId: owner.user.id, eventData: { newStartDate: null } });
  });

  it('records a label put on and taken off, once each; an attach it already has and a refused detach record nothing', async () => {
    const { owner, workspaceId, task } = await taskOnBoard(t);
    const cat = (await t.api.post('/label', { name: 'Bug', color: '#EF4444', workspaceId }, owner.token)).body;
    let copy: any;
    const on = await added(task.id, async () => (copy = (await t.api.put(`/label/${cat.id}/task`, { taskId: task.id }, owner.token)).body));
    expect(on).toEqual([
      {
        type: 'label_added',
        user_id: owner.user.id,
        content: 'added label Bug',
        event_data: { labelId: copy.id, catalogLabelId: cat.id, name: 'Bug', color: '#EF4444' },
      },
    ]);
    expect(await added(task.id, () => t.api.put(`/label/${cat.id}/task`, { taskId: task.id }, owner.token))).toEqual([]);
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    expect(await added(task.id, async () => expect((await t.api.delete(`/label/${cat.id}/task`, viewer.token, { taskId: task.id })).status).toBe(403))).toEqual([]);
    const off = await added(task.id, async () => expect((await t.api.delete(`/label/${cat.id}/task`, owner.token, { taskId: task.id })).status).toBe(200));
    expect(off).toEqual([
      expect.objectContaining({ type: 'label_removed', user_id: owner.user.id, content: 'removed label Bug', event_data: expect.objectContaining({ name: 'Bug' }) }),
    ]);
    expect(await added(task.id, async () => expect((await t.api.delete(`/label/${cat.id}/task`, owner.token, { taskId: task.id })).status).toBe(404))).toEqual([]);
    // Creating a label with taskId attaches it: one row too.
    const made = await added(task.id, () => t.api.post('/label', { name: 'Feature', color: '#22c55e', workspaceId, taskId: task.id }, owner.token));
    expect(made.map((r) => [r.type, r.event_data?.name])).toEqual([['label_added', 'Feature']]);
  });

  it('records labels added and removed in bulk, one row per task that changed', async () => {
    const { owner, workspaceId, project, task } = await taskOnBoard(t);
    const other = await createTask(t, owner.token, project.id);
    const cat = (await t.api.post('/label', { name: 'Docs', color: '#0000ff', workspaceId }, owner.token)).body;
    await t.api.put(`/label/${cat.id}/task`, { taskId: task.id }, owner.token);
    const before = { task: (await rowsOf(task.id)).length, other: (await rowsOf(other.id)).length };
    const res = await t.api.patch('/task/bulk', { taskIds: [task.id, other.id], operation: 'addLabel', value: cat.id }, owner.token);
    expect(res.body).toEqual({ success: true, updatedCount: 1 });
    expect((await rowsOf(task.id)).length).toBe(before.task);
    expect((await rowsOf(other.id)).slice(before.other).map((r) => [r.type, r.user_id, r.event_data?.name])).toEqual([['label_added', owner.user.id, 'Docs']]);
    await t.api.patch('/task/bulk', { taskIds: [task.id, other.id], operation: 'removeLabel', value: 'docs' }, owner.token);
    expect((await rowsOf(task.id)).slice(before.task).map((r) => r.type)).toEqual(['label_removed']);
    expect((await rowsOf(other.id)).slice(before.other).map((r) => r.type)).toEqual(['label_added', 'label_removed']);
  });

  it('records a relation added and removed on its source task, naming the target by key; a refused one records nothing', async () => {
    const { owner, project, task } = await taskOnBoard(t);
    const target = await createTask(t, owner.token, project.id, { title: 'Target' });
    let relation: any;
    const made = await added(task.id, async () => {
      relation = (await t.api.post('/task-relation', { sourceTaskId: task.id, targetTaskId: target.id, relationType: 'blocks' }, owner.token)).body;
    });
    const key = `${project.slug}-${target.number}`;
    expect(made).toEqual([
      {
        type: 'relation_added',
        user_id: owner.user.id,
        content: `related ${key} (blocks)`,
        event_data: { relationId: relation.id, relationType: 'blocks', targetTaskId: target.id, targetKey: key },
      },
    ]);
    expect(await rowsOf(target.id)).toHaveLength(1); // only its `created`
    const again = await added(task.id, async () =>
      expect((await t.api.post('/task-relation', { sourceTaskId: target.id, targetTaskId: task.id, relationType: 'blocks' }, owner.token)).status).toBe(409),
    );
    expect(again).toEqual([]);
    expect(await rowsOf(target.id)).toHaveLength(1);
    const gone = await added(task.id, () => t.api.delete(`/task-relation/${relation.id}`, owner.token));
    expect(gone).toEqual([
      expect.objectContaining({
        type: 'relation_removed',
        user_id: owner.user.id,
        event_data: { relationId: relation.id, relationType: 'blocks', targetTaskId: target.id, targetKey: key },
      }),
    ]);
    expect(await added(task.id, async () => expect((await t.api.delete(`/task-relation/${relation.id}`, owner.token)).status).toBe(404))).toEqual([]);
  });

  it('records a comment added, edited and deleted, once each; edits and deletions by others record nothing', async () => {
    const { owner, workspaceId, task } = await taskOnBoard(t);
    const member = await userWithRole(t, workspaceId, 'member');
    let comment: any;
    const posted = await added(task.id, async () => (comment = (await t.api.post(`/comment/${task.id}`, { content: 'Hello' }, member.token)).body));
    expect(posted).toEqual([{ type: 'comment', user_id: member.user.id, content: 'Hello', event_data: null }]);
    expect(await added(task.id, async () => expect((await t.api.put(`/comment/${comment.id}`, { content: 'Hijacked' }, owner.token)).status).toBe(404))).toEqual([]);
    const edited = await added(task.id, () => t.api.put(`/comment/${comment.id}`, { content: 'Hello again' }, member.token));
    expect(edited).toEqual([{ type: 'comment_edited', user_id: member.user.id, content: 'edited a comment', event_data: { commentId: comment.id } }]);
    expect(await added(task.id, async () => expect((await t.api.delete(`/comment/${comment.id}`, owner.token)).status).toBe(404))).toEqual([]);
    const removed = await added(task.id, () => t.api.delete(`/comment/${comment.id}`, member.token));
    expect(removed).toEqual([]); // the comment row went, its deletion row came: the count is the same
    const rows = await rowsOf(task.id);
    expect(rows.filter((r) => r.type === 'comment')).toEqual([]);
    expect(rows.filter((r) => r.type === 'comment_deleted')).toEqual([
      { type: 'comment_deleted', user_id: member.user.id, content: 'deleted a comment', event_data: { commentId: comment.id } },
    ]);
    // The comments route still lists only comments.
    expect((await t.api.get(`/comment/${task.id}`, owner.token)).body).toEqual([]);
  });

  it('records a time entry added, edited and deleted, once each; an invalid edit and a missing entry record nothing', async () => {
    const { owner, task } = await taskOnBoard(t);
    let entry: any;
    const logged = await added(task.id, async () => {
      entry = (await t.api.post('/time-entry', { taskId: task.id, startTime: '2026-12-01T09:00:00.000Z', endTime: '2026-12-01T10:30:00.000Z' }, owner.token)).body;
    });
    expect(logged).toEqual([
      {
        type: 'time_entry_added',
        user_id: owner.user.id,
        content: 'logged time',
        event_data: { timeEntryId: entry.id, startTime: expect.any(String), endTime: expect.any(String), duration: 5400 },
      },
    ]);
    expect(Date.parse(logged[0].event_data!.startTime)).toBe(Date.parse('2026-12-01T09:00:00.000Z'));
    const refused = await added(task.id, async () => expect((await t.api.put(`/time-entry/${entry.id}`, { endTime: '2026-12-01T08:00:00.000Z' }, owner.token)).status).toBe(400));
    expect(refused).toEqual([]);
    const edited = await added(task.id, async () => expect((await t.api.put(`/time-entry/${entry.id}`, { endTime: '2026-12-01T09:45:00.000Z' }, owner.token)).status).toBe(200));
    expect(edited).toEqual([
      expect.objectContaining({
        type: 'time_entry_edited',
        user_id: owner.user.id,
        event_data: expect.objectContaining({ timeEntryId: entry.id, duration: 2700, oldDuration: 5400 }),
      }),
    ]);
    const removed = await added(task.id, () => t.api.delete(`/time-entry/${entry.id}`, owner.token));
    expect(removed).toEqual([
      expect.objectContaining({ type: 'time_entry_deleted', user_id: owner.user.id, event_data: expect.objectContaining({ timeEntryId: entry.id, duration: 2700 }) }),
    ]);
    expect(await added(task.id, async () => expect((await t.api.delete(`/time-entry/${entry.id}`, owner.token)).status).toBe(404))).toEqual([]);
    expect(
      await added(task.id, async () => expect((await t.api.post('/time-entry', { taskId: MISSING_ID, startTime: '2026-12-01T09:00:00.000Z' }, owner.token)).status).toBe(404)),
    ).toEqual([]);
  });
});
