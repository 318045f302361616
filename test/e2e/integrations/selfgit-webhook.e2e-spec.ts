import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { ExternalCommentLinks1763782600000 } from '../../../src/database/migrations/1763782600000-ExternalCommentLinks';
import { startTestApp, TestApp } from '../../support/app';
import { withFailingInsert } from '../../support/failing-insert';
import { sql } from '../../support/fixtures';
import { FakeIssue, FakeSelfgit, hmacHex, sendSelfgitWebhook } from '../../support/git-hosts';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';
import { addIntegration, botToken, requestsOrFailure, ScriptedReceiver } from './delivery-support';

const TOKEN = 'webhook-token-0123456789abcdef';
const git = new FakeSelfgit();
const receiver = new ScriptedReceiver();
let t: TestApp;

beforeAll(async () => {
  await Promise.all([git.start(), receiver.start()]);
  git.addUser(TOKEN, 'ada');
  t = await startTestApp({ MESSENGER_API_BASE_URL: `${receiver.url}/messenger`, CLIENT_URL: 'http://localhost:5173' });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([git.stop(), receiver.stop()]);
});

let n = 0;

/** A project (key WEB<n>) linked to a fresh repository; its webhook URL and secret as the record shows them. */
async function linked(opts: { commentTaskLink?: boolean; hooks?: boolean } = {}) {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const slug = `WEB${++n}`;
  const project = await createProject(t, owner.token, workspaceId, { slug });
  const name = `hooked-${n}`;
  const repo = git.addRepo('acme', name, { access: { [TOKEN]: 'write' } });
  const rec = (
    await t.api.post(
      `/selfgit-integration/project/${project.id}`,
      { baseUrl: git.url, accessToken: TOKEN, repositoryOwner: 'acme', repositoryName: name, commentTaskLinkOnSelfgitIssue: opts.commentTaskLink ?? false },
      owner.token,
    )
  ).body;
  const url = `${t.url}/selfgit-integration/webhook/${rec.id}`;
  const send = (event: string, payload: unknown, o: { deliveryId?: string; signature?: string } = {}) => sendSelfgitWebhook(url, rec.webhookSecret, event, payload, o);
  const hookPath = `/hooks/${name}`;
  const chat = botToken();
  if (opts.hooks) {
    await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${hookPath}` });
    await addIntegration(t, owner.token, project.id, { type: 'messenger', botToken: chat, chatId: '-1001' });
  }
  const repository = git.repositoryJson(repo);
  const issuePayload = (action: string, i: FakeIssue) => ({ action, number: i.number, issue: git.issueJson(repo, i), repository, sender: { login: 'ada' } });
  return { owner, project, slug, repo, rec, url, send, hookPath, chatPath: `/messenger/bot${chat}/sendMessage`, repository, issuePayload };
}

const task = async (id: string) => (await sql(t.databaseUrl, `SELECT id, number, title, description, status, priority FROM task WHERE id = $1`, [id]))[0];
const tasksOf = (projectId: string) => sql(t.databaseUrl, `SELECT id, number, title, status FROM task WHERE project_id = $1 ORDER BY number`, [projectId]);
const activities = (taskId: string) =>
  sql(t.databaseUrl, `SELECT type, content, user_id, external_user_name, external_source FROM activity WHERE task_id = $1 ORDER BY created_at`, [taskId]);

const push = (repository: unknown, branch: string) => ({ ref: `refs/heads/${branch}`, before: '0'.repeat(40), after: 'a'.repeat(40), commits: [], repository });
const pull = (repository: unknown, action: string, number: number, branch: string, merged = false, title = `PR ${number}`) => ({
  action,
  number,
  pull_request: { number, title, body: '', state: action === 'closed' ? 'closed' : 'open', merged, head: { ref: branch }, html_url: `https://git.example/pulls/${number}` },
  repository,
});

