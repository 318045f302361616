import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { appKeyPair, FakeHostedgit, hmacHex, sendHostedgitWebhook } from '../../support/git-hosts';
import { HttpReceiver } from '../../support/http-receiver';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';

const CLIENT_URL = 'https://client.example.test';
const SECRET = 'hostedgit-webhook-secret';
const APP_ID = '424242';
const INSTALLATION = 777;
const keys = appKeyPair();
const github = new FakeHostedgit(APP_ID, keys.publicKey);
const hooks = new HttpReceiver();
let t: TestApp;
let webhookUrl: string;

beforeAll(async () => {
  await Promise.all([github.start(), hooks.start()]);
  github.installations.add(INSTALLATION);
  t = await startTestApp({
    CLIENT_URL,
    HOSTEDGIT_WEBHOOK_SECRET: SECRET,
    HOSTEDGIT_APP_ID: APP_ID,
    // As an environment file holds it: on one line, with \n escapes.
    HOSTEDGIT_APP_PRIVATE_KEY: keys.privateKey.replace(/\n/g, '\\n'),
    HOSTEDGIT_API_BASE_URL: github.url,
  });
  webhookUrl = `${t.url}/hostedgit-integration/webhook`;
});
afterAll(async () => {
  await t?.close();
  await Promise.all([github.stop(), hooks.stop()]);
});

let n = 0;

async function board() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId, { slug: `HG${++n}` });
  return { owner, workspaceId, project };
}

/** A project linked to `octo/repo-<n>`; helpers to send events about that repository. */
async function linked(fields: Record<string, unknown> = {}) {
  const b = await board();
  const name = `repo-${n}`;
  const res = await t.api.post(
    `/hostedgit-integration/project/${b.project.id}`,
    { repositoryOwner: 'Octo', repositoryName: name, installationId: INSTALLATION, ...fields },
    b.owner.token,
  );
  expect(res.status).toBe(200);
  const repository = { id: n, name, full_name: `Octo/${name}`, owner: { login: 'Octo' }, html_url: `https://hosted.example/Octo/${name}` };
  const send = (event: string, payload: Record<string, unknown>, o: { deliveryId?: string; signature?: string } = {}) =>
    sendHostedgitWebhook(webhookUrl, SECRET, event, { repository, installation: { id: INSTALLATION }, ...payload }, o);
  const issue = (number: number, title: string, over: Record<string, unknown> = {}) => ({
    number,
    title,
    body: null,
    state: 'open',
    labels: [],
    html_url: `https://hosted.example/Octo/${name}/issues/${number}`,
    user: { login: 'octocat', avatar_url: 'https://avatars.example/octocat' },
    ...over,
  });
  return { ...b, rec: res.body, name, repository, send, issue, slug: b.project.slug as string };
}

const task = async (id: string) => (await sql(t.databaseUrl, `SELECT id, title, status FROM task WHERE id = $1`, [id]))[0];
const tasksOf = (projectId: string) => sql(t.databaseUrl, `SELECT id, title, status FROM task WHERE project_id = $1 ORDER BY number`, [projectId]);

