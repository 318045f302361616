import { startTestApp, TestApp } from '../../support/app';
import { createProject, createTask, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/**
 * An API key's read scope covers its resource's own fields; what an answer shows of another
 * resource needs that resource's scope too (docs/decisions-local.md, "Access rules" 5): the task
 * export's label names need `label:read`, the assignee names of task relations `workspace:read`
 * (the scope that reads the members). A key without them gets `labels: null` / `assigneeName:
 * null`; sessions and unscoped keys see everything as before.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const LABEL = 'Confidential-merger-label';
const ASSIGNEE = 'Ada Private-Assignee';

/** A project with a labelled task assigned to a named member, related to a second task. */
async function board() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const member = await userWithRole(t, workspaceId, 'member');
  expect((await t.api.post('/auth/update-user', { name: ASSIGNEE }, member.token)).status).toBe(200);
  const project = await createProject(t, owner.token, workspaceId);
  const labelled = await createTask(t, owner.token, project.id, { title: 'Labelled', userId: member.user.id });
  const other = await createTask(t, owner.token, project.id, { title: 'Other' });
  expect((await t.api.post('/label', { name: LABEL, color: 'red', workspaceId, taskId: labelled.id }, owner.token)).status).toBe(200);
  expect((await t.api.post('/task-relation', { sourceTaskId: labelled.id, targetTaskId: other.id, relationType: 'blocks' }, owner.token)).status).toBe(200);
  const key = async (permissions?: Record<string, string[]>) => {
    const res = await t.api.post('/auth/api-key/create', permissions ? { permissions } : {}, owner.token);
    expect(res.status).toBe(200);
    return res.body.key as string;
  };
  return { owner, member, project, labelled, other, key };
}

const exportOf = async (projectId: string, token: string) => {
  const res = await t.api.get(`/task/export/${projectId}`, token);
  expect(res.status).toBe(200);
  return res;
};
const relationsOf = async (taskId: string, token: string) => {
  const res = await t.api.get(`/task-relation/${taskId}`, token);
  expect(res.status).toBe(200);
  return res;
};

describe('GET /task/export/:projectId', () => {
  it('a key with only task:read gets the tasks with labels: null and no label name; label:read, a session or an unscoped key see the labels', async () => {
    const { owner, project, key } = await board();
    const withLabels = (await exportOf(project.id, owner.token)).body;
    const labelsOf = (body: any) => body.tasks.map((x: any) => [x.title, x.labels]);
    expect(labelsOf(withLabels)).toEqual([
      ['Labelled', [{ name: LABEL, color: 'red' }]],
      ['Other', []],
    ]);

    const bare = await exportOf(project.id, await key({ task: ['read'] }));
    expect(labelsOf(bare.body)).toEqual([
      ['Labelled', null],
      ['Other', null],
    ]);
    expect(bare.text).not.toContain(LABEL);
    // Everything else is as the session sees it.
    const withoutLabels = (body: any) => ({ ...body, project: { ...body.project, exportedAt: null }, tasks: body.tasks.map((x: any) => ({ ...x, labels: null })) });
    expect(withoutLabels(bare.body)).toEqual(withoutLabels(withLabels));

    for (const token of [await key({ task: ['read'], label: ['read'] }), await key()]) {
      expect(labelsOf((await exportOf(project.id, token)).body)).toEqual(labelsOf(withLabels));
    }
    // An export without its labels imports back as it is.
    const target = await createProject(t, owner.token, project.workspaceId);
    const imported = await t.api.post(`/task/import/${target.id}`, { tasks: bare.body.tasks }, owner.token);
    expect([imported.status, imported.body.results?.successful]).toEqual([200, 2]);
  });
});

describe('GET /task-relation/:taskId', () => {
  it('a key with only task:read gets the assignee id but not the name; workspace:read, a session or an unscoped key see the name', async () => {
    const { owner, member, labelled, key } = await board();
    const names = (body: any[]) => body.map((r) => [r.sourceTask.title, r.sourceTask.userId, r.sourceTask.assigneeName, r.targetTask.assigneeName]);
    const full = (await relationsOf(labelled.id, owner.token)).body;
    expect(names(full)).toEqual([['Labelled', member.user.id, ASSIGNEE, null]]);

    for (const scopes of [{ task: ['read'] }, { task: ['read'], label: ['read'], project: ['read'] }] as Record<string, string[]>[]) {
      const bare = await relationsOf(labelled.id, await key(scopes));
      expect(names(bare.body)).toEqual([['Labelled', member.user.id, null, null]]);
      expect(bare.text).not.toContain(ASSIGNEE);
      expect(bare.text).not.toContain(member.user.email);
      const anonymous = (body: any[]) => body.map((r) => ({ ...r, sourceTask: { ...r.sourceTask, assigneeName: null } }));
      expect(bare.body).toEqual(anonymous(full));
    }

    for (const token of [await key({ task: ['read'], workspace: ['read'] }), await key()]) {
      expect((await relationsOf(labelled.id, token)).body).toEqual(full);
    }
  });
});
