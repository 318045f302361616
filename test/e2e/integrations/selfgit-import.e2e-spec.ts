import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { FakeIssue, FakeSelfgit, RecordedRequest } from '../../support/git-hosts';
import { HttpReceiver } from '../../support/http-receiver';
import { until } from '../../support/until';
import { createProject, ownerWithWorkspace, userWithRole } from '../../support/work-items';

const CLIENT_URL = 'https://client.example.test';
const TOKEN = 'import-token-0123456789abcdef';
const git = new FakeSelfgit();
const hooks = new HttpReceiver();
let t: TestApp;

beforeAll(async () => {
  await Promise.all([git.start(), hooks.start()]);
  git.addUser(TOKEN, 'ada');
  t = await startTestApp({ CLIENT_URL });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([git.stop(), hooks.stop()]);
});
afterEach(() => {
  git.intercept = null;
});

let repos = 0;

/** A project linked to a fresh repository holding `issues`; a generic webhook on the project records its events. */
async function linked(issues: FakeIssue[], opts: { commentTaskLink?: boolean } = {}) {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId, { slug: `IMP${++repos}` });
  const name = `import-${repos}`;
  const repo = git.addRepo('acme', name, { access: { [TOKEN]: 'write' }, issues });
  const hookPath = `/hooks/${name}`;
  expect((await t.api.post(`/generic-webhook-integration/project/${project.id}`, { webhookUrl: `${hooks.url}${hookPath}` }, owner.token)).status).toBe(200);
  const integration = await t.api.post(
    `/selfgit-integration/project/${project.id}`,
    { baseUrl: git.url, accessToken: TOKEN, repositoryOwner: 'acme', repositoryName: name, commentTaskLinkOnSelfgitIssue: opts.commentTaskLink ?? false },
    owner.token,
  );
  expect(integration.status).toBe(200);
  const importIssues = () => t.api.post('/selfgit-integration/import-issues', { projectId: project.id }, owner.token);
  return { owner, workspaceId, project, repo, name, hookPath, importIssues, integration: integration.body };
}

const tasksOf = async (projectId: string) =>
  sql(t.databaseUrl, `SELECT id, number, title, description, status, priority FROM task WHERE project_id = $1 ORDER BY number`, [projectId]);

/** Events the project's generic webhook received, by wire name. */
const events = (path: string, event: string) => hooks.to(path).filter((r) => r.json?.event === event);

const issue = (number: number, over: Partial<FakeIssue> = {}): FakeIssue => ({ number, title: `Issue ${number}`, body: `Body of ${number}`, ...over });