describe('inbound selfgit webhook: issues and comments', () => {
  it('an opened issue creates its task; edited, closed and reopened update it; a comment is copied with its author', async () => {
    const { project, send, issuePayload, repo } = await linked();
    const i: FakeIssue = { number: 7, title: 'Crash on save', body: 'It crashes', labels: [{ name: 'priority:urgent' }, { name: 'bug' }] };
    repo.issues.push(i);
    const opened = await send('issues', issuePayload('opened', i));
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({ ok: true, outcome: 'applied', taskIds: [expect.any(String)] });
    const id = opened.body.taskIds[0];
    expect(await task(id)).toMatchObject({ title: 'Crash on save', description: 'It crashes', status: 'to-do', priority: 'urgent' });

    i.title = 'Crash on save (Safari)';
    expect((await send('issues', issuePayload('edited', i))).body).toEqual({ ok: true, outcome: 'applied', taskIds: [id] });
    i.state = 'closed';
    expect((await send('issues', issuePayload('closed', i))).body.outcome).toBe('applied');
    expect(await task(id)).toMatchObject({ title: 'Crash on save (Safari)', status: 'done' });
    i.state = 'open';
    await send('issues', issuePayload('reopened', i));
    expect((await task(id)).status).toBe('to-do');
    // The same again changes nothing.
    expect((await send('issues', issuePayload('edited', i))).body).toEqual({ ok: true, outcome: 'unchanged', taskIds: [] });

    const comment = { id: 77, body: 'Same here', user: 'zoe' };
    const res = await send('issue_comment', {
      action: 'created',
      issue: git.issueJson(repo, i),
      comment: git.commentJson(repo, i, comment),
      repository: git.repositoryJson(repo),
      is_pull: false,
    });
    expect(res.body).toEqual({ ok: true, outcome: 'applied', taskIds: [id] });
    const history = await activities(id);
    expect(history.map((a) => a.type)).toEqual(['created', 'title_changed', 'status_changed', 'status_changed', 'comment']);
    expect(history.every((a) => a.user_id === null)).toBe(true);
    expect(history[4]).toMatchObject({ content: 'Same here', external_user_name: 'zoe', external_source: 'selfgit' });

    // A comment on a pull request, an edited comment, and an unknown event are ignored.
    expect(
      (
        await send('issue_comment', {
          action: 'created',
          issue: git.issueJson(repo, i),
          comment: git.commentJson(repo, i, { ...comment, id: 78 }),
          repository: git.repositoryJson(repo),
          is_pull: true,
        })
      ).body,
    ).toMatchObject({ outcome: 'ignored' });
    expect(
      (await send('issue_comment', { action: 'edited', issue: git.issueJson(repo, i), comment: git.commentJson(repo, i, comment), repository: git.repositoryJson(repo) })).body,
    ).toMatchObject({ outcome: 'ignored' });
    expect((await send('release', { action: 'published', repository: git.repositoryJson(repo) })).body).toEqual({
      ok: true,
      outcome: 'ignored',
      taskIds: [],
      reason: 'Event release is not used',
    });
    expect(await tasksOf(project.id)).toHaveLength(1);
  });

  it('a comment on an issue without a task creates the task first; a closed issue starts in done', async () => {
    const { project, send, repo } = await linked();
    const i: FakeIssue = { number: 3, title: 'Docs typo' };
    const res = await send('issue_comment', {
      action: 'created',
      issue: git.issueJson(repo, i),
      comment: git.commentJson(repo, i, { id: 1, body: 'typo in README', user: 'x' }),
      repository: git.repositoryJson(repo),
      is_pull: false,
    });
    const [created] = await tasksOf(project.id);
    expect(res.body.taskIds).toEqual([created.id]);
    expect((await activities(created.id)).map((a) => a.type)).toEqual(['created', 'comment']);
    const closed = await send('issues', {
      action: 'closed',
      number: 4,
      issue: git.issueJson(repo, { number: 4, title: 'Old', state: 'closed' }),
      repository: git.repositoryJson(repo),
    });
    expect((await task(closed.body.taskIds[0])).status).toBe('done');
  });

  it('with commentTaskLinkOnSelfgitIssue, a task made from an opened issue is linked on the issue once; the echo of that comment is not copied', async () => {
    const { project, send, issuePayload, repo, slug } = await linked({ commentTaskLink: true });
    const i: FakeIssue = { number: 9, title: 'Add dark mode' };
    repo.issues.push(i);
    const opened = await send('issues', issuePayload('opened', i));
    const id = opened.body.taskIds[0];
    const [posted] = git.posted.filter((p) => p.repo === `acme/${repo.name}`);
    expect(posted).toMatchObject({ number: 9, body: `Tracked in Tandem as ${slug}-1: http://localhost:5173/projects/${project.id}/tasks/${id}` });
    // The server sends the comment back as an issue_comment event.
    const echo = await send('issue_comment', {
      action: 'created',
      issue: git.issueJson(repo, i),
      comment: git.commentJson(repo, i, { id: posted.id, body: posted.body, user: 'ada' }),
      repository: git.repositoryJson(repo),
      is_pull: false,
    });
    expect(echo.body.outcome).toBe('unchanged');
    await send('issues', issuePayload('edited', { ...i, title: 'Add dark mode!' }));
    expect(git.posted.filter((p) => p.repo === `acme/${repo.name}`)).toHaveLength(1);
    expect((await activities(id)).filter((a) => a.type === 'comment')).toEqual([]);
  });
});

