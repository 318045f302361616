import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { appKeyPair, FakeHostedgit, FakeIssue, FakeSelfgit, hostedgitAppEnv, linkHostedgit, sendHostedgitWebhook, sendSelfgitWebhook } from '../../support/git-hosts';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/**
 * Workflow rules (which column a git event moves a task to) and the external links the git hosts
 * write: the routes, their refusals, and both hosts' webhooks consulting the rules of their own host.
 */

const TOKEN = 'rules-token-0123456789abcdef';
const SECRET = 'hostedgit-webhook-secret';
const APP_ID = '515151';
const INSTALLATION = 888;
const keys = appKeyPair();
const selfgit = new FakeSelfgit();
const hostedgit = new FakeHostedgit(APP_ID, keys.publicKey);
let t: TestApp;

beforeAll(async () => {
  await Promise.all([selfgit.start(), hostedgit.start()]);
  selfgit.addUser(TOKEN, 'ada');
  hostedgit.installations.add(INSTALLATION);
  t = await startTestApp({ HOSTEDGIT_WEBHOOK_SECRET: SECRET, ...hostedgitAppEnv(hostedgit, keys.privateKey) });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([selfgit.stop(), hostedgit.stop()]);
});

let n = 0;

async function board() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId, { slug: `WF${++n}` });
  const columns: { id: string; slug: string }[] = (await t.api.get(`/column/${project.id}`, owner.token)).body;
  const column = (slug: string) => columns.find((c) => c.slug === slug)!.id;
  const addColumn = async (name: string) => {
    const res = await t.api.post(`/column/${project.id}`, { name }, owner.token);
    expect(res.status).toBe(200);
    columns.push(res.body);
    return res.body as { id: string; slug: string };
  };
  const rule = (integrationType: string, eventType: string, columnId: string, token = owner.token) =>
    t.api.put(`/workflow-rule/${project.id}`, { integrationType, eventType, columnId }, token);
  return { owner, workspaceId, project, slug: project.slug as string, column, addColumn, rule };
}

/** A project linked to a fresh selfgit repository, with a sender of signed webhooks. */
async function selfgitBoard() {
  const b = await board();
  const name = `wf-${n}`;
  const repo = selfgit.addRepo('acme', name, { access: { [TOKEN]: 'write' } });
  const rec = (
    await t.api.post(`/selfgit-integration/project/${b.project.id}`, { baseUrl: selfgit.url, accessToken: TOKEN, repositoryOwner: 'acme', repositoryName: name }, b.owner.token)
  ).body;
  const url = `${t.url}/selfgit-integration/webhook/${rec.id}`;
  const repository = selfgit.repositoryJson(repo);
  const send = (event: string, payload: Record<string, unknown>) => sendSelfgitWebhook(url, rec.webhookSecret, event, { ...payload, repository });
  const issue = (i: FakeIssue) => selfgit.issueJson(repo, i);
  return { ...b, rec, send, issue };
}

/** A project linked to a hostedgit repository through the App installation. */
async function hostedgitBoard() {
  const b = await board();
  const name = `wf-${n}`;
  hostedgit.addRepo('Octo', name, INSTALLATION, { [`admin-${name}`]: 'admin' });
  const res = await linkHostedgit(t.api, hostedgit, b.owner.token, b.project.id, { repositoryOwner: 'Octo', repositoryName: name }, `admin-${name}`);
  expect(res.status).toBe(200);
  const repository = { id: 1000 + n, name, full_name: `Octo/${name}`, owner: { login: 'Octo' }, html_url: `https://hosted.example/Octo/${name}` };
  const send = (event: string, payload: Record<string, unknown>) =>
    sendHostedgitWebhook(`${t.url}/hostedgit-integration/webhook`, SECRET, event, { repository, installation: { id: INSTALLATION }, ...payload });
  return { ...b, rec: res.body, send };
}

const statusOf = async (id: string) => (await sql(t.databaseUrl, `SELECT status FROM task WHERE id = $1`, [id]))[0].status;
const pull = (action: string, number: number, branch: string, merged = false) => ({
  action,
  number,
  pull_request: {
    number,
    title: `PR ${number}`,
    body: null,
    state: action === 'closed' ? 'closed' : 'open',
    merged,
    head: { ref: branch },
    html_url: `https://git.example/pulls/${number}`,
  },
});

