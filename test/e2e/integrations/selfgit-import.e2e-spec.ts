import { startPeerApp, startTestApp, TestApp } from '../../support/app';
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

/**
 * A project linked to a fresh repository holding `issues`; a generic webhook on the project records its events.
 * `importIssues` runs the import on `t`, `importOn(app)` on another instance of the service.
 */
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
  const importOn = (app: TestApp) => app.api.post('/selfgit-integration/import-issues', { projectId: project.id }, owner.token);
  const importIssues = () => importOn(t);
  return { owner, workspaceId, project, repo, name, hookPath, importIssues, importOn, integration: integration.body };
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
    expect([first.status, first.body]).toEqual([200, { imported: 120, updated: 0, skipped: 0, errors: [], more: false, note: null }]);

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
    expect(again.body).toEqual({ imported: 0, updated: 0, skipped: 120, errors: [], more: false, note: null });
    expect(await tasksOf(project.id)).toEqual(tasks);
    expect((await t.api.get(`/comment/${login.id}`, owner.token)).body).toEqual(comments);
    expect((await t.api.get(`/label/task/${login.id}`, owner.token)).body).toEqual(labels);

    // Changes on the host: a new title, a new comment, a new label, and a new issue.
    repo.issues.find((i) => i.number === 3)!.title = 'Issue 3, renamed';
    repo.issues.find((i) => i.number === 4)!.comments = [{ id: 41, body: 'New thought', user: 'erin' }];
    repo.issues.find((i) => i.number === 5)!.labels = [{ name: 'backend' }];
    repo.issues.push(issue(130, { title: 'Brand new' }));
    const third = await importIssues();
    expect(third.body).toEqual({ imported: 1, updated: 3, skipped: 117, errors: [], more: false, note: null });
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
    expect(first.body).toEqual({ imported: 2, updated: 0, skipped: 0, errors: ['Issue #2: its comments could not be read (HTTP 500)'], more: false, note: null });
    expect((await tasksOf(project.id)).map((x) => x.title)).toEqual(['Issue 1', 'Issue 3']);
    git.intercept = null;
    expect((await importIssues()).body).toEqual({ imported: 1, updated: 0, skipped: 2, errors: [], more: false, note: null });
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
    expect((await running).body).toEqual({ imported: 60, updated: 0, skipped: 0, errors: [], more: false, note: null });
    // Done: the next one may run.
    expect((await importIssues()).body).toEqual({ imported: 0, updated: 0, skipped: 60, errors: [], more: false, note: null });
  });

  it('with commentTaskLinkOnSelfgitIssue, each issue gets one comment with its task link, never two, and it is not copied back', async () => {
    const { project, owner, repo, importIssues } = await linked([issue(1), issue(2, { comments: [{ id: 21, body: 'First!', user: 'x' }] })], { commentTaskLink: true });
    expect((await importIssues()).body).toEqual({ imported: 2, updated: 0, skipped: 0, errors: [], more: false, note: null });
    const tasks = await tasksOf(project.id);
    const posted = git.posted.filter((p) => p.repo === `acme/${repo.name}`);
    expect(posted.map((p) => [p.number, p.body]).sort()).toEqual(
      tasks.map((x, i) => [i + 1, `Tracked in Tandem as ${project.slug}-${x.number}: ${CLIENT_URL}/projects/${project.id}/tasks/${x.id}`]).sort(),
    );
    // The comment now sits on the issue; importing again neither posts another nor copies it.
    expect((await importIssues()).body).toEqual({ imported: 0, updated: 0, skipped: 2, errors: [], more: false, note: null });
    expect(git.posted.filter((p) => p.repo === `acme/${repo.name}`)).toHaveLength(2);
    const task2 = tasks.find((x) => x.title === 'Issue 2')!;
    expect((await t.api.get(`/comment/${task2.id}`, owner.token)).body.map((c: any) => c.content)).toEqual(['First!']);
  });

  it('a failed task-link comment is tried again by the next import', async () => {
    const { repo, importIssues } = await linked([issue(1)], { commentTaskLink: true });
    git.intercept = (r: RecordedRequest) => (r.method === 'POST' ? { status: 503, body: { message: 'down' } } : undefined);
    expect((await importIssues()).body).toEqual({ imported: 1, updated: 0, skipped: 0, errors: [], more: false, note: null });
    expect(git.posted.filter((p) => p.repo === `acme/${repo.name}`)).toHaveLength(0);
    git.intercept = null;
    expect((await importIssues()).body).toEqual({ imported: 0, updated: 0, skipped: 1, errors: [], more: false, note: null });
    expect(git.posted.filter((p) => p.repo === `acme/${repo.name}`)).toHaveLength(1);
    expect((await importIssues()).body).toEqual({ imported: 0, updated: 0, skipped: 1, errors: [], more: false, note: null });
    expect(git.posted.filter((p) => p.repo === `acme/${repo.name}`)).toHaveLength(1);
  });

  it('who may import, and what is refused', async () => {
    const { project, workspaceId, owner, importIssues } = await linked([issue(1)]);
    const member = await userWithRole(t, workspaceId, 'member');
    const stranger = await t.api.signUp();
    const as = (token: string, b: unknown) => t.api.post('/selfgit-integration/import-issues', b, token);
    expect((await as(member.token, { projectId: project.id })).body).toEqual({ message: 'Insufficient permissions: workspace:manage_settings is needed' });
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

/** A finished run's answer. */
const complete = (counts: { imported: number; updated: number; skipped: number }, errors: string[] = []) => ({ ...counts, errors, more: false, note: null });
const titles = async (projectId: string) => (await tasksOf(projectId)).map((x) => x.title);

describe('POST /selfgit-integration/import-issues: the bounds of one run', () => {
  it('takes no more issues of a page than it asked for: a page of 150 for limit=100 is cut to 100, reported, and no page after it is read', async () => {
    const issues: FakeIssue[] = [];
    for (let n = 1; n <= 160; n++) issues.push(issue(n));
    const { project, repo, importIssues } = await linked(issues);
    repo.pageSize = 150;
    repo.ignoresLimit = true;
    const res = await importIssues();
    expect([res.status, res.body]).toEqual([
      200,
      complete({ imported: 100, updated: 0, skipped: 0 }, [
        'Listing issues stopped at page 1: the selfgit server answered 150 issues for a page of 100; the 50 beyond were not imported',
      ]),
    ]);
    expect(await titles(project.id)).toEqual(issues.slice(0, 100).map((i) => i.title));
    expect(git.requests.filter((r) => r.path === `/api/v1/repos/acme/${repo.name}/issues`).map((r) => r.query.get('page'))).toEqual(['1']);
  });

  it('refuses a page or a comment list of more than 4 MiB whole: nothing of it is stored', async () => {
    const huge = 'x'.repeat(4 * 1024 * 1024 + 1);
    // On the first page: the run fails as a whole.
    const first = await linked([issue(1), issue(2, { body: huge })]);
    const refused = await first.importIssues();
    expect([refused.status, refused.body]).toEqual([400, { message: 'The selfgit server answered more than 4 MiB for one page of issues' }]);
    expect(await tasksOf(first.project.id)).toEqual([]);

    // On a later page: what came before stays, the page is reported, nothing of it is stored.
    const later = await linked([issue(1), issue(2), issue(3, { body: huge }), issue(4), issue(5)]);
    later.repo.pageSize = 2;
    expect((await later.importIssues()).body).toEqual(
      complete({ imported: 2, updated: 0, skipped: 0 }, ['Listing issues stopped at page 2: The selfgit server answered more than 4 MiB for one page of issues']),
    );
    expect(await titles(later.project.id)).toEqual(['Issue 1', 'Issue 2']);

    // An issue whose comments answer more than 4 MiB is left out; the others are imported.
    const comments = await linked([issue(1, { comments: [{ id: 1, body: huge, user: 'x' }] }), issue(2)]);
    expect((await comments.importIssues()).body).toEqual(
      complete({ imported: 1, updated: 0, skipped: 0 }, ['Issue #1: its comments could not be read (the answer is larger than 4 MiB)']),
    );
    expect(await titles(comments.project.id)).toEqual(['Issue 2']);
  });

  it('copies at most 100 new comments of an issue per run; the next run copies the rest', async () => {
    const many = Array.from({ length: 130 }, (_, k) => ({ id: k + 1, body: `Comment ${k + 1}`, user: 'talker' }));
    const { project, owner, importIssues } = await linked([issue(1, { comments: many }), issue(2)]);
    expect((await importIssues()).body).toEqual({
      imported: 2,
      updated: 0,
      skipped: 0,
      errors: [],
      more: true,
      note: 'Issue #1 has more new comments than one import copies (100): run the import again for the rest',
    });
    const [task1] = await tasksOf(project.id);
    expect((await t.api.get(`/comment/${task1.id}`, owner.token)).body).toHaveLength(100);
    expect((await importIssues()).body).toEqual(complete({ imported: 0, updated: 1, skipped: 1 }));
    expect((await t.api.get(`/comment/${task1.id}`, owner.token)).body.map((c: any) => c.content)).toEqual(many.map((c) => c.body));
    expect((await importIssues()).body).toEqual(complete({ imported: 0, updated: 0, skipped: 2 }));
  });

  it('keeps only http(s) links of comments: javascript: and other links are stored as null', async () => {
    const { project, owner, importIssues } = await linked([
      issue(1, {
        comments: [
          { id: 1, body: 'Bad links', user: 'mallory', htmlUrl: 'javascript:alert(1)', avatarUrl: 'javascript:alert(document.cookie)' },
          { id: 2, body: 'Odd links', user: 'oscar', htmlUrl: '/relative/page', avatarUrl: 'data:image/svg+xml,<svg onload=alert(1)>' },
          { id: 3, body: 'Good links', user: 'trent', htmlUrl: 'https://git.example/acme/x/issues/1#issuecomment-3', avatarUrl: 'https://git.example/avatars/trent' },
        ],
      }),
    ]);
    expect((await importIssues()).body).toEqual(complete({ imported: 1, updated: 0, skipped: 0 }));
    const [task1] = await tasksOf(project.id);
    const comments = (await t.api.get(`/comment/${task1.id}`, owner.token)).body;
    expect(comments.map((c: any) => [c.content, c.externalUserName, c.externalUrl, c.externalUserAvatar])).toEqual([
      ['Bad links', 'mallory', null, null],
      ['Odd links', 'oscar', null, null],
      ['Good links', 'trent', 'https://git.example/acme/x/issues/1#issuecomment-3', 'https://git.example/avatars/trent'],
    ]);
  });

  describe('with SELFGIT_IMPORT_MAX_ISSUES=5', () => {
    let capped: TestApp;
    beforeAll(async () => {
      capped = await startPeerApp(t, { CLIENT_URL, APP_ROLES: 'api', SELFGIT_IMPORT_MAX_ISSUES: '5' });
    });
    afterAll(() => capped?.stop());

    it('imports or updates at most 5 issues a run and says more are left; the next runs go on with the rest', async () => {
      const issues: FakeIssue[] = [];
      for (let n = 1; n <= 8; n++) issues.push(issue(n));
      const { project, repo, importOn } = await linked(issues);
      const more = { more: true, note: 'Stopped after 5 issues imported or updated, the most one import takes: run the import again for the rest' };
      expect((await importOn(capped)).body).toEqual({ imported: 5, updated: 0, skipped: 0, errors: [], ...more });
      expect(await titles(project.id)).toEqual(issues.slice(0, 5).map((i) => i.title));
      expect((await importOn(capped)).body).toEqual(complete({ imported: 3, updated: 0, skipped: 5 }));
      expect(await titles(project.id)).toEqual(issues.map((i) => i.title));
      // Updates count too; issues with nothing to change do not.
      for (const i of repo.issues) i.title = `${i.title}, edited`;
      expect((await importOn(capped)).body).toEqual({ imported: 0, updated: 5, skipped: 0, errors: [], ...more });
      expect((await importOn(capped)).body).toEqual(complete({ imported: 0, updated: 3, skipped: 5 }));
      expect(await titles(project.id)).toEqual(issues.map((i) => i.title));
    });
  });

  // A bound no run reaches by itself on a loaded machine: only the test's clock passes it.
  describe('with SELFGIT_IMPORT_TIME_LIMIT_MS=600000', () => {
    let quick: TestApp;
    beforeAll(async () => {
      quick = await startPeerApp(t, { CLIENT_URL, APP_ROLES: 'api', SELFGIT_IMPORT_TIME_LIMIT_MS: '600000' });
    });
    afterAll(() => quick?.stop());

    it('the bound reached while a page is read: the run takes no further issue, says more are left, and the next run goes on', async () => {
      const issues: FakeIssue[] = [];
      for (let n = 1; n <= 40; n++) issues.push(issue(n));
      const { project, repo, importOn } = await linked(issues);
      repo.pageSize = 2;
      const listPath = `/api/v1/repos/acme/${repo.name}/issues`;
      // The clock the import reads (Date.now) passes its bound while the server answers the
      // third page: no time is spent, and the run must stop before the first issue of that page.
      const realNow = Date.now.bind(Date);
      let skew = 0;
      const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + skew);
      let pages = 0;
      git.intercept = (r: RecordedRequest) => {
        if (r.path === listPath && ++pages === 3) skew = 600_000;
        return undefined;
      };
      let res;
      try {
        res = await importOn(quick);
      } finally {
        clock.mockRestore();
        git.intercept = null;
      }
      expect([res.status, res.body]).toEqual([
        200,
        { imported: 4, updated: 0, skipped: 0, errors: [], more: true, note: 'Stopped after 600 s, the longest one import runs: run the import again for the rest' },
      ]);
      expect(pages).toBe(3);
      const first = 4;
      expect(await titles(project.id)).toEqual(issues.slice(0, first).map((i) => i.title));

      // With the default bound, the next run goes on with the rest.
      expect((await importOn(t)).body).toEqual(complete({ imported: 40 - first, updated: 0, skipped: first }));
      expect(await titles(project.id)).toEqual(issues.map((i) => i.title));
    });
  });
});
