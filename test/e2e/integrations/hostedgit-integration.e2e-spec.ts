import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';
import { withFailingInsert } from '../../support/failing-insert';
import { sql } from '../../support/fixtures';
import { nearMissUrls } from '../../support/near-misses';
import { appKeyPair, FakeHostedgit, hmacHex, hostedgitAppEnv, linkHostedgit, sendHostedgitWebhook } from '../../support/git-hosts';
import { HttpReceiver } from '../../support/http-receiver';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';
import { requestsOrFailure } from './delivery-support';

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
    // The private key as an environment file holds it: on one line, with \n escapes.
    ...hostedgitAppEnv(github, keys.privateKey.replace(/\n/g, '\\n')),
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

/** A repository `owner/name` with the App installed (INSTALLATION) and `admin` as its admin on the host. */
function repoWithAdmin(owner: string, name: string, admin = `admin-${name}`, installation: number | null = INSTALLATION) {
  github.addRepo(owner, name, installation, { [admin]: 'admin' });
  return admin;
}

/** A project linked to `octo/repo-<n>` through the App's authorization; helpers to send events about that repository. */
async function linked(fields: Record<string, unknown> = {}) {
  const b = await board();
  const name = `repo-${n}`;
  const admin = repoWithAdmin('Octo', name);
  const res = await linkHostedgit(t.api, github, b.owner.token, b.project.id, { repositoryOwner: 'Octo', repositoryName: name, ...fields }, admin);
  expect([res.status, res.text]).toEqual([200, expect.any(String)]);
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
  it("linking proves control: the repository's admin authorizes the App, the callback links it with the installation the host names", async () => {
    const { owner, workspaceId, project } = await board();
    const admin = repoWithAdmin('acme', `api-${n}`, undefined, 12345678);
    expect((await t.api.get(`/hostedgit-integration/project/${project.id}`, owner.token)).text).toBe('null');
    const start = await t.api.post(`/hostedgit-integration/project/${project.id}/authorize`, { repositoryOwner: 'acme', repositoryName: `api-${n}` }, owner.token);
    expect(start.status).toBe(200);
    const url = new URL(start.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${github.url}/login/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe(github.clientId);
    expect(url.searchParams.get('redirect_uri')).toMatch(/\/api\/hostedgit-integration\/callback$/);
    expect(start.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^tandem_oauth_\w+=[\w-]+; Path=\/api\/hostedgit-integration\/callback; Max-Age=600; HttpOnly; SameSite=Lax/),
    ]);
    // Nothing is linked until the host confirms.
    expect((await t.api.get(`/hostedgit-integration/project/${project.id}`, owner.token)).text).toBe('null');

    const back = github.approve(start.body.url, admin);
    const cookie = start.headers.getSetCookie()[0].split(';')[0];
    const res = await t.api.get(`/hostedgit-integration/callback${back.search}`, undefined, { headers: { cookie } });
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
      repositoryName: `api-${n}`,
      installationId: 12345678,
      isActive: true,
      branchPattern: '{slug}-{number}',
      commentTaskLinkOnHostedgitIssue: false,
    });
    expect(res.headers.getSetCookie()).toEqual([expect.stringMatching(/^tandem_oauth_\w+=; Path=\/api\/hostedgit-integration\/callback; Max-Age=0/)]);
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    expect((await t.api.get(`/hostedgit-integration/project/${project.id}`, viewer.token)).body).toEqual(res.body);
    // The state works once.
    const replay = await t.api.get(`/hostedgit-integration/callback${back.search}`, undefined, { headers: { cookie } });
    expect([replay.status, replay.body]).toEqual([400, { message: 'Invalid or expired state' }]);

    // POST changes the settings of the proven link in place; the installation stays the host's.
    const path = `/hostedgit-integration/project/${project.id}`;
    const same = await t.api.post(path, { repositoryOwner: 'ACME', repositoryName: `API-${n}`, branchPattern: 'gh-{number}' }, owner.token);
    expect([same.status, same.body]).toEqual([200, expect.objectContaining({ id: res.body.id, installationId: 12345678, branchPattern: 'gh-{number}', repositoryOwner: 'ACME' })]);
    const wrongInstallation = await t.api.post(path, { repositoryOwner: 'acme', repositoryName: `api-${n}`, installationId: 777 }, owner.token);
    expect([wrongInstallation.status, wrongInstallation.body]).toEqual([400, { message: 'installationId is not the installation of the App that covers the repository' }]);
    const other = await t.api.post(path, { repositoryOwner: 'acme', repositoryName: 'elsewhere' }, owner.token);
    expect([other.status, other.body.message]).toEqual([403, expect.stringMatching(/^Link a repository through POST \/hostedgit-integration\/project\/:projectId\/authorize/)]);
    expect((await t.api.get(path, owner.token)).body).toMatchObject({ repositoryName: `API-${n}`, installationId: 12345678 });
  });

  it('nobody links a repository they do not administer: the direct POST, a writer, a stranger to it, a repository without the App', async () => {
    const victim = await board();
    const repo = `crown-jewels-${n}`;
    const admin = repoWithAdmin('victim-org', repo);
    github.repoRoles.get(`victim-org/${repo}`)!.set('writer', 'write');
    const attacker = await board();
    const body = { repositoryOwner: 'victim-org', repositoryName: repo, installationId: INSTALLATION };

    const direct = await t.api.post(`/hostedgit-integration/project/${attacker.project.id}`, body, attacker.owner.token);
    expect([direct.status, direct.body.message]).toEqual([403, expect.stringMatching(/^Link a repository through POST/)]);
    const writer = await linkHostedgit(t.api, github, attacker.owner.token, attacker.project.id, body, 'writer');
    expect([writer.status, writer.body]).toEqual([403, { message: `You must be an admin or maintainer of victim-org/${repo} on the hosted git service to link it` }]);
    const stranger = await linkHostedgit(t.api, github, attacker.owner.token, attacker.project.id, body, 'attacker');
    expect([stranger.status, stranger.body]).toEqual([
      403,
      { message: `The hosted git service does not show you victim-org/${repo} through the App (is the App installed on it?)` },
    ]);
    github.addRepo('victim-org', `no-app-${n}`, null, { attacker: 'admin' });
    const noApp = await linkHostedgit(t.api, github, attacker.owner.token, attacker.project.id, { repositoryOwner: 'victim-org', repositoryName: `no-app-${n}` }, 'attacker');
    expect(noApp.status).toBe(403);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM git_integration WHERE project_id = $1`, [attacker.project.id])).toHaveLength(0);

    // The real admin links it; the attacker still cannot take it, and gets the 409 only with proof.
    expect((await linkHostedgit(t.api, github, victim.owner.token, victim.project.id, body, admin)).status).toBe(200);
    expect((await t.api.post(`/hostedgit-integration/project/${attacker.project.id}`, body, attacker.owner.token)).status).toBe(403);
    expect((await linkHostedgit(t.api, github, attacker.owner.token, attacker.project.id, body, 'writer')).status).toBe(403);
    const [row] = await sql(t.databaseUrl, `SELECT project_id FROM git_integration WHERE type = 'hostedgit' AND repository_key = $1 AND is_active`, [`victim-org/${repo}`]);
    expect(row.project_id).toBe(victim.project.id);
  });

  it('the flow is tied to its browser, its credential and its permission; a cancelled authorization links nothing', async () => {
    const { owner, workspaceId, project } = await board();
    const admin = repoWithAdmin('acme', `flow-${n}`);
    const body = { repositoryOwner: 'acme', repositoryName: `flow-${n}` };
    const begin = () => t.api.post(`/hostedgit-integration/project/${project.id}/authorize`, body, owner.token);
    const cookieOf = (r: { headers: Headers }) => r.headers.getSetCookie()[0].split(';')[0];

    // Another browser (no cookie, or another flow's) brings the code back: refused.
    const a = await begin();
    const b = await begin();
    const noCookie = await t.api.get(`/hostedgit-integration/callback${github.approve(a.body.url, admin).search}`);
    expect([noCookie.status, noCookie.body]).toEqual([400, { message: 'This link was not started in this browser' }]);
    const wrongCookie = await t.api.get(`/hostedgit-integration/callback${github.approve(b.body.url, admin).search}`, undefined, { headers: { cookie: cookieOf(a) } });
    expect(wrongCookie.status).toBe(400);

    // The user cancels on the host's page.
    const c = await begin();
    const state = new URL(c.body.url).searchParams.get('state')!;
    const cancelled = await t.api.get(`/hostedgit-integration/callback?error=access_denied&state=${state}`, undefined, { headers: { cookie: cookieOf(c) } });
    expect([cancelled.status, cancelled.body]).toEqual([400, { message: 'The hosted git service refused the authorization: access_denied' }]);

    // The session that started it ended meanwhile.
    const session = (await userWithRole(t, workspaceId, 'admin')).token;
    const d = await t.api.post(`/hostedgit-integration/project/${project.id}/authorize`, body, session);
    expect((await t.api.post('/auth/sign-out', {}, session)).status).toBe(200);
    const ended = await t.api.get(`/hostedgit-integration/callback${github.approve(d.body.url, admin).search}`, undefined, { headers: { cookie: cookieOf(d) } });
    expect([ended.status, ended.body]).toEqual([401, { message: 'Unauthorized' }]);

    // An admin who started it was made a plain member meanwhile.
    const demoted = await userWithRole(t, workspaceId, 'admin');
    const e = await t.api.post(`/hostedgit-integration/project/${project.id}/authorize`, body, demoted.token);
    expect(e.status).toBe(200);
    await sql(t.databaseUrl, `UPDATE member SET role = 'member' WHERE organization_id = $1 AND user_id = $2`, [workspaceId, demoted.user.id]);
    const lost = await t.api.get(`/hostedgit-integration/callback${github.approve(e.body.url, admin).search}`, undefined, { headers: { cookie: cookieOf(e) } });
    expect([lost.status, lost.body]).toEqual([403, { message: 'Insufficient permissions: workspace:manage_settings is needed' }]);
    expect((await t.api.get(`/hostedgit-integration/project/${project.id}`, owner.token)).text).toBe('null');

    // A plain member cannot start one.
    const member = await userWithRole(t, workspaceId, 'member');
    expect((await t.api.post(`/hostedgit-integration/project/${project.id}/authorize`, body, member.token)).status).toBe(403);
  });

  it('with a callbackURL the browser is sent back to the client, with the outcome in the query', async () => {
    const { owner, project } = await board();
    const admin = repoWithAdmin('acme', `cb-${n}`);
    const body = { repositoryOwner: 'acme', repositoryName: `cb-${n}`, callbackURL: '/projects/settings' };
    const refused = await t.api.post(`/hostedgit-integration/project/${project.id}/authorize`, { ...body, callbackURL: 'https://evil.example/x' }, owner.token);
    expect([refused.status, refused.body]).toEqual([400, { message: 'callbackURL must be on the origin of CLIENT_URL or PUBLIC_API_URL' }]);
    for (const [what, callbackURL] of nearMissUrls(CLIENT_URL)) {
      const near = await t.api.post(`/hostedgit-integration/project/${project.id}/authorize`, { ...body, callbackURL }, owner.token);
      expect([what, callbackURL, near.status, near.body]).toEqual([what, callbackURL, 400, { message: 'callbackURL must be on the origin of CLIENT_URL or PUBLIC_API_URL' }]);
    }

    const failed = await linkHostedgit(t.api, github, owner.token, project.id, body, 'nobody');
    expect(failed.status).toBe(302);
    const fail = new URL(failed.headers.get('location')!);
    expect(`${fail.origin}${fail.pathname}`).toBe(`${CLIENT_URL}/projects/settings`);
    expect(Object.fromEntries(fail.searchParams)).toEqual({
      hostedgit: 'error',
      message: `The hosted git service does not show you acme/cb-${n} through the App (is the App installed on it?)`,
    });

    const ok = await linkHostedgit(t.api, github, owner.token, project.id, body, admin);
    expect(ok.status).toBe(302);
    expect(Object.fromEntries(new URL(ok.headers.get('location')!).searchParams)).toEqual({ hostedgit: 'linked', projectId: project.id });
    expect((await t.api.get(`/hostedgit-integration/project/${project.id}`, owner.token)).body).toMatchObject({ repositoryName: `cb-${n}`, installationId: INSTALLATION });
  });

  it('PATCH answers errors as {error}; none → 404 {error: "Integration not found"}', async () => {
    const { owner, workspaceId, project } = await board();
    const path = `/hostedgit-integration/project/${project.id}`;
    expect(await t.api.patch(path, { isActive: false }, owner.token).then((r) => [r.status, r.body])).toEqual([404, { error: 'Integration not found' }]);
    const admin = repoWithAdmin('acme', `patch-${n}`);
    expect((await linkHostedgit(t.api, github, owner.token, project.id, { repositoryOwner: 'acme', repositoryName: `patch-${n}` }, admin)).status).toBe(200);
    const member = await userWithRole(t, workspaceId, 'member');
    const stranger = await t.api.signUp();
    const cases: [string | undefined, unknown, number, string][] = [
      [owner.token, { repositoryName: 'x' }, 400, 'property repositoryName should not exist'],
      [owner.token, { isActive: 'yes' }, 400, 'isActive must be a boolean value'],
      [member.token, { isActive: false }, 403, 'Insufficient permissions: workspace:manage_settings is needed'],
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
    expect((await t.api.post(path, { repositoryOwner: 'acme' }, member.token)).body).toEqual({ message: 'Insufficient permissions: workspace:manage_settings is needed' });
    expect((await t.api.delete(path, owner.token)).body).toEqual({ success: true });
    expect((await t.api.delete(path, owner.token)).body).toEqual({ message: 'Integration not found' });
  });

  it('one active project per repository: 409 ({message} on the link, {error} on PATCH)', async () => {
    const a = await board();
    const b = await board();
    const repo = { repositoryOwner: 'acme', repositoryName: `shared-${n}` };
    const admin = repoWithAdmin('acme', repo.repositoryName);
    expect((await linkHostedgit(t.api, github, a.owner.token, a.project.id, repo, admin)).status).toBe(200);
    const taken = await linkHostedgit(t.api, github, b.owner.token, b.project.id, { repositoryOwner: 'ACME', repositoryName: repo.repositoryName.toUpperCase() }, admin);
    expect([taken.status, taken.body]).toEqual([409, { message: 'This repository is already linked to another active project' }]);
    await t.api.patch(`/hostedgit-integration/project/${a.project.id}`, { isActive: false }, a.owner.token);
    expect((await linkHostedgit(t.api, github, b.owner.token, b.project.id, repo, admin)).status).toBe(200);
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

  it('a delivery whose application fails is not recorded: 500, nothing changed, and the same delivery sent again applies once', async () => {
    const { project, send, issue } = await linked();
    const marker = 'Refused the first time';
    const payload = { action: 'opened', issue: issue(4, marker) };
    const deliveryId = randomUUID();
    const receipts = () => sql(t.databaseUrl, `SELECT 1 FROM git_webhook_receipt WHERE receiver = 'hostedgit' AND delivery_id = $1`, [deliveryId]);

    // Postgres refuses the task's row: a failure inside the transaction the receipt is written in.
    const first = await withFailingInsert(t.databaseUrl, 'task', 'title', marker, () => send('issues', payload, { deliveryId }));
    expect([first.status, first.body]).toEqual([500, { error: 'Internal server error' }]);
    expect(await tasksOf(project.id)).toEqual([]);
    expect(await receipts()).toEqual([]);

    // The host's redelivery: the same id and the same bytes.
    const again = await send('issues', payload, { deliveryId });
    expect([again.status, again.body]).toEqual([200, { ok: true, outcome: 'applied', taskIds: [expect.any(String)] }]);
    expect(await tasksOf(project.id)).toEqual([{ id: again.body.taskIds[0], title: marker, status: 'to-do' }]);
    expect(await receipts()).toHaveLength(1);
    expect((await send('issues', payload, { deliveryId })).body).toEqual({ ok: true, outcome: 'duplicate', taskIds: [] });
  });

  it('javascript: links of comments, avatars, issues and pull requests are stored as null; https links are kept', async () => {
    const { owner, send, issue, slug } = await linked();
    const evil = 'javascript:alert(1)';
    const opened = await send('issues', { action: 'opened', issue: issue(8, 'Links', { html_url: evil }) });
    const taskId = opened.body.taskIds[0];
    const comment = (id: number, htmlUrl: string, avatarUrl: string) =>
      send('issue_comment', {
        action: 'created',
        issue: issue(8, 'Links', { html_url: evil }),
        comment: { id, body: `Comment ${id}`, user: { login: `user${id}`, avatar_url: avatarUrl }, html_url: htmlUrl },
      });
    expect((await comment(1, evil, evil)).body.outcome).toBe('applied');
    await comment(2, 'data:text/html,<b>x</b>', 'avatars/relative.png');
    await comment(3, 'https://hosted.example/Octo/r/issues/8#issuecomment-3', 'https://avatars.example/user3');
    const comments = (await t.api.get(`/comment/${taskId}`, owner.token)).body;
    expect(comments.map((c: any) => [c.content, c.externalUrl, c.externalUserAvatar])).toEqual([
      ['Comment 1', null, null],
      ['Comment 2', null, null],
      ['Comment 3', 'https://hosted.example/Octo/r/issues/8#issuecomment-3', 'https://avatars.example/user3'],
    ]);
    const pr = (number: number, htmlUrl: string) => ({
      action: 'opened',
      number,
      pull_request: { number, title: `PR ${number}`, body: null, state: 'open', merged: false, head: { ref: `${slug}-1-links` }, html_url: htmlUrl },
    });
    expect((await send('pull_request', pr(31, evil))).body.taskIds).toEqual([taskId]);
    await send('pull_request', pr(32, 'https://hosted.example/Octo/r/pull/32'));
    const links = (await t.api.get(`/external-link/task/${taskId}`, owner.token)).body;
    expect(links.map((l: any) => [l.resourceType, l.externalId, l.url])).toEqual([
      ['issue', '8', null],
      ['pull_request', '31', null],
      ['pull_request', '32', 'https://hosted.example/Octo/r/pull/32'],
    ]);
    expect(JSON.stringify({ comments, links }).toLowerCase()).not.toMatch(/javascript:|data:/);
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
    // A change without an actor: a delivery or fan-out that fails on it fails the wait at once, naming why.
    await requestsOrFailure(t, hooks, project.id, path, 1);
    await send('push', { ref: `refs/heads/${slug}-${a.number}`, after: 'c'.repeat(40) });
    const [, changed] = await requestsOrFailure(t, hooks, project.id, path, 2);
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

  it('linking answers 503 without the App and its OAuth client', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(bare);
    const project = await createProject(bare, owner.token, workspaceId, { slug: 'BARE' });
    const res = await bare.api.post(`/hostedgit-integration/project/${project.id}/authorize`, { repositoryOwner: 'a', repositoryName: 'b' }, owner.token);
    expect([res.status, res.body.message]).toEqual([503, expect.stringMatching(/^Linking a hostedgit repository is not configured on this server/)]);
  });
});
