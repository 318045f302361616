import { startTestApp, TestApp } from '../../support/app';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** The filters of GET /task/tasks/:projectId and GET /task/mine (docs/compatibility.md, "Task lists and their filters"). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

type Page = { data: { title: string }[]; pagination: { total: number } };
const titles = (body: Page) => body.data.map((x) => x.title).sort();

/** A project whose tasks differ in assignee, dates, priority, status and labels. */
async function board() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const bob = await userWithRole(t, workspaceId, 'member');
  const project = await createProject(t, owner.token, workspaceId);
  const tok = owner.token;
  const mk = (title: string, fields: Record<string, unknown>) => createTask(t, tok, project.id, { title, ...fields });
  await mk('Owner early', { userId: owner.user.id, dueDate: '2026-12-01T00:00:00.000Z', startDate: '2026-11-20T00:00:00.000Z', priority: 'high' });
  await mk('Owner late', { userId: owner.user.id, dueDate: '2026-12-20T00:00:00.000Z', priority: 'low', status: 'done' });
  await mk('Bob mid', { userId: bob.user.id, dueDate: '2026-12-08T00:00:00.000Z', startDate: '2026-12-01T00:00:00.000Z', priority: 'high' });
  const nobody = await mk('Nobody undated', { priority: 'urgent' });
  const bug = (await t.api.post('/label', { name: 'bug', color: '#cc0000', workspaceId }, tok)).body;
  const ux = (await t.api.post('/label', { name: 'ux', color: '#0000cc', workspaceId }, tok)).body;
  const list = async (query: string, token = tok) => t.api.get<Page>(`/task/tasks/${project.id}?limit=100&${query}`, token);
  const byTitle = async (title: string) => (await list(`q=${encodeURIComponent(title)}`)).body.data[0] as unknown as { id: string };
  // bug on "Owner early" (from the catalogue) and "Bob mid"; ux on "Nobody undated".
  for (const [title, label] of [
    ['Owner early', bug],
    ['Bob mid', bug],
    ['Nobody undated', ux],
  ] as const) {
    expect((await t.api.post('/label', { name: label.name, color: label.color, workspaceId, taskId: (await byTitle(title)).id }, tok)).status).toBe(200);
  }
  return { owner, bob, workspaceId, project, list, bug, ux, nobody };
}

describe('GET /task/tasks/:projectId filters', () => {
  it("the original's names (assigneeId, dueBefore, dueAfter) as its clients send them, none for unassigned, and each filter alone", async () => {
    const { owner, bob, list, bug, ux } = await board();
    const cases: [string, string[]][] = [
      [`assigneeId=${owner.user.id}`, ['Owner early', 'Owner late']],
      [`assigneeId=${bob.user.id.toUpperCase()}`, ['Bob mid']],
      ['assigneeId=none', ['Nobody undated']],
      [`userId=${bob.user.id}`, ['Bob mid']],
      ['dueAfter=2026-12-08', ['Bob mid', 'Owner late']],
      ['dueBefore=2026-12-08', ['Owner early']],
      ['dueAfter=2026-12-01T00:00:00.000Z&dueBefore=2026-12-08T00:00:00.000Z', ['Owner early']],
      ['startAfter=2026-11-21', ['Bob mid']],
      ['startBefore=2026-12-01', ['Owner early']],
      ['status=done', ['Owner late']],
      ['priority=high', ['Bob mid', 'Owner early']],
      [`labelId=${bug.id}`, ['Bob mid', 'Owner early']],
      [`labelId=${bug.id}&labelId=${ux.id}`, ['Bob mid', 'Nobody undated', 'Owner early']],
      ['q=early', ['Owner early']],
    ];
    for (const [query, expected] of cases) {
      const res = await list(query);
      expect([query, res.status, titles(res.body), res.body.pagination.total]).toEqual([query, 200, expected.sort(), expected.length]);
    }
  });

  it('filters combine with AND', async () => {
    const { owner, list, bug } = await board();
    const res = await list(`assigneeId=${owner.user.id}&labelId=${bug.id}&dueBefore=2026-12-31&priority=high`);
    expect(titles(res.body)).toEqual(['Owner early']);
    expect(titles((await list(`assigneeId=${owner.user.id}&status=done&priority=high`)).body)).toEqual([]);
    // A task's own label copy (its id, as GET /label/task/:taskId answers it) finds it as its catalogue label does.
    const early = (await list('q=Owner early')).body.data[0] as unknown as { id: string };
    const [copy] = (await t.api.get(`/label/task/${early.id}`, owner.token)).body as { id: string; name: string }[];
    expect([copy.name, copy.id]).toEqual(['bug', expect.not.stringMatching(bug.id)]);
    expect(titles((await list(`labelId=${copy.id}`)).body)).toEqual(['Owner early']);
  });

  it('a value that names nothing, or is malformed, is 400 {message} naming it', async () => {
    const { owner, list } = await board();
    const other = await ownerWithWorkspace(t);
    const foreign = (await t.api.post('/label', { name: 'theirs', color: '#00aa00', workspaceId: other.workspaceId }, other.owner.token)).body;
    const cases: [string, string][] = [
      ['status=nope', 'Invalid status "nope". Valid statuses for this project:'],
      [`labelId=${foreign.id}`, `Label ${foreign.id} not found in this workspace`],
      [`labelId=${MISSING_ID}`, `Label ${MISSING_ID} not found in this workspace`],
      ['labelId=not-an-id', 'each labelId must be a label id'],
      ['assigneeId=someone', 'assigneeId must be a user id or none'],
      [`assigneeId=${owner.user.id}&userId=${MISSING_ID}`, 'assigneeId and userId name different assignees: give one'],
      ['dueBefore=next-week', 'dueBefore must be a valid ISO 8601 date string'],
      ['startAfter=2026-13-40', 'startAfter must be a valid ISO 8601 date string'],
      ['priority=whenever', 'priority must be one of the following values'],
      ['colour=red', 'property colour should not exist'],
    ];
    for (const [query, message] of cases) {
      const res = await list(query);
      expect([query, res.status, Object.keys(res.body)]).toEqual([query, 400, ['message']]);
      expect([query, res.body]).toEqual([query, { message: expect.stringContaining(message) }]);
    }
  });
});

