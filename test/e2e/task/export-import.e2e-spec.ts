import { PNG_BYTES, uploadFile } from '../../support/files';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** Export and import of a project's tasks (docs/compatibility.md, "Export and import"). */
let t: TestApp;
// API role only: the task events the write path leaves in the outbox stay to be counted.
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const eventsOf = (projectId: string) =>
  sql(t.databaseUrl, `SELECT name, payload FROM outbox WHERE queue = 'task-events' AND payload->'project'->>'id' = $1 ORDER BY payload->>'occurredAt'`, [projectId]);

async function board() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId, { name: 'Source', description: 'Where tasks come from' });
  return { owner, workspaceId, project };
}

describe('GET /task/export/:projectId', () => {
  it('writes the project and its tasks in board order, each with its labels', async () => {
    const { owner, workspaceId, project } = await board();
    const done = await createTask(t, owner.token, project.id, { title: 'Done one', status: 'done', priority: 'low' });
    const second = await createTask(t, owner.token, project.id, {
      title: 'Second',
      description: 'Body',
      dueDate: '2030-01-02T03:04:05Z',
      startDate: '2030-01-01T00:00:00Z',
      userId: owner.user.id,
    });
    const planned = await createTask(t, owner.token, project.id, { title: 'Someday', status: 'planned' });
    const first = await createTask(t, owner.token, project.id, { title: 'First' });
    await t.api.put(`/task/${first.id}`, { position: 0 }, owner.token);
    await t.api.put(`/task/${second.id}`, { position: 1 }, owner.token);
    const archived = await createTask(t, owner.token, project.id, { title: 'Old', status: 'archived' });
    await t.api.post('/label', { name: 'bug', color: 'red', workspaceId, taskId: second.id }, owner.token);
    await t.api.post('/label', { name: 'API', color: '#112233', workspaceId, taskId: second.id }, owner.token);
    const file = await uploadFile(t, owner.token, second.id, PNG_BYTES, { filename: 'plan.png' });

    const res = await t.api.get(`/task/export/${project.id}`, owner.token);
    expect(res.status).toBe(200);
    expect(res.body.project).toEqual({ name: 'Source', slug: project.slug, description: 'Where tasks come from', exportedAt: ISO });
    const plain = (x: any) => ({
      title: x.title,
      description: x.description,
      status: x.status,
      priority: x.priority,
      dueDate: x.dueDate,
      startDate: x.startDate,
      userId: x.userId,
      labels: [],
      assets: [],
    });
    expect(res.body.tasks).toEqual([
      plain({ ...first, position: 0 }),
      {
        ...plain(second),
        labels: [
          { name: 'API', color: '#112233' },
          { name: 'bug', color: 'red' },
        ],
        // Its files: what they are and where to read them (docs/files.md).
        assets: [{ id: file.id, filename: 'plan.png', contentType: 'image/png', size: PNG_BYTES.length, surface: 'attachment', url: `/api/asset/${file.id}`, createdAt: ISO }],
      },
      plain(done),
      plain(planned),
      plain(archived),
    ]);
    expect(res.body.tasks[1]).toMatchObject({ description: 'Body', dueDate: '2030-01-02T03:04:05.000Z', startDate: '2030-01-01T00:00:00.000Z', userId: owner.user.id });
  });

  it('needs membership: a stranger gets 404; any member reads', async () => {
    const { owner, workspaceId, project } = await board();
    const stranger = await t.api.signUp();
    expect((await t.api.get(`/task/export/${project.id}`, stranger.token)).body).toEqual({ message: 'Project not found' });
    expect((await t.api.get(`/task/export/nope`, owner.token)).body).toEqual({ message: 'Project not found' });
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    expect((await t.api.get(`/task/export/${project.id}`, viewer.token)).body.tasks).toEqual([]);
  });
});

