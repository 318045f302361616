import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { MISSING_ID, taskOnBoard, userWithRole } from '../../support/work-items';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());
describe('comments and activity', () => {
  it('adds comments with the record shape; lists comments oldest first and activity newest first', async () => {
    const { owner, task } = await taskOnBoard(t);
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
    const { owner, workspaceId, task } = await taskOnBoard(t);
    const member = await userWithRole(t, workspaceId, 'member');
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const c = (await t.api.post(`/comment/${task.id}`, { content: 'Mine' }, member.token)).body;

    const notFound = { message: 'Comment not found' };
    expect((await t.api.put(`/comment/${c.id}`, { content: 'Hijacked' }, owner.token)).body).toEqual(notFound);
    expect((await t.api.delete(`/comment/${c.id}`, owner.token)).body).toEqual(notFound);
    expect((await t.api.post(`/comment/${task.id}`, { content: 'x' }, viewer.token)).body).toEqual({ message: 'Insufficient permissions: task:update is needed' });
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