describe('workflow rule routes', () => {
  it('PUT creates the rule of a (host, event), then replaces it in place; GET lists them with their column; DELETE answers the rule as it was', async () => {
    const { owner, project, column, rule } = await board();
    expect((await t.api.get(`/workflow-rule/${project.id}`, owner.token)).body).toEqual([]);

    const created = await rule('selfgit', 'pr_opened', column('in-progress'));
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      projectId: project.id,
      integrationType: 'selfgit',
      eventType: 'pr_opened',
      columnId: column('in-progress'),
      columnName: 'In Progress',
      columnSlug: 'in-progress',
      createdAt: expect.any(String),
      updatedAt: created.body.createdAt,
    });
    // The same trio again with another column: the same rule, pointed elsewhere.
    const replaced = await rule('selfgit', 'pr_opened', column('done'));
    expect(replaced.body).toMatchObject({ id: created.body.id, columnId: column('done'), columnSlug: 'done', createdAt: created.body.createdAt });
    expect(replaced.body.updatedAt > created.body.updatedAt).toBe(true);
    const hosted = (await rule('hostedgit', 'branch_push', column('in-review'))).body;
    const opened = (await rule('selfgit', 'issue_opened', column('in-progress'))).body;

    // hostedgit first, then selfgit; events in their listed order.
    const listed = (await t.api.get(`/workflow-rule/${project.id}`, owner.token)).body;
    expect(listed.map((r: any) => [r.integrationType, r.eventType, r.columnSlug])).toEqual([
      ['hostedgit', 'branch_push', 'in-review'],
      ['selfgit', 'pr_opened', 'done'],
      ['selfgit', 'issue_opened', 'in-progress'],
    ]);
    expect(listed[0]).toEqual(hosted);

    expect(await t.api.delete(`/workflow-rule/${opened.id}`, owner.token)).toMatchObject({ status: 200, body: opened });
    expect(await t.api.delete(`/workflow-rule/${opened.id}`, owner.token)).toMatchObject({ status: 404, body: { message: 'Workflow rule not found' } });
    expect((await t.api.get(`/workflow-rule/${project.id}`, owner.token)).body).toHaveLength(2);
  });

  it('refuses a column of another project, a bad id or value, members without project:update, and outsiders; a refused PUT writes nothing', async () => {
    const { owner, workspaceId, project, column, rule } = await board();
    const sibling = await createProject(t, owner.token, workspaceId, { slug: `WF${++n}` });
    const siblingColumn = (await t.api.get(`/column/${sibling.id}`, owner.token)).body[0].id;
    const message = 'columnId must be a column of this project';
    expect(await rule('selfgit', 'pr_opened', siblingColumn)).toMatchObject({ status: 400, body: { message } });
    expect(await rule('selfgit', 'pr_opened', MISSING_ID)).toMatchObject({ status: 400, body: { message } });
    expect(await rule('selfgit', 'pr_opened', 'not-an-id')).toMatchObject({ status: 400, body: { message } });
    expect(await rule('gitlab', 'pr_opened', column('done'))).toMatchObject({
      status: 400,
      body: { message: 'integrationType must be one of the following values: hostedgit, selfgit' },
    });
    expect((await rule('selfgit', 'pr_closed', column('done'))).body.message).toMatch(/^eventType must be one of the following values: branch_push, pr_opened/);
    expect((await t.api.put(`/workflow-rule/${project.id}`, { integrationType: 'selfgit', eventType: 'pr_opened' }, owner.token)).status).toBe(400);
    expect((await t.api.put(`/workflow-rule/${project.id}`, { integrationType: 'selfgit', eventType: 'pr_opened', columnId: column('done'), extra: 1 }, owner.token)).status).toBe(
      400,
    );
    expect(await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM workflow_rule WHERE workspace_id = $1`, [workspaceId])).toEqual([{ n: 0 }]);

    const kept = (await rule('selfgit', 'pr_merged', column('done'))).body;
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    expect((await t.api.get(`/workflow-rule/${project.id}`, viewer.token)).body).toEqual([kept]);
    expect(await rule('selfgit', 'pr_merged', column('to-do'), viewer.token)).toMatchObject({
      status: 403,
      body: { message: 'Insufficient permissions: project:update is needed' },
    });
    expect((await t.api.delete(`/workflow-rule/${kept.id}`, viewer.token)).status).toBe(403);

    const stranger = await ownerWithWorkspace(t);
    expect(await t.api.get(`/workflow-rule/${project.id}`, stranger.owner.token)).toMatchObject({ status: 404, body: { message: 'Project not found' } });
    expect((await rule('selfgit', 'pr_merged', column('to-do'), stranger.owner.token)).status).toBe(404);
    expect(await t.api.delete(`/workflow-rule/${kept.id}`, stranger.owner.token)).toMatchObject({ status: 404, body: { message: 'Workflow rule not found' } });
    // Nor does the stranger's own project take this project's column.
    const theirs = await createProject(t, stranger.owner.token, stranger.workspaceId, { slug: `WF${++n}` });
    expect(await t.api.put(`/workflow-rule/${theirs.id}`, { integrationType: 'selfgit', eventType: 'pr_opened', columnId: column('done') }, stranger.owner.token)).toMatchObject({
      status: 400,
      body: { message },
    });
    expect((await t.api.get(`/workflow-rule/${project.id}`, owner.token)).body).toEqual([kept]);
    expect((await t.api.get(`/workflow-rule/${project.id}`)).status).toBe(401);
  });

  it('a rule goes with its column; the event then falls back to its default', async () => {
    const { owner, project, addColumn, rule } = await board();
    const qa = await addColumn('QA');
    const r = (await rule('hostedgit', 'pr_opened', qa.id)).body;
    expect(r.columnSlug).toBe('qa');
    expect((await t.api.delete(`/column/${qa.id}`, owner.token)).status).toBe(200);
    expect((await t.api.get(`/workflow-rule/${project.id}`, owner.token)).body).toEqual([]);
  });
});

describe('the git hosts consult the rules of their own host', () => {
  it("selfgit: pushes, pull requests and opened issues go to the rule's column; hostedgit's rules do not apply; without a rule the default", async () => {
    const { owner, project, slug, column, addColumn, rule, send, issue } = await selfgitBoard();
    const qa = await addColumn('QA');
    expect((await rule('selfgit', 'pr_opened', qa.id)).status).toBe(200);
    expect((await rule('selfgit', 'issue_opened', column('in-progress'))).status).toBe(200);
    expect((await rule('hostedgit', 'branch_push', column('in-review'))).status).toBe(200);

    const a = await createTask(t, owner.token, project.id, { title: 'A' });
    const pushed = await send('push', { ref: `refs/heads/${slug}-${a.number}-work`, before: '0'.repeat(40), after: 'a'.repeat(40), commits: [] });
    expect(pushed.body).toMatchObject({ outcome: 'applied', taskIds: [a.id] });
    expect(await statusOf(a.id)).toBe('in-progress'); // the hostedgit rule is not this host's
    await send('pull_request', pull('opened', 5, `${slug}-${a.number}-work`));
    expect(await statusOf(a.id)).toBe('qa');
    await send('pull_request', pull('closed', 5, `${slug}-${a.number}-work`, true));
    expect(await statusOf(a.id)).toBe('done');

    const opened = await send('issues', { action: 'opened', number: 9, issue: issue({ number: 9, title: 'From an issue' }) });
    expect(await statusOf(opened.body.taskIds[0])).toBe('in-progress');
    // A `status:` label is more specific than the rule.
    const labelled = await send('issues', { action: 'opened', number: 10, issue: issue({ number: 10, title: 'Labelled', labels: [{ name: 'status:in-review' }] }) });
    expect(await statusOf(labelled.body.taskIds[0])).toBe('in-review');

    // The rule's column deleted: the rule goes, and an opened pull request moves to in-review again.
    expect((await t.api.delete(`/column/${qa.id}`, owner.token)).status).toBe(200);
    const b = await createTask(t, owner.token, project.id, { title: 'B' });
    await send('pull_request', pull('opened', 6, `${slug}-${b.number}`));
    expect(await statusOf(b.id)).toBe('in-review');
  });

  it('hostedgit: a pr_merged rule decides where a merge goes; a push never takes a task out of a final column, rule or not', async () => {
    const { owner, project, slug, addColumn, column, rule, send } = await hostedgitBoard();
    const released = await addColumn('Released');
    expect((await rule('hostedgit', 'pr_merged', released.id)).status).toBe(200);
    expect((await rule('hostedgit', 'branch_push', column('to-do'))).status).toBe(200);
    const a = await createTask(t, owner.token, project.id, { title: 'A' });
    await send('pull_request', pull('opened', 12, `${slug}-${a.number}`));
    expect(await statusOf(a.id)).toBe('in-review');
    await send('pull_request', pull('closed', 12, `${slug}-${a.number}`, true));
    expect(await statusOf(a.id)).toBe('released');

    const done = await createTask(t, owner.token, project.id, { title: 'Done already', status: 'done' });
    await send('push', { ref: `refs/heads/${slug}-${done.number}`, deleted: false, after: 'c'.repeat(40) });
    expect(await statusOf(done.id)).toBe('done');
    const open = await createTask(t, owner.token, project.id, { title: 'Open', status: 'in-progress' });
    await send('push', { ref: `refs/heads/${slug}-${open.number}`, deleted: false, after: 'd'.repeat(40) });
    expect(await statusOf(open.id)).toBe('to-do');
  });
});

describe('external links', () => {
  it("GET /external-link/task/:taskId lists the task's branches, pull requests and issues; members read them, nobody else", async () => {
    const { owner, workspaceId, project, slug, rec, send, issue } = await selfgitBoard();
    const a = await createTask(t, owner.token, project.id, { title: 'A' });
    expect((await t.api.get(`/external-link/task/${a.id}`, owner.token)).body).toEqual([]);
    await send('push', { ref: `refs/heads/${slug}-${a.number}-login`, before: '0'.repeat(40), after: 'a'.repeat(40), commits: [] });
    await send('pull_request', pull('opened', 3, `${slug}-${a.number}-login`));
    const links = (await t.api.get(`/external-link/task/${a.id}`, owner.token)).body;
    expect(links).toEqual([
      {
        id: expect.any(String),
        taskId: a.id,
        integrationId: rec.id,
        resourceType: 'branch',
        externalId: `${slug}-${a.number}-login`,
        url: `${selfgit.url}/acme/wf-${n}/src/branch/${slug}-${a.number}-login`,
        title: `${slug}-${a.number}-login`,
        metadata: {},
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
      {
        id: expect.any(String),
        taskId: a.id,
        integrationId: rec.id,
        resourceType: 'pull_request',
        externalId: '3',
        url: 'https://git.example/pulls/3',
        title: 'PR 3',
        metadata: { state: 'open', branch: `${slug}-${a.number}-login` },
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);

    const opened = await send('issues', { action: 'opened', number: 4, issue: issue({ number: 4, title: 'Bug' }) });
    const [issueLink] = (await t.api.get(`/external-link/task/${opened.body.taskIds[0]}`, owner.token)).body;
    expect(issueLink).toMatchObject({ resourceType: 'issue', externalId: '4', title: 'Bug', metadata: { state: 'open' } });

    const viewer = await userWithRole(t, workspaceId, 'viewer');
    expect((await t.api.get(`/external-link/task/${a.id}`, viewer.token)).body).toEqual(links);
    const stranger = await ownerWithWorkspace(t);
    expect(await t.api.get(`/external-link/task/${a.id}`, stranger.owner.token)).toMatchObject({ status: 404, body: { message: 'Task not found' } });
    expect(await t.api.get(`/external-link/task/${MISSING_ID}`, owner.token)).toMatchObject({ status: 404, body: { message: 'Task not found' } });
    // Deleting the task takes its links with it.
    expect((await t.api.delete(`/task/${a.id}`, owner.token)).status).toBe(200);
    expect(await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM external_link WHERE task_id = $1`, [a.id])).toEqual([{ n: 0 }]);
  });
});
