import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { createProject, ownerWithWorkspace } from '../../support/work-items';

/**
 * Answers and imports stay bounded whatever a workspace holds (docs/compatibility.md, "Export and
 * import" and "Public projects"; docs/decisions-local.md, "Limits").
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const tasks = (n: number, fields: Record<string, unknown> = {}) => Array.from({ length: n }, (_, i) => ({ title: `Task ${i}`, status: 'to-do', ...fields }));
const countTasks = async (projectId: string) => (await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM task WHERE project_id = $1`, [projectId]))[0].n as number;
const countLabels = async (workspaceId: string) =>
  (await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM label WHERE workspace_id = $1 AND task_id IS NULL`, [workspaceId]))[0].n as number;

describe('the export, a page of 1,000 tasks at a time', () => {
  it('pages a 1,001-task project; each page imports as it is, and together they are the project', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const source = await createProject(t, owner.token, workspaceId);
    expect((await t.api.post(`/task/import/${source.id}`, { tasks: tasks(1000) }, owner.token)).status).toBe(200);
    expect((await t.api.post(`/task/import/${source.id}`, { tasks: [{ title: 'The last', status: 'done' }] }, owner.token)).status).toBe(200);

    const first = await t.api.get(`/task/export/${source.id}`, owner.token);
    expect([first.status, first.body.tasks.length, first.body.pagination]).toEqual([200, 1000, { page: 1, pageSize: 1000, total: 1001, hasMore: true }]);
    const second = await t.api.get(`/task/export/${source.id}?page=2`, owner.token);
    expect([second.body.tasks.map((x: { title: string }) => x.title), second.body.pagination]).toEqual([['The last'], { page: 2, pageSize: 1000, total: 1001, hasMore: false }]);
    const beyond = await t.api.get(`/task/export/${source.id}?page=3`, owner.token);
    expect([beyond.status, beyond.body.tasks, beyond.body.pagination.hasMore]).toEqual([200, [], false]);
    for (const bad of ['0', '-1', 'x', '1.5']) expect((await t.api.get(`/task/export/${source.id}?page=${bad}`, owner.token)).status).toBe(400);

    const copy = await createProject(t, owner.token, workspaceId);
    for (const page of [first, second]) expect((await t.api.post(`/task/import/${copy.id}`, { tasks: page.body.tasks }, owner.token)).body.results.failed).toBe(0);
    expect(await countTasks(copy.id)).toBe(1001);
  }, 120_000);
});

describe('the public board', () => {
  it("lists at most 200 tasks per column with the column's full count", async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { isPublic: true });
    expect((await t.api.post(`/task/import/${project.id}`, { tasks: [...tasks(250), ...tasks(3, { status: 'planned' })] }, owner.token)).status).toBe(200);
    const board = await t.api.get(`/public-project/${project.id}`);
    expect(board.status).toBe(200);
    const todo = board.body.columns.find((c: { slug: string }) => c.slug === 'to-do');
    expect([todo.tasks.length, todo.taskCount]).toEqual([200, 250]);
    expect([board.body.plannedTasks.length, board.body.plannedTaskCount, board.body.archivedTaskCount]).toEqual([3, 3, 0]);
    expect(board.body.columns.find((c: { slug: string }) => c.slug === 'done')).toMatchObject({ tasks: [], taskCount: 0 });
  });
});

describe('labels', () => {
  it('a workspace holds at most 1,000 catalogue labels: the next is 400 and nothing is made; an existing name still attaches', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    await sql(t.databaseUrl, `INSERT INTO label (workspace_id, name, color) SELECT $1, 'label ' || i, '#112233' FROM generate_series(1, 1000) AS i`, [workspaceId]);
    const refused = await t.api.post('/label', { name: 'one more', color: '#00aa00', workspaceId }, owner.token);
    expect([refused.status, refused.body]).toEqual([400, { message: 'A workspace has at most 1000 labels: delete one first' }]);
    expect(await countLabels(workspaceId)).toBe(1000);
    const existing = await t.api.post('/label', { name: 'Label 7', color: '#00aa00', workspaceId }, owner.token);
    expect([existing.status, existing.body.name]).toEqual([200, 'label 7']);
  });

  it('an import that names more than 100 labels in all is 400 and imports nothing', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    const many = Array.from({ length: 101 }, (_, i) => ({ title: `T${i}`, status: 'to-do', labels: [{ name: `L${i}`, color: '#112233' }] }));
    const refused = await t.api.post(`/task/import/${project.id}`, { tasks: many }, owner.token);
    expect([refused.status, refused.body]).toEqual([400, { message: 'An import may name at most 100 labels' }]);
    expect([await countTasks(project.id), await countLabels(workspaceId)]).toEqual([0, 0]);
    // 100 names, used by any number of tasks, are fine.
    const ok = await t.api.post(
      `/task/import/${project.id}`,
      { tasks: many.slice(0, 100).concat({ title: 'again', status: 'to-do', labels: [{ name: 'l0', color: '#112233' }] }) },
      owner.token,
    );
    expect([ok.status, ok.body.results.successful]).toEqual([200, 101]);
  });
});

describe("an import's work against the API limit", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ APP_ROLES: 'api', RATE_LIMIT_API: '50' });
  });
  afterAll(() => limited?.close());

  it('counts each task as a request: 40 tasks leave room for few requests, a second import of 40 is 429 and imports nothing', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(limited);
    const project = await createProject(limited, owner.token, workspaceId);
    expect((await limited.api.post(`/task/import/${project.id}`, { tasks: tasks(40) }, owner.token)).status).toBe(200);
    const second = await limited.api.post(`/task/import/${project.id}`, { tasks: tasks(40) }, owner.token);
    expect([second.status, second.body, Number(second.headers.get('retry-after')) >= 1]).toEqual([429, { message: 'Too many requests' }, true]);
    expect((await sql(limited.databaseUrl, `SELECT count(*)::int AS n FROM task WHERE project_id = $1`, [project.id]))[0].n).toBe(40);
  });
});