describe('hostedgit integration settings', () => {
  it('POST links a repository and answers the record; GET answers it (null before)', async () => {
    const { owner, workspaceId, project } = await board();
    expect((await t.api.get(`/hostedgit-integration/project/${project.id}`, owner.token)).text).toBe('null');
    const res = await t.api.post(`/hostedgit-integration/project/${project.id}`, { repositoryOwner: 'acme', repositoryName: 'api', installationId: 12345678 }, owner.token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'projectId',
      'repositoryOwner',
      'repositoryName',
      'installationId',
      'isActive',
      'createdAt',
      'updatedAt',
      'branchPattern',
      'commentTaskLinkOnHostedgitIssue',
    ]);
    expect(res.body).toMatchObject({
      projectId: project.id,
      repositoryOwner: 'acme',
      repositoryName: 'api',
      installationId: 12345678,
      isActive: true,
      branchPattern: '{slug}-{number}',
      commentTaskLinkOnHostedgitIssue: false,
    });
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    expect((await t.api.get(`/hostedgit-integration/project/${project.id}`, viewer.token)).body).toEqual(res.body);
    const without = await t.api.post(`/hostedgit-integration/project/${project.id}`, { repositoryOwner: 'acme', repositoryName: 'api' }, owner.token);
    expect(without.body).toMatchObject({ id: res.body.id, installationId: null });
  });

  it('PATCH answers errors as {error}; none → 404 {error: "Integration not found"}', async () => {
    const { owner, workspaceId, project } = await board();
    const path = `/hostedgit-integration/project/${project.id}`;
    expect(await t.api.patch(path, { isActive: false }, owner.token).then((r) => [r.status, r.body])).toEqual([404, { error: 'Integration not found' }]);
    await t.api.post(path, { repositoryOwner: 'acme', repositoryName: `patch-${n}` }, owner.token);
    const member = await userWithRole(t, workspaceId, 'member');
    const stranger = await t.api.signUp();
    const cases: [string | undefined, unknown, number, string][] = [
      [owner.token, { repositoryName: 'x' }, 400, 'property repositoryName should not exist'],
      [owner.token, { isActive: 'yes' }, 400, 'isActive must be a boolean value'],
      [member.token, { isActive: false }, 403, 'Insufficient permissions'],
      [stranger.token, { isActive: false }, 404, 'Project not found'],
      [undefined, { isActive: false }, 401, 'Unauthorized'],
    ];
    for (const [token, b, status, error] of cases) {
      const res = await t.api.patch(path, b, token);
      expect([b, res.status, res.body]).toEqual([b, status, { error }]);
    }
    expect((await t.api.patch(`/hostedgit-integration/project/${MISSING_ID}`, {}, owner.token)).body).toEqual({ error: 'Project not found' });
    expect((await t.api.patch('/hostedgit-integration/project/nope', {}, owner.token)).body).toEqual({ error: 'Project not found' });
    const broken = await t.api.request('PATCH', path, undefined, { token: owner.token, raw: '{"isActive":' });
    expect([broken.status, broken.body]).toEqual([400, { error: 'Invalid JSON body' }]);
    const ok = await t.api.patch(path, { isActive: false, commentTaskLinkOnHostedgitIssue: true, branchPattern: 'gh-{number}' }, owner.token);
    expect(ok.body).toMatchObject({ isActive: false, commentTaskLinkOnHostedgitIssue: true, branchPattern: 'gh-{number}' });
    // The other routes keep {message}.
    expect((await t.api.post(path, { repositoryOwner: 'acme' }, member.token)).body).toEqual({ message: 'Insufficient permissions' });
    expect((await t.api.delete(path, owner.token)).body).toEqual({ success: true });
    expect((await t.api.delete(path, owner.token)).body).toEqual({ message: 'Integration not found' });
  });

  it('one active project per repository: 409 ({message} on POST, {error} on PATCH)', async () => {
    const a = await board();
    const b = await board();
    const repo = { repositoryOwner: 'acme', repositoryName: `shared-${n}` };
    expect((await t.api.post(`/hostedgit-integration/project/${a.project.id}`, repo, a.owner.token)).status).toBe(200);
    const taken = await t.api.post(`/hostedgit-integration/project/${b.project.id}`, { repositoryOwner: 'ACME', repositoryName: repo.repositoryName.toUpperCase() }, b.owner.token);
    expect([taken.status, taken.body]).toEqual([409, { message: 'This repository is already linked to another active project' }]);
    await t.api.patch(`/hostedgit-integration/project/${a.project.id}`, { isActive: false }, a.owner.token);
    expect((await t.api.post(`/hostedgit-integration/project/${b.project.id}`, repo, b.owner.token)).status).toBe(200);
    const back = await t.api.patch(`/hostedgit-integration/project/${a.project.id}`, { isActive: true }, a.owner.token);
    expect([back.status, back.body]).toEqual([409, { error: 'This repository is already linked to another active project' }]);
  });
});