describe('inbound selfgit webhook: branches and pull requests', () => {
  it('a push to a branch naming a task moves it to in-progress, a pull request opened to in-review, merged to done', async () => {
    const { owner, project, slug, send, repository } = await linked();
    const a = await createTask(t, owner.token, project.id, { title: 'Login page' });
    const b = await createTask(t, owner.token, project.id, { title: 'Other' });

    expect((await send('push', push(repository, `feature/${slug.toLowerCase()}-${a.number}-login`))).body).toEqual({ ok: true, outcome: 'applied', taskIds: [a.id] });
    expect((await task(a.id)).status).toBe('in-progress');
    // No task named, a number that is only a prefix, a tag: nothing moves.
    for (const branch of ['main', `${slug}-${a.number}9`, `x${slug}-${a.number}`]) expect((await send('push', push(repository, branch))).body.outcome).toBe('unchanged');
    expect((await send('push', { ...push(repository, 'x'), ref: `refs/tags/${slug}-${a.number}` })).body.outcome).toBe('ignored');
    expect((await task(b.id)).status).toBe('to-do');

    expect((await send('pull_request', pull(repository, 'opened', 5, `${slug}-${a.number}-login`))).body.taskIds).toEqual([a.id]);
    expect((await task(a.id)).status).toBe('in-review');
    // A second pull request of the same task (named by its title) is open too: merging the first does not finish the task.
    await send('pull_request', pull(repository, 'opened', 6, 'cleanup', false, `Cleanup for ${slug}-${a.number}`));
    expect((await send('pull_request', pull(repository, 'closed', 5, `${slug}-${a.number}-login`, true))).body.outcome).toBe('unchanged');
    expect((await task(a.id)).status).toBe('in-review');
    await send('pull_request', pull(repository, 'closed', 6, 'cleanup', true, `Cleanup for ${slug}-${a.number}`));
    expect((await task(a.id)).status).toBe('done');

    // Never backwards out of a final column.
    expect((await send('push', push(repository, `${slug}-${a.number}-followup`))).body.outcome).toBe('unchanged');
    expect((await send('pull_request', pull(repository, 'opened', 7, `${slug}-${a.number}-followup`))).body.outcome).toBe('unchanged');
    expect((await task(a.id)).status).toBe('done');

    // A pull request closed without merging moves nothing.
    await send('pull_request', pull(repository, 'opened', 8, `${slug}-${b.number}`));
    await send('pull_request', pull(repository, 'closed', 8, `${slug}-${b.number}`, false));
    expect((await task(b.id)).status).toBe('in-review');

    const links = await sql(
      t.databaseUrl,
      `SELECT resource_type, external_id, metadata->>'state' AS state FROM external_link WHERE task_id = $1 ORDER BY resource_type, external_id COLLATE "C"`,
      [a.id],
    );
    expect(links).toEqual([
      { resource_type: 'branch', external_id: `${slug}-${a.number}-followup`, state: null },
      { resource_type: 'branch', external_id: `feature/${slug.toLowerCase()}-${a.number}-login`, state: null },
      { resource_type: 'pull_request', external_id: '5', state: 'merged' },
      { resource_type: 'pull_request', external_id: '6', state: 'merged' },
      { resource_type: 'pull_request', external_id: '7', state: 'open' },
    ]);
  });

  it('follows the branch pattern of the integration', async () => {
    const { owner, project, send, repository, slug } = await linked();
    const a = await createTask(t, owner.token, project.id);
    await t.api.patch(`/selfgit-integration/project/${project.id}`, { branchPattern: 'task/{number}' }, owner.token);
    expect((await send('push', push(repository, `${slug}-${a.number}`))).body.outcome).toBe('unchanged');
    expect((await send('push', push(repository, `task/${a.number}`))).body.taskIds).toEqual([a.id]);
  });
});

