import { startTestApp, TestApp } from '../../support/app';
import { MISSING_ID, taskOnBoard, userWithRole } from '../../support/work-items';

/**
 * The original API's older comment routes (docs/compatibility.md, "Older comment routes"), with the
 * bodies the command-line client sends — `{taskId, comment}`, `{activityId, comment}`,
 * `{activityId}` — and the answers of the /comment routes.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const FORBIDDEN = { message: 'Insufficient permissions: task:update is needed' };

describe('POST/PUT/DELETE /activity/comment', () => {
  it('creates, edits and deletes a comment as the /comment routes do, with the same records', async () => {
    const { owner, task } = await taskOnBoard(t);
    const created = await t.api.post('/activity/comment', { taskId: task.id, comment: '  Old client  ' }, owner.token);
    expect([created.status, created.body]).toEqual([
      200,
      {
        id: expect.any(String),
        taskId: task.id,
        type: 'comment',
        createdAt: expect.any(String),
        userId: owner.user.id,
        content: 'Old client',
        eventData: null,
        externalUserName: null,
        externalUserAvatar: null,
        externalSource: null,
        externalUrl: null,
      },
    ]);
    expect((await t.api.get(`/comment/${task.id}`, owner.token)).body).toEqual([created.body]);

    const edited = await t.api.put('/activity/comment', { activityId: created.body.id, comment: 'Edited' }, owner.token);
    expect([edited.status, edited.body]).toEqual([200, { ...created.body, content: 'Edited' }]);
    expect((await t.api.get(`/comment/${task.id}`, owner.token)).body).toEqual([edited.body]);

    const deleted = await t.api.delete('/activity/comment', owner.token, { activityId: created.body.id });
    expect([deleted.status, deleted.body]).toEqual([200, edited.body]);
    expect((await t.api.get(`/comment/${task.id}`, owner.token)).body).toEqual([]);
    expect((await t.api.delete('/activity/comment', owner.token, { activityId: created.body.id })).body).toEqual({ message: 'Comment not found' });
  });

  it('refuses bad bodies with the documented messages', async () => {
    const { owner, task } = await taskOnBoard(t);
    const c = (await t.api.post('/activity/comment', { taskId: task.id, comment: 'x' }, owner.token)).body;
    for (const [method, body, status, message] of [
      ['POST', { comment: 'x' }, 400, 'taskId is required'],
      ['POST', { taskId: task.id, comment: '   ' }, 400, 'comment must be longer than or equal to 1 characters'],
      ['POST', { taskId: task.id, content: 'x' }, 400, 'property content should not exist, comment must be longer than or equal to 1 characters, comment must be a string'],
      ['POST', { taskId: MISSING_ID, comment: 'x' }, 404, 'Task not found'],
      ['POST', { taskId: 'nope', comment: 'x' }, 404, 'Task not found'],
      ['PUT', { comment: 'x' }, 400, 'activityId is required'],
      ['PUT', { activityId: c.id }, 400, 'comment must be longer than or equal to 1 characters, comment must be a string'],
      ['PUT', { activityId: MISSING_ID, comment: 'x' }, 404, 'Comment not found'],
      ['DELETE', {}, 400, 'activityId is required'],
      ['DELETE', { activityId: c.id, taskId: task.id }, 400, 'property taskId should not exist'],
      ['DELETE', { activityId: 'nope' }, 404, 'Comment not found'],
    ] as const) {
      const res = await t.api.request(method, '/activity/comment', body, { token: owner.token });
      expect([method, body, res.status, res.body]).toEqual([method, body, status, { message }]);
    }
    expect((await t.api.get(`/comment/${task.id}`, owner.token)).body).toEqual([c]);
  });

  it('another workspace → 404; a viewer → 403; only the author edits or deletes; an API key needs task:update', async () => {
    const { owner, workspaceId, task } = await taskOnBoard(t);
    const other = await taskOnBoard(t);
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const member = await userWithRole(t, workspaceId, 'member');
    const mine = (await t.api.post('/activity/comment', { taskId: task.id, comment: 'Mine' }, member.token)).body;

    expect((await t.api.post('/activity/comment', { taskId: task.id, comment: 'x' }, other.owner.token)).body).toEqual({ message: 'Task not found' });
    expect((await t.api.put('/activity/comment', { activityId: mine.id, comment: 'x' }, other.owner.token)).body).toEqual({ message: 'Comment not found' });
    expect((await t.api.delete('/activity/comment', other.owner.token, { activityId: mine.id })).body).toEqual({ message: 'Comment not found' });

    expect((await t.api.post('/activity/comment', { taskId: task.id, comment: 'x' }, viewer.token)).body).toEqual(FORBIDDEN);
    expect((await t.api.put('/activity/comment', { activityId: mine.id, comment: 'x' }, viewer.token)).body).toEqual(FORBIDDEN);
    expect((await t.api.delete('/activity/comment', viewer.token, { activityId: mine.id })).body).toEqual(FORBIDDEN);
    // The owner may comment, but not edit someone else's comment.
    expect((await t.api.put('/activity/comment', { activityId: mine.id, comment: 'x' }, owner.token)).body).toEqual({ message: 'Comment not found' });

    const readOnly = (await t.api.post('/auth/api-key/create', { permissions: { task: ['read'] } }, member.token)).body.key;
    expect((await t.api.post('/activity/comment', { taskId: task.id, comment: 'x' }, readOnly)).body).toEqual({ message: 'Insufficient API key scope' });
    expect((await t.api.delete('/activity/comment', readOnly, { activityId: mine.id })).body).toEqual({ message: 'Insufficient API key scope' });
    expect((await t.api.get(`/comment/${task.id}`, owner.token)).body).toEqual([mine]);
  });
});