describe('inbound hostedgit webhook', () => {
  it('verifies X-Hub-Signature-256; a bad signature changes nothing and answers {error}', async () => {
    const { project, send, issue } = await linked();
    const payload = { action: 'opened', issue: issue(1, 'Forged') };
    for (const signature of ['', 'sha256=', `sha256=${hmacHex('wrong', '{}')}`, hmacHex(SECRET, JSON.stringify(payload))]) {
      const res = await send('issues', payload, { signature });
      expect([signature, res.status, res.body]).toEqual([signature, 401, { error: 'Invalid signature' }]);
    }
    expect(await tasksOf(project.id)).toEqual([]);
    expect((await send('ping', { zen: 'Keep it logically awesome.' })).body).toEqual({ ok: true, outcome: 'ignored', taskIds: [], reason: 'ping' });
  });

  it('issues, branches and pull requests move tasks as for selfgit; a replay changes nothing twice', async () => {
    const { owner, project, send, issue, slug } = await linked();
    const opened = await send('issues', { action: 'opened', issue: issue(3, 'From hostedgit', { body: 'details', labels: [{ name: 'priority:low', color: 'aaaaaa' }] }) });
    expect(opened.body.outcome).toBe('applied');
    const id = opened.body.taskIds[0];
    expect(await task(id)).toMatchObject({ title: 'From hostedgit', status: 'to-do' });
    const t2 = await createTask(t, owner.token, project.id, { title: 'Manual' });

    const deliveryId = randomUUID();
    const pushed = { ref: `refs/heads/${slug.toLowerCase()}-${t2.number}-work`, deleted: false, after: 'b'.repeat(40) };
    expect((await send('push', pushed, { deliveryId })).body).toEqual({ ok: true, outcome: 'applied', taskIds: [t2.id] });
    expect((await send('push', pushed, { deliveryId })).body.outcome).toBe('duplicate');
    expect((await task(t2.id)).status).toBe('in-progress');
    expect((await send('push', { ...pushed, deleted: true, after: '0'.repeat(40) })).body.outcome).toBe('ignored');

    const pr = (action: string, merged = false) => ({
      action,
      number: 12,
      pull_request: {
        number: 12,
        title: 'Work',
        body: null,
        state: action === 'closed' ? 'closed' : 'open',
        merged,
        head: { ref: `${slug}-${t2.number}-work` },
        html_url: 'https://hosted.example/pr/12',
      },
    });
    await send('pull_request', pr('opened'));
    expect((await task(t2.id)).status).toBe('in-review');
    await send('pull_request', pr('closed', true));
    expect((await task(t2.id)).status).toBe('done');

    await send('issues', { action: 'closed', issue: issue(3, 'From hostedgit', { state: 'closed' }) });
    expect((await task(id)).status).toBe('done');
    await send('issues', { action: 'reopened', issue: issue(3, 'From hostedgit') });
    expect((await task(id)).status).toBe('to-do');
    const comment = await send('issue_comment', {
      action: 'created',
      issue: issue(3, 'From hostedgit'),
      comment: { id: 99, body: 'LGTM', user: { login: 'mona', avatar_url: 'https://a/mona' }, html_url: 'https://hosted.example/c/99' },
    });
    expect(comment.body.outcome).toBe('applied');
    const [copied] = await sql(t.databaseUrl, `SELECT content, external_user_name, external_source, external_url FROM activity WHERE task_id = $1 AND type = 'comment'`, [id]);
    expect(copied).toEqual({ content: 'LGTM', external_user_name: 'mona', external_source: 'hostedgit', external_url: 'https://hosted.example/c/99' });
    // A comment on a pull request is not an issue comment.
    expect(
      (await send('issue_comment', { action: 'created', issue: issue(12, 'Work', { pull_request: { url: 'x' } }), comment: { id: 100, body: 'nit', user: { login: 'mona' } } }))
        .body.outcome,
    ).toBe('ignored');
  });

  it('events of a repository no active integration links, or of another installation, are ignored', async () => {
    const { project, issue, repository } = await linked();
    const stray = await sendHostedgitWebhook(webhookUrl, SECRET, 'issues', {
      action: 'opened',
      issue: issue(1, 'x'),
      repository: { ...repository, name: 'unlinked', full_name: 'Octo/unlinked' },
    });
    expect(stray.body).toEqual({ ok: true, outcome: 'ignored', taskIds: [], reason: 'No active integration links this repository' });
    const other = await sendHostedgitWebhook(webhookUrl, SECRET, 'issues', { action: 'opened', issue: issue(1, 'x'), repository, installation: { id: 1 } });
    expect(other.body).toEqual({ ok: true, outcome: 'ignored', taskIds: [], reason: 'The event comes from another installation of the App' });
    expect(await tasksOf(project.id)).toEqual([]);
  });

  it('the task-link comment goes through the REST API with an App installation token, once per issue', async () => {
    const { project, send, issue, name, slug } = await linked({ commentTaskLinkOnHostedgitIssue: true });
    const opened = await send('issues', { action: 'opened', issue: issue(5, 'Needs a link') });
    const id = opened.body.taskIds[0];
    const posted = github.posted.filter((p) => p.repo === `Octo/${name}`);
    expect(posted).toEqual([
      {
        repo: `Octo/${name}`,
        number: 5,
        body: `Tracked in Tandem as ${slug}-1: ${CLIENT_URL}/projects/${project.id}/tasks/${id}`,
        id: expect.any(Number),
        installation: INSTALLATION,
      },
    ]);
    // The token came from the installation-token endpoint, asked with the App's JWT (verified by the fake with the public key).
    const tokenCalls = github.requests.filter((r) => r.path === `/app/installations/${INSTALLATION}/access_tokens`);
    expect(tokenCalls.length).toBeGreaterThanOrEqual(1);
    expect(String(tokenCalls[0].headers.authorization)).toMatch(/^bearer /i);
    // The echo of that comment is not copied; further events post nothing more.
    const echo = await send('issue_comment', {
      action: 'created',
      issue: issue(5, 'Needs a link'),
      comment: { id: posted[0].id, body: posted[0].body, user: { login: 'tandem[bot]' } },
    });
    expect(echo.body.outcome).toBe('unchanged');
    await send('issues', { action: 'edited', issue: issue(5, 'Needs a link, really') });
    expect(github.posted.filter((p) => p.repo === `Octo/${name}`)).toHaveLength(1);
  });

  it('a status change made by the webhook reaches the generic webhook', async () => {
    const { owner, project, send, slug } = await linked();
    const path = `/hooks/hg-${n}`;
    await t.api.post(`/generic-webhook-integration/project/${project.id}`, { webhookUrl: `${hooks.url}${path}` }, owner.token);
    const a = await createTask(t, owner.token, project.id, { title: 'Via hostedgit' });
    await hooks.waitFor(path, 1);
    await send('push', { ref: `refs/heads/${slug}-${a.number}`, after: 'c'.repeat(40) });
    const [, changed] = await hooks.waitFor(path, 2);
    expect(changed.json).toMatchObject({
      event: 'task.status_changed',
      actor: null,
      task: { id: a.id, status: 'in-progress' },
      data: { oldStatus: 'to-do', newStatus: 'in-progress' },
    });
  });
});

describe('without HOSTEDGIT_WEBHOOK_SECRET', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await startTestApp({ APP_ROLES: 'api' });
  });
  afterAll(() => bare?.close());

  it('the webhook refuses every delivery with 503 {error}', async () => {
    const res = await sendHostedgitWebhook(`${bare.url}/hostedgit-integration/webhook`, 'anything', 'issues', { action: 'opened' });
    expect(res).toEqual({ status: 503, body: { error: 'The hostedgit webhook is not configured on this server (HOSTEDGIT_WEBHOOK_SECRET)' } });
  });
});