describe('GET /task/mine', () => {
  it("the caller's tasks across their workspaces, or in one; with the list's filters; nobody else's", async () => {
    const { owner, bob, workspaceId, list } = await board();
    // A second workspace of the owner with one task of theirs, and one of someone else's there.
    const second = await t.api.createWorkspace(owner.token, 'Second');
    const carol = await userWithRole(t, second.id, 'member');
    const p2 = await createProject(t, owner.token, second.id);
    await createTask(t, owner.token, p2.id, { title: 'Owner elsewhere', userId: owner.user.id, dueDate: '2026-12-03T00:00:00.000Z' });
    await createTask(t, owner.token, p2.id, { title: 'Carol elsewhere', userId: carol.user.id });
    const mine = (query: string, token = owner.token) => t.api.get<Page>(`/task/mine?limit=100&${query}`, token);

    expect(titles((await mine('')).body)).toEqual(['Owner early', 'Owner elsewhere', 'Owner late']);
    expect(titles((await mine(`workspaceId=${second.id}`)).body)).toEqual(['Owner elsewhere']);
    expect(titles((await mine(`workspaceId=${workspaceId}&dueBefore=2026-12-10`)).body)).toEqual(['Owner early']);
    expect(titles((await mine('dueAfter=2026-12-02&dueBefore=2026-12-31&sortBy=dueDate&sortOrder=asc')).body)).toEqual(['Owner elsewhere', 'Owner late']);
    expect((await mine('dueAfter=2026-12-02&sortBy=dueDate&sortOrder=asc')).body.data.map((x) => x.title)).toEqual(['Owner elsewhere', 'Owner late']);
    expect(titles((await mine('', bob.token)).body)).toEqual(['Bob mid']);
    expect(titles((await mine('', carol.token)).body)).toEqual(['Carol elsewhere']);
    // The project list agrees for the same person.
    expect(titles((await list(`assigneeId=${owner.user.id}`)).body)).toEqual(['Owner early', 'Owner late']);
  });

  it('a workspace the caller is not in is 404, a key without task:read 403, unknown filters 400', async () => {
    const { owner, bug } = await board();
    const stranger = await ownerWithWorkspace(t);
    const refused = await t.api.get(`/task/mine?workspaceId=${stranger.workspaceId}`, owner.token);
    expect([refused.status, refused.body]).toEqual([404, { message: 'Workspace not found' }]);
    expect((await t.api.get(`/task/mine?workspaceId=${MISSING_ID}`, owner.token)).status).toBe(404);
    // A label of the stranger's workspace names nothing of the caller's.
    const theirs = (await t.api.post('/label', { name: 'x', color: '#000000', workspaceId: stranger.workspaceId }, stranger.owner.token)).body;
    expect((await t.api.get(`/task/mine?labelId=${theirs.id}`, owner.token)).body).toEqual({ message: `Label ${theirs.id} not found in this workspace` });
    expect((await t.api.get(`/task/mine?labelId=${bug.id}`, owner.token)).status).toBe(200);
    // The caller is the assignee: the assignee filters are not taken here.
    expect((await t.api.get(`/task/mine?assigneeId=${owner.user.id}`, owner.token)).body).toEqual({ message: 'property assigneeId should not exist' });
    expect((await t.api.get('/task/mine')).status).toBe(401);

    const key = async (permissions: Record<string, string[]>) => (await t.api.post('/auth/api-key/create', { name: 'k', permissions }, owner.token)).body.key as string;
    const reader = await key({ task: ['read'] });
    expect(titles((await t.api.get<Page>('/task/mine', reader)).body)).toEqual(['Owner early', 'Owner late']);
    const labelsOnly = await key({ label: ['read'] });
    expect((await t.api.get('/task/mine', labelsOnly)).body).toEqual({ message: 'Insufficient API key scope' });
  });
});