describe('POST /selfgit-integration/import-issues', () => {
  it('imports every open issue over several pages (not pull requests), with labels and comments; a second run creates nothing', async () => {
    const issues: FakeIssue[] = [];
    for (let n = 1; n <= 120; n++) issues.push(issue(n));
    issues[0] = issue(1, {
      title: 'Login fails',
      body: 'Steps to reproduce',
      labels: [{ name: 'status:in-progress' }, { name: 'Priority: High' }, { name: 'bug', color: 'd73a4a' }, { name: 'frontend', color: '#0E8A16' }],
      comments: [
        { id: 11, body: 'Seen on Firefox too', user: 'carol' },
        { id: 12, body: 'Fixed upstream?', user: 'dave' },
      ],
    });
    issues[1] = issue(2, { labels: [{ name: 'status:no-such-column' }, { name: 'priority:whenever' }] });
    issues.push(issue(121, { pull: true, title: 'A pull request' }), issue(122, { state: 'closed', title: 'Closed already' }));
    const { project, workspaceId, repo, hookPath, importIssues, owner } = await linked(issues);

    const first = await importIssues();
    expect([first.status, first.body]).toEqual([200, { imported: 120, updated: 0, skipped: 0, errors: [] }]);

    // The server caps pages at 50: the import asked for 100 per page and kept going until the list was done.
    const listed = git.requests.filter((r) => r.path === `/api/v1/repos/acme/${repo.name}/issues`);
    expect(listed.map((r) => [r.query.get('state'), r.query.get('type'), r.query.get('limit'), r.query.get('page')])).toEqual([
      ['open', 'issues', '100', '1'],
      ['open', 'issues', '100', '2'],
      ['open', 'issues', '100', '3'],
    ]);

    const tasks = await tasksOf(project.id);
    expect(tasks).toHaveLength(120);
    expect(tasks.map((x) => x.title)).not.toContain('A pull request');
    expect(tasks.map((x) => x.title)).not.toContain('Closed already');
    const login = tasks.find((x) => x.title === 'Login fails')!;
    expect(login).toMatchObject({ description: 'Steps to reproduce', status: 'in-progress', priority: 'high' });
    expect(tasks.find((x) => x.title === 'Issue 2')).toMatchObject({ status: 'to-do', priority: 'no-priority' });
    expect(tasks.find((x) => x.title === 'Issue 3')).toMatchObject({ description: 'Body of 3', status: 'to-do', priority: 'no-priority' });

    const labels = (await t.api.get(`/label/task/${login.id}`, owner.token)).body;
    expect(labels.map((l: any) => [l.name, l.color])).toEqual([
      ['bug', '#d73a4a'],
      ['frontend', '#0e8a16'],
    ]);
    const catalogue = (await t.api.get(`/label/workspace/${workspaceId}`, owner.token)).body;
    expect(catalogue.map((l: any) => l.name)).toEqual(['bug', 'frontend']);

    const comments = (await t.api.get(`/comment/${login.id}`, owner.token)).body;
    expect(comments).toEqual([
      expect.objectContaining({
        type: 'comment',
        userId: null,
        content: 'Seen on Firefox too',
        externalUserName: 'carol',
        externalUserAvatar: `${git.url}/avatars/carol`,
        externalSource: 'selfgit',
        externalUrl: `${git.url}/acme/${repo.name}/issues/1#issuecomment-11`,
      }),
      expect.objectContaining({ content: 'Fixed upstream?', externalUserName: 'dave' }),
    ]);

    // Every created task told the project's webhook, through the outbox.
    await until('120 task.created events', () => events(hookPath, 'task.created').length >= 120);
    expect(
      events(hookPath, 'task.created')
        .map((r) => r.json.task.title)
        .sort(),
    ).toEqual(tasks.map((x) => x.title).sort());

    const again = await importIssues();
    expect(again.body).toEqual({ imported: 0, updated: 0, skipped: 120, errors: [] });
    expect(await tasksOf(project.id)).toEqual(tasks);
    expect((await t.api.get(`/comment/${login.id}`, owner.token)).body).toEqual(comments);
    expect((await t.api.get(`/label/task/${login.id}`, owner.token)).body).toEqual(labels);

    // Changes on the host: a new title, a new comment, a new label, and a new issue.
    repo.issues.find((i) => i.number === 3)!.title = 'Issue 3, renamed';
    repo.issues.find((i) => i.number === 4)!.comments = [{ id: 41, body: 'New thought', user: 'erin' }];
    repo.issues.find((i) => i.number === 5)!.labels = [{ name: 'backend' }];
    repo.issues.push(issue(130, { title: 'Brand new' }));
    const third = await importIssues();
    expect(third.body).toEqual({ imported: 1, updated: 3, skipped: 117, errors: [] });
    const after = await tasksOf(project.id);
    expect(after).toHaveLength(121);
    expect(after.find((x) => x.number === tasks.find((y) => y.title === 'Issue 3')!.number)!.title).toBe('Issue 3, renamed');
    await until('the rename and the new task reached the webhook', () => events(hookPath, 'task.created').length === 121 && events(hookPath, 'task.comment_created').length === 3);
    expect(events(hookPath, 'task.created')).toHaveLength(121);
  });

  it('an issue that fails is listed in errors and the rest imported; the next run picks it up', async () => {
    const { project, repo, importIssues } = await linked([issue(1), issue(2, { comments: [{ id: 21, body: 'hi', user: 'x' }] }), issue(3)]);
    git.intercept = (r: RecordedRequest) => (r.path === `/api/v1/repos/acme/${repo.name}/issues/2/comments` ? { status: 500, body: { message: 'boom' } } : undefined);
    const first = await importIssues();
    expect(first.body).toEqual({ imported: 2, updated: 0, skipped: 0, errors: ['Issue #2: its comments could not be read (HTTP 500)'] });
    expect((await tasksOf(project.id)).map((x) => x.title)).toEqual(['Issue 1', 'Issue 3']);
    git.intercept = null;
    expect((await importIssues()).body).toEqual({ imported: 1, updated: 0, skipped: 2, errors: [] });
  });

  it('commits issue by issue: tasks of the first page are there while the next page is still being read', async () => {
    const issues: FakeIssue[] = [];
    for (let n = 1; n <= 60; n++) issues.push(issue(n));
    const { project, owner, repo, importIssues } = await linked(issues);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reachedPage2 = false;
    git.intercept = async (r: RecordedRequest) => {
      if (r.path === `/api/v1/repos/acme/${repo.name}/issues` && r.query.get('page') === '2') {
        reachedPage2 = true;
        await held;
      }
      return undefined;
    };
    const running = importIssues();
    await until('the import to ask for page 2', () => reachedPage2);
    // Meanwhile: the 50 tasks of page 1 are committed and visible, and a second import is refused.
    const list = await t.api.get(`/task/tasks/${project.id}?limit=100`, owner.token);
    expect(list.body.pagination.total).toBe(50);
    const second = await importIssues();
    expect([second.status, second.body]).toEqual([409, { message: 'An import is already running for this project' }]);
    release();
    expect((await running).body).toEqual({ imported: 60, updated: 0, skipped: 0, errors: [] });
    // Done: the next one may run.
    expect((await importIssues()).body).toEqual({ imported: 0, updated: 0, skipped: 60, errors: [] });
  });

  it('with commentTaskLinkOnSelfgitIssue, each issue gets one comment with its task link, never two, and it is not copied back', async () => {
    const { project, owner, repo, importIssues } = await linked([issue(1), issue(2, { comments: [{ id: 21, body: 'First!', user: 'x' }] })], { commentTaskLink: true });
    expect((await importIssues()).body).toEqual({ imported: 2, updated: 0, skipped: 0, errors: [] });
    const tasks = await tasksOf(project.id);
    const posted = git.posted.filter((p) => p.repo === `acme/${repo.name}`);
    expect(posted.map((p) => [p.number, p.body]).sort()).toEqual(
      tasks.map((x, i) => [i + 1, `Tracked in Tandem as ${project.slug}-${x.number}: ${CLIENT_URL}/projects/${project.id}/tasks/${x.id}`]).sort(),
    );
    // The comment now sits on the issue; importing again neither posts another nor copies it.
    expect((await importIssues()).body).toEqual({ imported: 0, updated: 0, skipped: 2, errors: [] });
    expect(git.posted.filter((p) => p.repo === `acme/${repo.name}`)).toHaveLength(2);
    const task2 = tasks.find((x) => x.title === 'Issue 2')!;
    expect((await t.api.get(`/comment/${task2.id}`, owner.token)).body.map((c: any) => c.content)).toEqual(['First!']);
  });

  it('a failed task-link comment is tried again by the next import', async () => {
    const { repo, importIssues } = await linked([issue(1)], { commentTaskLink: true });
    git.intercept = (r: RecordedRequest) => (r.method === 'POST' ? { status: 503, body: { message: 'down' } } : undefined);
    expect((await importIssues()).body).toEqual({ imported: 1, updated: 0, skipped: 0, errors: [] });
    expect(git.posted.filter((p) => p.repo === `acme/${repo.name}`)).toHaveLength(0);
    git.intercept = null;
    expect((await importIssues()).body).toEqual({ imported: 0, updated: 0, skipped: 1, errors: [] });
    expect(git.posted.filter((p) => p.repo === `acme/${repo.name}`)).toHaveLength(1);
    expect((await importIssues()).body).toEqual({ imported: 0, updated: 0, skipped: 1, errors: [] });
    expect(git.posted.filter((p) => p.repo === `acme/${repo.name}`)).toHaveLength(1);
  });

  it('who may import, and what is refused', async () => {
    const { project, workspaceId, owner, importIssues } = await linked([issue(1)]);
    const member = await userWithRole(t, workspaceId, 'member');
    const stranger = await t.api.signUp();
    const as = (token: string, b: unknown) => t.api.post('/selfgit-integration/import-issues', b, token);
    expect((await as(member.token, { projectId: project.id })).body).toEqual({ message: 'Insufficient permissions' });
    expect((await as(stranger.token, { projectId: project.id })).body).toEqual({ message: 'Project not found' });
    expect((await as(owner.token, {})).body).toEqual({ message: 'projectId is required' });
    const bare = await createProject(t, owner.token, workspaceId);
    expect((await as(owner.token, { projectId: bare.id })).body).toEqual({ message: 'Integration not found' });
    await t.api.patch(`/selfgit-integration/project/${project.id}`, { isActive: false }, owner.token);
    expect((await importIssues()).body).toEqual({ message: 'The selfgit integration is not active' });
    await t.api.patch(`/selfgit-integration/project/${project.id}`, { isActive: true }, owner.token);
    // The token was revoked on the server since.
    git.tokens.delete(TOKEN);
    try {
      const res = await importIssues();
      expect([res.status, res.body]).toEqual([400, { message: 'The selfgit server refused the access token' }]);
    } finally {
      git.addUser(TOKEN, 'ada');
    }
    expect(await tasksOf(project.id)).toEqual([]);
  });
});