describe('POST /task/import/:projectId', () => {
  it('imports an export into another project: same tasks, new numbers, activity imported and event taskCreated each', async () => {
    const { owner, workspaceId, project } = await board();
    await createTask(t, owner.token, project.id, { title: 'One', priority: 'urgent', userId: owner.user.id, dueDate: '2031-05-05T05:05:05Z' });
    const two = await createTask(t, owner.token, project.id, { title: 'Two', status: 'in-review', description: 'D' });
    await t.api.post('/label', { name: 'bug', color: 'red', workspaceId, taskId: two.id }, owner.token);
    await createTask(t, owner.token, project.id, { title: 'Three', status: 'planned' });
    const exported = (await t.api.get(`/task/export/${project.id}`, owner.token)).body;

    const target = await createProject(t, owner.token, workspaceId, { name: 'Target' });
    await createTask(t, owner.token, target.id, { title: 'Already there' });
    const res = await t.api.post(`/task/import/${target.id}`, { tasks: exported.tasks }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      importedAt: ISO,
      project: { id: target.id, name: 'Target', slug: target.slug },
      results: { total: 3, successful: 3, failed: 0, tasks: exported.tasks.map(() => ({ success: true, task: expect.any(Object) })) },
    });
    const imported = res.body.results.tasks.map((r: any) => r.task);
    expect(imported.map((x: any) => [x.projectId, x.number])).toEqual([
      [target.id, 2],
      [target.id, 3],
      [target.id, 4],
    ]);
    // A round trip: the target's export holds the same tasks.
    const again = (await t.api.get(`/task/export/${target.id}`, owner.token)).body.tasks;
    expect(again.filter((x: any) => x.title !== 'Already there')).toEqual(exported.tasks);
    expect((await t.api.get(`/task/${imported[0].id}`, owner.token)).body).toEqual(imported[0]);

    const acts = await sql(t.databaseUrl, `SELECT type, user_id, content, event_data FROM activity WHERE task_id = $1`, [imported[0].id]);
    expect(acts).toEqual([
      { type: 'imported', user_id: owner.user.id, content: 'imported the task', event_data: { number: 2, status: 'to-do', priority: 'urgent', userId: owner.user.id } },
    ]);
    const events = await eventsOf(target.id);
    expect(events.map((e) => [e.name, e.payload.task.title])).toEqual([
      ['taskCreated', 'Already there'],
      ['taskCreated', 'One'],
      ['taskCreated', 'Two'],
      ['taskCreated', 'Three'],
    ]);
    expect(events[1].payload.data).toEqual({ number: 2, status: 'to-do', priority: 'urgent', userId: owner.user.id });
    // The catalogue label was reused, not duplicated.
    expect((await t.api.get(`/label/workspace/${workspaceId}`, owner.token)).body.map((l: any) => l.name)).toEqual(['bug']);
  });

  it('reports each task: unknown status and priority are warnings, a bad task is an error, the others are imported', async () => {
    const { owner, workspaceId, project } = await board();
    const member = await userWithRole(t, workspaceId, 'member');
    const outsider = await t.api.signUp();
    const tasks = [
      { title: 'Good', status: 'done', priority: 'high' },
      { title: 'Odd', status: 'doing', priority: 'critical' },
      { title: 'Blank status', status: '', priority: '', dueDate: '', startDate: '', userId: '' },
      { title: '', status: 'to-do' },
      { title: 'No status' },
      { title: 'Extra', status: 'to-do', secret: 1 },
      { title: 'Stranger', status: 'to-do', userId: outsider.user.id },
      { title: 'Member', status: 'to-do', userId: member.user.id.toUpperCase(), labels: [{ name: 'feature', color: 'teal' }] },
      { title: 'Bad label', status: 'to-do', labels: [{ name: 'x', color: 'navy' }] },
    ];
    const res = await t.api.post(`/task/import/${project.id}`, { tasks }, owner.token);
    expect(res.status).toBe(200);
    const r = res.body.results;
    expect([r.total, r.successful, r.failed]).toEqual([9, 5, 4]);
    expect(r.tasks.map((x: any) => ({ ...x, task: x.task && [x.task.title, x.task.status, x.task.priority, x.task.userId] }))).toEqual([
      { success: true, task: ['Good', 'done', 'high', null] },
      {
        success: true,
        task: ['Odd', 'to-do', 'no-priority', null],
        warnings: ['Unknown status "doing": imported into "to-do"', 'Unknown priority "critical": imported as "no-priority"'],
      },
      { success: true, task: ['Blank status', 'to-do', 'no-priority', null] },
      { success: false, error: 'title must be longer than or equal to 1 characters' },
      { success: false, error: 'status must be shorter than or equal to 100 characters, status must be a string' },
      { success: false, error: 'property secret should not exist' },
      { success: true, task: ['Stranger', 'to-do', 'no-priority', null], warnings: [`Imported unassigned: user ${outsider.user.id} is not a member of this workspace`] },
      { success: true, task: ['Member', 'to-do', 'no-priority', member.user.id] },
      { success: false, error: 'labels.0.color must be a hex color like #RRGGBB or one of gray, dark-gray, purple, teal, green, yellow, orange, pink, red' },
    ]);
    // Numbers are handed out to the imported tasks only, in order.
    expect(r.tasks.filter((x: any) => x.success).map((x: any) => x.task.number)).toEqual([1, 2, 3, 4, 5]);
    const memberTask = r.tasks[7].task;
    expect((await t.api.get(`/label/task/${memberTask.id}`, owner.token)).body.map((l: any) => [l.name, l.color])).toEqual([['feature', 'teal']]);
    expect(await eventsOf(project.id)).toHaveLength(5);
  });

  it('a member without task:assign imports the tasks unassigned, with a warning', async () => {
    const { owner, workspaceId, project } = await board();
    const member = await userWithRole(t, workspaceId, 'member');
    const res = await t.api.post(`/task/import/${project.id}`, { tasks: [{ title: 'Mine', status: 'to-do', userId: owner.user.id }] }, member.token);
    expect(res.body.results.tasks).toEqual([
      { success: true, task: expect.objectContaining({ title: 'Mine', userId: null }), warnings: ['Imported unassigned: assigning needs the task:assign permission'] },
    ]);
  });

  it('all in one transaction: a task that fails while being written takes the whole import back', async () => {
    const { owner, project } = await board();
    // A rule only this test's database has: the third task cannot be written.
    await sql(t.databaseUrl, `ALTER TABLE task ADD CONSTRAINT test_no_boom CHECK (title <> 'boom') NOT VALID`);
    try {
      const res = await t.api.post(
        `/task/import/${project.id}`,
        {
          tasks: [
            { title: 'a', status: 'to-do' },
            { title: 'b', status: 'to-do' },
            { title: 'boom', status: 'to-do' },
          ],
        },
        owner.token,
      );
      expect([res.status, res.body]).toEqual([500, { message: 'Internal server error' }]);
    } finally {
      await sql(t.databaseUrl, `ALTER TABLE task DROP CONSTRAINT test_no_boom`);
    }
    const [state] = await sql(
      t.databaseUrl,
      `SELECT (SELECT count(*)::int FROM task WHERE project_id = $1) AS tasks, (SELECT task_counter FROM project WHERE id = $1) AS counter`,
      [project.id],
    );
    expect(state).toEqual({ tasks: 0, counter: 0 });
    expect(await eventsOf(project.id)).toEqual([]);
    // The next import starts at number 1: the failed one claimed nothing.
    const ok = await t.api.post(`/task/import/${project.id}`, { tasks: [{ title: 'a', status: 'to-do' }] }, owner.token);
    expect(ok.body.results.tasks[0].task.number).toBe(1);
  });

  it('takes up to 1,000 tasks; refuses more, non-object tasks, and callers without task:create', async () => {
    const { owner, workspaceId, project } = await board();
    const many = Array.from({ length: 1000 }, (_, i) => ({ title: `T${i}`, status: 'to-do' }));
    const big = await t.api.post(`/task/import/${project.id}`, { tasks: many }, owner.token);
    expect([big.status, big.body.results?.successful]).toEqual([200, 1000]);
    expect(big.body.results.tasks[999].task.number).toBe(1000);

    const cases: [unknown, string][] = [
      [{ tasks: [...many, { title: 'one more', status: 'to-do' }] }, 'tasks must contain no more than 1000 elements'],
      [{ tasks: [null] }, 'each task must be an object'],
      [{ tasks: 'all' }, 'tasks must be an array'],
      [{ tasks: [], project: {} }, 'property project should not exist'],
    ];
    for (const [body, message] of cases) {
      const res = await t.api.post(`/task/import/${project.id}`, body, owner.token);
      expect([res.status, res.body.message]).toEqual([400, expect.stringContaining(message)]);
    }
    expect((await t.api.post(`/task/import/${project.id}`, { tasks: [] }, owner.token)).body.results).toEqual({ total: 0, successful: 0, failed: 0, tasks: [] });
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const stranger = await t.api.signUp();
    const one = { tasks: [{ title: 'x', status: 'to-do' }] };
    expect((await t.api.post(`/task/import/${project.id}`, one, viewer.token)).body).toEqual({ message: 'Insufficient permissions: task:create is needed' });
    expect((await t.api.post(`/task/import/${project.id}`, one, stranger.token)).body).toEqual({ message: 'Project not found' });
    expect((await t.api.post(`/task/import/${MISSING_ID}`, one, owner.token)).body).toEqual({ message: 'Project not found' });
    const [{ n }] = await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM task WHERE project_id = $1`, [project.id]);
    expect(n).toBe(1000);
  }, 120_000);
});