describe('inbound selfgit webhook: what is refused', () => {
  it('a bad or missing signature changes nothing and answers {error}', async () => {
    const { project, send, issuePayload, url, rec } = await linked();
    const payload = issuePayload('opened', { number: 1, title: 'Sneaky' });
    const body = JSON.stringify(payload);
    for (const signature of ['', 'deadbeef', hmacHex('not-the-secret', body), hmacHex(rec.webhookSecret, `${body} `)]) {
      const res = await send('issues', payload, { signature });
      expect([signature, res.status, res.body]).toEqual([signature, 401, { error: 'Invalid signature' }]);
    }
    // The right signature of another body.
    const other = await sendSelfgitWebhook(url, rec.webhookSecret, 'issues', payload, { signature: hmacHex(rec.webhookSecret, '{}') });
    expect([other.status, other.body]).toEqual([401, { error: 'Invalid signature' }]);
    expect(await tasksOf(project.id)).toEqual([]);

    expect(await sendSelfgitWebhook(`${t.url}/selfgit-integration/webhook/${randomUUID()}`, rec.webhookSecret, 'issues', payload)).toEqual({
      status: 404,
      body: { error: 'Integration not found' },
    });
    expect(await sendSelfgitWebhook(`${t.url}/selfgit-integration/webhook/nope`, rec.webhookSecret, 'issues', payload)).toEqual({
      status: 404,
      body: { error: 'Integration not found' },
    });
    const broken = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"action":' });
    expect([broken.status, await broken.json()]).toEqual([400, { error: 'Invalid JSON body' }]);
    const form = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'payload=%7B%7D' });
    expect([form.status, await form.json()]).toEqual([415, { error: 'The webhook body must be JSON (Content-Type: application/json)' }]);
    expect(await tasksOf(project.id)).toEqual([]);
  });

  it('a replayed delivery changes nothing twice: the same delivery id, the same body under another id, or both at once', async () => {
    const { project, send, repo } = await linked();
    const i: FakeIssue = { number: 2, title: 'Replay me' };
    const commentPayload = {
      action: 'created',
      issue: git.issueJson(repo, i),
      comment: git.commentJson(repo, i, { id: 5, body: 'once', user: 'x' }),
      repository: git.repositoryJson(repo),
      is_pull: false,
    };
    const deliveryId = randomUUID();
    expect((await send('issue_comment', commentPayload, { deliveryId })).body.outcome).toBe('applied');
    expect((await send('issue_comment', commentPayload, { deliveryId })).body).toEqual({ ok: true, outcome: 'duplicate', taskIds: [] });
    expect((await send('issue_comment', commentPayload, { deliveryId: randomUUID() })).body.outcome).toBe('duplicate');
    const [only] = await tasksOf(project.id);
    expect((await activities(only.id)).map((a) => a.type)).toEqual(['created', 'comment']);

    // Two copies of a new delivery at the same moment: one applies, the other is a duplicate.
    const second = { ...commentPayload, comment: git.commentJson(repo, i, { id: 6, body: 'twice?', user: 'x' }) };
    const id2 = randomUUID();
    const both = await Promise.all([send('issue_comment', second, { deliveryId: id2 }), send('issue_comment', second, { deliveryId: id2 })]);
    expect(both.map((r) => r.body.outcome).sort()).toEqual(['applied', 'duplicate']);
    expect((await activities(only.id)).map((a) => a.content)).toEqual(['created the task', 'once', 'twice?']);
  });

  it('a delivery whose application fails is not recorded: 500, nothing changed, and the same delivery sent again applies once', async () => {
    const { project, send, repo, rec } = await linked();
    const marker = 'refused the first time';
    const i: FakeIssue = { number: 12, title: 'Fails once' };
    const payload = {
      action: 'created',
      issue: git.issueJson(repo, i),
      comment: git.commentJson(repo, i, { id: 9, body: marker, user: 'x' }),
      repository: git.repositoryJson(repo),
      is_pull: false,
    };
    const deliveryId = randomUUID();
    const receipts = () => sql(t.databaseUrl, `SELECT 1 FROM git_webhook_receipt WHERE receiver = $1 AND delivery_id = $2`, [`selfgit:${rec.id}`, deliveryId]);

    // Postgres refuses the comment's row: the task made for the issue just before is in the same transaction.
    const first = await withFailingInsert(t.databaseUrl, 'activity', 'content', marker, () => send('issue_comment', payload, { deliveryId }));
    expect([first.status, first.body]).toEqual([500, { error: 'Internal server error' }]);
    expect(await tasksOf(project.id)).toEqual([]);
    expect(await receipts()).toEqual([]);

    // The host's redelivery: the same id and the same bytes.
    const again = await send('issue_comment', payload, { deliveryId });
    expect([again.status, again.body]).toEqual([200, { ok: true, outcome: 'applied', taskIds: [expect.any(String)] }]);
    const made = await tasksOf(project.id);
    expect(made.map((m) => m.id)).toEqual(again.body.taskIds);
    expect((await activities(made[0].id)).map((a) => [a.type, a.content])).toEqual([
      ['created', 'created the task'],
      ['comment', marker],
    ]);
    expect(await receipts()).toHaveLength(1);
    expect((await send('issue_comment', payload, { deliveryId })).body).toEqual({ ok: true, outcome: 'duplicate', taskIds: [] });
  });

  it('signed payloads of odd shapes never make a 500 and change nothing', async () => {
    const { project, send, repository, url, rec } = await linked();
    // A body that is not an object or an array is no webhook body: 400 {error}, as any malformed JSON.
    for (const raw of ['null', '1', '"text"']) {
      const res = await sendSelfgitWebhook(url, rec.webhookSecret, 'issues', undefined, { raw });
      expect([raw, res.status, res.body]).toEqual([raw, 400, { error: 'Invalid JSON body' }]);
    }
    const shapes: unknown[] = [
      [],
      {},
      { action: 'opened', issue: null },
      { action: 'opened', issue: [] },
      { action: 'opened', issue: { number: '1', title: 5 } },
      { action: 'opened', issue: { number: -3, title: 'x' } },
      { action: 'created', issue: { number: 1 }, comment: { id: null } },
      { ref: 5, after: null },
      { ref: 'refs/heads/', repository: [] },
      { action: 'opened', pull_request: { number: 1e308, head: 'x' } },
      { action: 'opened', pull_request: { number: 2, head: { ref: ['a'] }, title: { a: 1 } } },
      { action: 'opened', issue: { number: 1, title: 'x'.repeat(2000), body: 'y'.repeat(200_000), labels: [{ name: 'z'.repeat(500) }, 'nope', null, { name: 3 }] }, repository },
    ];
    const out: string[] = [];
    for (const event of ['issues', 'issue_comment', 'push', 'pull_request', '']) {
      for (const payload of shapes) {
        const res = await send(event, payload);
        if (res.status !== 200 || !['ignored', 'unchanged', 'applied'].includes(res.body?.outcome))
          out.push(`${event} ${JSON.stringify(payload).slice(0, 60)} -> ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(out).toEqual([]);
    // Only the one well-formed (if oversized) issue made a task, its texts cut to what a task holds.
    const made = await sql(t.databaseUrl, `SELECT length(title) AS title, length(description) AS description FROM task WHERE project_id = $1`, [project.id]);
    expect(made).toEqual([{ title: 500, description: 100_000 }]);
  });

  it('an inactive integration and events of another repository change nothing', async () => {
    const { owner, project, send, issuePayload, repository } = await linked();
    await t.api.patch(`/selfgit-integration/project/${project.id}`, { isActive: false }, owner.token);
    expect((await send('issues', issuePayload('opened', { number: 1, title: 'x' }))).body).toEqual({
      ok: true,
      outcome: 'ignored',
      taskIds: [],
      reason: 'The integration is not active',
    });
    await t.api.patch(`/selfgit-integration/project/${project.id}`, { isActive: true }, owner.token);
    const elsewhere = {
      ...issuePayload('opened', { number: 1, title: 'x' }),
      repository: { ...(repository as object), owner: { login: 'evil' }, full_name: 'evil/thing', name: 'thing' },
    };
    expect((await send('issues', elsewhere)).body).toEqual({ ok: true, outcome: 'ignored', taskIds: [], reason: 'The event is about another repository' });
    expect(await tasksOf(project.id)).toEqual([]);
  });
});

describe('inbound selfgit webhook: links from the payload', () => {
  it('javascript: and other non-http(s) links of comments, avatars, issues, pull requests and branches are stored as null; https links are kept', async () => {
    const { owner, send, repo, repository, slug } = await linked();
    const evil = 'javascript:alert(1)';
    const i: FakeIssue = { number: 11, title: 'Links' };
    const issueJson = { ...git.issueJson(repo, i), html_url: evil };
    const comment = (id: number, htmlUrl: unknown, avatarUrl: unknown) => ({
      action: 'created',
      issue: issueJson,
      comment: { id, body: `Comment ${id}`, user: { login: `user${id}`, avatar_url: avatarUrl }, html_url: htmlUrl },
      repository,
      is_pull: false,
    });
    const created = await send('issue_comment', comment(1, evil, evil));
    expect(created.body.outcome).toBe('applied');
    const taskId = created.body.taskIds[0];
    await send('issue_comment', comment(2, 'data:text/html,<script>alert(1)</script>', '//evil.example/a.png'));
    await send('issue_comment', comment(3, `https://git.example/${'a'.repeat(2100)}`, ' JavaScript:alert(1)'));
    await send('issue_comment', comment(4, 'https://git.example/acme/x/issues/11#issuecomment-4', 'https://git.example/avatars/user4'));

    const comments = (await t.api.get(`/comment/${taskId}`, owner.token)).body;
    expect(comments.map((c: any) => [c.content, c.externalUserName, c.externalUrl, c.externalUserAvatar])).toEqual([
      ['Comment 1', 'user1', null, null],
      ['Comment 2', 'user2', null, null],
      ['Comment 3', 'user3', null, null],
      ['Comment 4', 'user4', 'https://git.example/acme/x/issues/11#issuecomment-4', 'https://git.example/avatars/user4'],
    ]);

    // A pull request and a push naming the task: links with javascript: pages have no url; an https one keeps it.
    const branch = `${slug}-1-links`;
    const pr = (number: number, htmlUrl: string) => {
      const opened = pull(repository, 'opened', number, branch);
      return { ...opened, pull_request: { ...opened.pull_request, html_url: htmlUrl } };
    };
    expect((await send('pull_request', pr(21, evil))).body.taskIds).toEqual([taskId]);
    await send('pull_request', pr(22, 'https://git.example/acme/x/pulls/22'));
    await send('push', push({ ...(repository as object), html_url: evil }, branch));
    const links = (await t.api.get(`/external-link/task/${taskId}`, owner.token)).body;
    expect(links.map((l: any) => [l.resourceType, l.externalId, l.url])).toEqual([
      ['issue', '11', null],
      ['pull_request', '21', null],
      ['pull_request', '22', 'https://git.example/acme/x/pulls/22'],
      ['branch', branch, null],
    ]);
    expect(JSON.stringify({ comments, links }).toLowerCase()).not.toMatch(/javascript:|data:/);
    // Nothing of them is in the database either.
    const stored = await sql(
      t.databaseUrl,
      `SELECT url FROM external_link WHERE task_id = $1 UNION ALL SELECT external_url FROM activity WHERE task_id = $1 UNION ALL SELECT external_user_avatar FROM activity WHERE task_id = $1`,
      [taskId],
    );
    expect(stored.map((r) => r.url).filter((u) => u !== null && !u.startsWith('https://git.example/'))).toEqual([]);
  });

  it('the ExternalCommentLinks migration sets the non-http(s) links of comments stored before the rule to null, and keeps the rest', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    const task = await createTask(t, owner.token, project.id, { title: 'Old comments' });
    const planted: [string | null, string | null][] = [
      ['javascript:alert(1)', 'https://git.example/avatars/a'],
      ['https://git.example/acme/x/issues/1#c2', ' JavaScript:alert(1)'],
      ['/relative/page', 'data:image/png;base64,AAAA'],
      ['https://user:secret@git.example/x', null],
      [`https://git.example/${'a'.repeat(2100)}`, 'http://git.example/avatars/b'],
      [null, null],
    ];
    for (const [i, [url, avatar]] of planted.entries()) {
      await sql(
        t.databaseUrl,
        `INSERT INTO activity (workspace_id, task_id, type, content, external_user_name, external_source, external_url, external_user_avatar)
         VALUES ($1, $2, 'comment', $3, 'someone', 'selfgit', $4, $5)`,
        [workspaceId, task.id, `Old ${i}`, url, avatar],
      );
    }
    const c = new Client({ connectionString: t.databaseUrl });
    await c.connect();
    try {
      await new ExternalCommentLinks1763782600000().up({ query: async (text: string, params?: unknown[]) => (await c.query(text, params)).rows } as unknown as QueryRunner);
    } finally {
      await c.end();
    }
    const after = await sql(
      t.databaseUrl,
      `SELECT content, external_url AS url, external_user_avatar AS avatar FROM activity WHERE task_id = $1 AND type = 'comment' ORDER BY content`,
      [task.id],
    );
    expect(after.map((r) => [r.content, r.url, r.avatar])).toEqual([
      ['Old 0', null, 'https://git.example/avatars/a'],
      ['Old 1', 'https://git.example/acme/x/issues/1#c2', null],
      ['Old 2', null, null],
      ['Old 3', null, null],
      ['Old 4', null, 'http://git.example/avatars/b'],
      ['Old 5', null, null],
    ]);
  });
});

