import { PNG_BYTES, uploadFile } from '../../support/files';
import { startTestApp, TestApp } from '../../support/app';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';

/** GET /task/card-details/:projectId: what the board's cards show beside each task (docs/web.md, "The board"). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

describe('card details', () => {
  it('counts labels, comments, subtasks done and open blockers per task but the archived', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Cards' });
    const parent = await createTask(t, owner.token, project.id, { title: 'Parent' });
    const childDone = await createTask(t, owner.token, project.id, { title: 'Child done', status: 'done' });
    const childOpen = await createTask(t, owner.token, project.id, { title: 'Child open' });
    const blocker = await createTask(t, owner.token, project.id, { title: 'Blocker' });
    const doneBlocker = await createTask(t, owner.token, project.id, { title: 'Done blocker', status: 'done' });
    const planned = await createTask(t, owner.token, project.id, { title: 'Someday', status: 'planned' });
    for (const name of ['bug', 'api']) expect((await t.api.post('/label', { name, color: '#ff0000', workspaceId, taskId: parent.id }, owner.token)).status).toBe(200);
    for (const content of ['one', 'two']) expect((await t.api.post(`/comment/${parent.id}`, { content }, owner.token)).status).toBe(200);
    for (const [sourceTaskId, targetTaskId, relationType] of [
      [parent.id, childDone.id, 'subtask'],
      [parent.id, childOpen.id, 'subtask'],
      [blocker.id, parent.id, 'blocks'],
      [doneBlocker.id, parent.id, 'blocks'],
      [parent.id, blocker.id, 'related'],
    ])
      expect((await t.api.post('/task-relation', { sourceTaskId, targetTaskId, relationType }, owner.token)).status).toBe(200);

    // An attachment counts; an image of the description does not (docs/files.md).
    for (const surface of ['attachment', 'description']) await uploadFile(t, owner.token, parent.id, PNG_BYTES, { surface });

    const res = await t.api.get(`/task/card-details/${project.id}`, owner.token);
    expect(res.status).toBe(200);
    const byId = new Map((res.body as { taskId: string }[]).map((d) => [d.taskId, d]));
    expect(byId.get(parent.id)).toEqual({
      taskId: parent.id,
      labels: [
        { name: 'api', color: '#ff0000' },
        { name: 'bug', color: '#ff0000' },
      ],
      commentCount: 2,
      attachmentCount: 1,
      subtasks: { total: 2, done: 1 },
      blockedBy: 1,
    });
    expect(byId.get(childOpen.id)).toEqual({ taskId: childOpen.id, labels: [], commentCount: 0, attachmentCount: 0, subtasks: { total: 0, done: 0 }, blockedBy: 0 });
    expect(byId.get(planned.id)).toMatchObject({ commentCount: 0 });
    expect(res.body).toHaveLength(6);
  });

  it('is 404 for a project of another workspace', async () => {
    const a = await ownerWithWorkspace(t);
    const b = await ownerWithWorkspace(t);
    const project = await createProject(t, a.owner.token, a.workspaceId);
    expect(await t.api.get(`/task/card-details/${project.id}`, b.owner.token)).toMatchObject({ status: 404, body: { message: 'Project not found' } });
  });
});