describe('a change made by the webhook reaches the project integrations', () => {
  it('a status change from a pull request is delivered to the generic webhook and the messenger chat, with no user as actor', async () => {
    const { owner, project, send, repository, slug, hookPath, chatPath } = await linked({ hooks: true });
    const a = await createTask(t, owner.token, project.id, { title: 'Ship it' });
    // Changes without an actor: a delivery or fan-out that fails on one fails the wait at once, naming why.
    const arrived = (path: string, count: number) => requestsOrFailure(t, receiver, project.id, path, count);
    await arrived(hookPath, 1); // task.created
    await arrived(chatPath, 1);

    expect((await send('pull_request', pull(repository, 'opened', 1, `${slug}-${a.number}`))).body.outcome).toBe('applied');
    const [, hook] = await arrived(hookPath, 2);
    expect(hook.json).toMatchObject({
      event: 'task.status_changed',
      project: { id: project.id },
      task: { id: a.id, number: a.number, title: 'Ship it', status: 'in-review' },
      actor: null,
      data: { oldStatus: 'to-do', newStatus: 'in-review' },
    });
    const [, chat] = await arrived(chatPath, 2);
    expect(chat.json.text.split('\n').slice(1, 3)).toEqual(['Tandem changed the status', 'Status: to-do → in-review']);

    // A created task and a copied comment reach them too.
    const i: FakeIssue = { number: 40, title: 'From the issue tracker' };
    await send('issue_comment', {
      action: 'created',
      issue: git.issueJson(git.repo('acme', `hooked-${n}`), i),
      comment: { id: 1, body: 'hello', user: { login: 'q' } },
      repository,
      is_pull: false,
    });
    const hooks = await arrived(hookPath, 4);
    // (Deliveries run side by side: their order of arrival is not the order of the events.)
    expect(
      hooks
        .slice(2)
        .map((r) => [r.json.event, r.json.task.title])
        .sort(),
    ).toEqual([
      ['task.comment_created', 'From the issue tracker'],
      ['task.created', 'From the issue tracker'],
    ]);
    await arrived(chatPath, 4); // both in the chat too
  });
});
