import { Client } from 'pg';
import { dataSourceOptions } from '../../../src/database/data-source-options';
import { SearchStatsService } from '../../../src/modules/search/search-stats.service';
import { searchSql } from '../../../src/modules/search/search.sql';
import { Workspace } from '../../support/api';
import { startTestApp, TestApp } from '../../support/app';
import { addMember, sql } from '../../support/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

// Data is put in place with SQL: these tests are about what search finds and hides.
async function project(workspaceId: string, slug: string, name: string, description: string | null = null, createdAt = 'now()') {
  const [p] = await sql(t.databaseUrl, `INSERT INTO project (workspace_id, slug, name, description, created_at) VALUES ($1, $2, $3, $4, ${createdAt}) RETURNING id`, [
    workspaceId,
    slug,
    name,
    description,
  ]);
  return p.id as string;
}
let seq = 0;
async function task(projectId: string, title: string, description: string | null = null, minutesAgo = 0, number?: number) {
  const n = number ?? ++seq;
  const [row] = await sql(
    t.databaseUrl,
    `INSERT INTO task (workspace_id, project_id, number, title, description, status, created_at)
     SELECT workspace_id, id, $2, $3, $4, 'to-do', now() - ($5 || ' minutes')::interval FROM project WHERE id = $1 RETURNING id`,
    [projectId, n, title, description, String(minutesAgo)],
  );
  return row.id as string;
}
async function activity(taskId: string, type: string, content: string | null, userId: string | null = null, minutesAgo = 0) {
  const [row] = await sql(
    t.databaseUrl,
    `INSERT INTO activity (workspace_id, task_id, type, content, user_id, created_at)
     SELECT workspace_id, id, $2, $3, $4, now() - ($5 || ' minutes')::interval FROM task WHERE id = $1 RETURNING id`,
    [taskId, type, content, userId, String(minutesAgo)],
  );
  return row.id as string;
}

describe('GET /search', () => {
  let owner: Awaited<ReturnType<TestApp['api']['signUp']>>;
  let stranger: Awaited<ReturnType<TestApp['api']['signUp']>>;
  let ws: Workspace;
  let otherWs: Workspace;
  let api: string;
  let web: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    owner = await t.api.signUp();
    stranger = await t.api.signUp();
    ws = await t.api.createWorkspace(owner.token, 'Zebra Works');
    otherWs = await t.api.createWorkspace(stranger.token, 'Zebra Secret');
    api = await project(ws.id, 'API', 'Backend API', 'Zebra crossing service');
    web = await project(ws.id, 'WEB', 'Web client');
    const foreign = await project(otherWs.id, 'SEC', 'Zebra secret project');
    ids.old = await task(api, 'Zebra migration', null, 30);
    ids.recent = await task(api, 'Fix zebra login', null, 5);
    ids.descOnly = await task(api, 'Unrelated title', 'mentions ZEBRA in the body', 1);
    ids.key = await task(web, 'Keyed task', null, 60, 12);
    ids.percent = await task(web, 'Discount 100% off', null, 2);
    ids.underscore = await task(web, 'snake_case name', null, 3);
    ids.backslash = await task(web, 'path C:\\temp', null, 4);
    ids.foreign = await task(foreign, 'Zebra foreign task', null, 0);
    ids.comment = await activity(ids.old, 'comment', 'A comment about zebras', owner.user.id, 1);
    ids.statusChange = await activity(ids.key, 'status_changed', 'moved to zebra column', owner.user.id, 2);
    ids.titleActivity = await activity(ids.recent, 'created', null, owner.user.id, 3);
    await activity(ids.foreign, 'comment', 'zebra secret comment', stranger.user.id);
  });

  it('answers all five arrays with the spec shapes, ranked title before description, then newest', async () => {
    const res = await t.api.get('/search?q=zebra', owner.token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['activities', 'comments', 'projects', 'tasks', 'workspaces']);
    expect(res.body.tasks.map((x: any) => x.id)).toEqual([ids.recent, ids.old, ids.descOnly]);
    expect(res.body.tasks[0]).toEqual({
      id: ids.recent,
      projectId: api,
      position: 0,
      number: expect.any(Number),
      userId: null,
      title: 'Fix zebra login',
      description: null,
      status: 'to-do',
      priority: 'no-priority',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      startDate: null,
      dueDate: null,
    });
    expect(res.body.projects.map((p: any) => p.id)).toEqual([api]);
    expect(res.body.projects[0]).toEqual({
      id: api,
      workspaceId: ws.id,
      slug: 'API',
      icon: null,
      name: 'Backend API',
      description: 'Zebra crossing service',
      createdAt: expect.any(String),
      isPublic: false,
      archivedAt: null,
      position: 0,
    });
    expect(res.body.workspaces).toEqual([{ ...ws, name: 'Zebra Works', slug: 'zebra-works' }]);
    expect(res.body.comments.map((c: any) => c.id)).toEqual([ids.comment]);
    expect(res.body.comments[0]).toEqual({
      id: ids.comment,
      taskId: ids.old,
      type: 'comment',
      createdAt: expect.any(String),
      userId: owner.user.id,
      content: 'A comment about zebras',
      eventData: null,
      externalUserName: null,
      externalUserAvatar: null,
      externalSource: null,
      externalUrl: null,
    });
    // content match first, then activities of tasks whose title matches
    expect(res.body.activities.map((a: any) => a.id)).toEqual([ids.statusChange, ids.titleActivity]);
    // alone (the tasks whose title matches found by the activities section itself), the same answer
    const alone = await t.api.get('/search?q=zebra&type=activities', owner.token);
    expect(alone.body.activities).toEqual(res.body.activities);
  });

  it('never shows another tenant’s data', async () => {
    const res = await t.api.get('/search?q=secret', owner.token);
    expect(res.body).toEqual({ tasks: [], projects: [], workspaces: [], comments: [], activities: [] });
    const theirs = await t.api.get('/search?q=zebra', stranger.token);
    expect(theirs.body.tasks.map((x: any) => x.id)).toEqual([ids.foreign]);
    expect(theirs.body.workspaces.map((w: any) => w.id)).toEqual([otherWs.id]);
    const filtered = await t.api.get(`/search?q=zebra&workspaceId=${otherWs.id}`, owner.token);
    expect(filtered.status).toBe(404);
    expect(filtered.body).toEqual({ message: 'Workspace not found' });
  });

  it('type limits the answer to one array; the others are empty', async () => {
    const res = await t.api.get('/search?q=zebra&type=projects', owner.token);
    expect(res.body.projects).toHaveLength(1);
    expect(res.body.tasks).toEqual([]);
    expect(res.body.workspaces).toEqual([]);
  });

  it('limit caps each array', async () => {
    const res = await t.api.get('/search?q=zebra&limit=1', owner.token);
    expect(res.body.tasks).toHaveLength(1);
    expect(res.body.tasks[0].id).toBe(ids.recent);
    expect(res.body.activities).toHaveLength(1);
  });

  it('%, _ and \\ are literal', async () => {
    const pct = await t.api.get(`/search?q=${encodeURIComponent('100%')}&type=tasks`, owner.token);
    expect(pct.body.tasks.map((x: any) => x.id)).toEqual([ids.percent]);
    const anything = await t.api.get(`/search?q=${encodeURIComponent('%')}&type=tasks`, owner.token);
    expect(anything.body.tasks.map((x: any) => x.id)).toEqual([ids.percent]);
    const us = await t.api.get(`/search?q=${encodeURIComponent('e_c')}&type=tasks`, owner.token);
    expect(us.body.tasks.map((x: any) => x.id)).toEqual([ids.underscore]);
    const bs = await t.api.get(`/search?q=${encodeURIComponent('C:\\t')}&type=tasks`, owner.token);
    expect(bs.body.tasks.map((x: any) => x.id)).toEqual([ids.backslash]);
  });

  it('KEY-12 finds task 12 of project KEY first', async () => {
    await task(api, 'Mentions WEB-12 in its title', null, 0);
    const res = await t.api.get('/search?q=WEB-12&type=tasks', owner.token);
    expect(res.body.tasks[0].id).toBe(ids.key);
    expect(res.body.tasks).toHaveLength(2);
    const lower = await t.api.get('/search?q=web-12&type=tasks', owner.token);
    expect(lower.body.tasks[0].id).toBe(ids.key);
    // the same key in another of the caller's workspaces is found too, both before text matches
    const ws2 = await t.api.createWorkspace(owner.token, 'Second');
    const web2 = await project(ws2.id, 'WEB', 'Another web');
    const twin = await task(web2, 'Twin keyed task', null, 0, 12);
    const both = await t.api.get('/search?q=WEB-12&type=tasks', owner.token);
    expect(
      both.body.tasks
        .slice(0, 2)
        .map((x: any) => x.id)
        .sort(),
    ).toEqual([ids.key, twin].sort());
    expect(both.body.tasks).toHaveLength(3);
  });

  it('projectId narrows the scope and must be the caller’s', async () => {
    const res = await t.api.get(`/search?q=zebra&projectId=${web}`, owner.token);
    expect(res.body.tasks).toEqual([]);
    expect(res.body.projects).toEqual([]);
    expect(res.body.workspaces).toEqual([]);
    expect(res.body.activities.map((a: any) => a.id)).toEqual([ids.statusChange]);
    const foreign = await t.api.get(`/search?q=zebra&projectId=${web}`, stranger.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: 'Project not found' });
  });

  it('validates its parameters', async () => {
    const cases: Array<[string, string]> = [
      ['/search', 'q must be at least 1 character'],
      ['/search?q=', 'q must be at least 1 character'],
      ['/search?q=x&limit=51', 'Limit must not exceed 50'],
      ['/search?q=x&limit=0', 'Limit must be at least 1'],
      ['/search?q=x&limit=abc', 'Limit must be an integer'],
      ['/search?q=x&type=users', 'type must be one of: all, tasks, projects, workspaces, comments, activities'],
      ['/search?q=x&evil=1', 'property evil should not exist'],
    ];
    for (const [path, message] of cases) {
      const res = await t.api.get(path, owner.token);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
    }
    expect((await t.api.get('/search?q=x&limit=50', owner.token)).status).toBe(200);
    expect((await t.api.get('/search?q=x&q=y', owner.token)).status).toBe(400);
  });

  it('a member added later sees the workspace; a viewer reads too', async () => {
    const viewer = await t.api.signUp();
    expect((await t.api.get('/search?q=zebra', viewer.token)).body.tasks).toEqual([]);
    await addMember(t.databaseUrl, ws.id, viewer.user.id, 'viewer');
    expect((await t.api.get('/search?q=zebra', viewer.token)).body.tasks).toHaveLength(3);
  });

  it('a scoped API key sees only what it may read', async () => {
    const key = (await t.api.post('/auth/api-key/create', { permissions: { project: ['read'] } }, owner.token)).body.key;
    const res = await t.api.get('/search?q=zebra', key);
    expect(res.body.projects).toHaveLength(1);
    expect(res.body.tasks).toEqual([]);
    const denied = await t.api.get('/search?q=zebra&type=tasks', key);
    expect(denied.status).toBe(403);
  });

  it('a word in many titles takes the newest-first path and still ranks correctly', async () => {
    const bulk = await project(ws.id, 'BULK', 'Bulk project');
    await sql(
      t.databaseUrl,
      `INSERT INTO task (workspace_id, project_id, number, title, description, status, created_at)
       SELECT workspace_id, id, 1000 + g, 'Frequent walrus ' || g, CASE WHEN g % 2 = 0 THEN 'walrus notes' END, 'to-do',
              now() - (g || ' seconds')::interval
         FROM project, generate_series(1, 400) g WHERE id = $1`,
      [bulk],
    );
    await sql(t.databaseUrl, 'ANALYZE task, task_text');
    const stats = t.running.app.get(SearchStatsService);
    await stats.refresh();
    expect(stats.share('task.title', 'walrus')).toBeGreaterThan(0.03);
    expect((await stats.variant('walrus')).taskTitle).toBe('common');
    expect((await stats.variant('zebra')).taskTitle).toBe('rare');
    const res = await t.api.get('/search?q=walrus&type=tasks&limit=5', owner.token);
    expect(res.status).toBe(200);
    expect(res.body.tasks.map((x: any) => x.title)).toEqual(['Frequent walrus 1', 'Frequent walrus 2', 'Frequent walrus 3', 'Frequent walrus 4', 'Frequent walrus 5']);
    const all = await t.api.get('/search?q=walrus', owner.token);
    expect(all.body.tasks).toHaveLength(20);
    expect(all.body.activities).toEqual([]);
    // the rare path keeps working after statistics exist
    const rare = await t.api.get('/search?q=zebra&type=tasks', owner.token);
    expect(rare.body.tasks.map((x: any) => x.id)).toEqual([ids.recent, ids.old, ids.descOnly]);
  });
});

describe('access paths chosen per section and per project', () => {
  it('a word common in comments only walks the comments; the activities section stays on its index', async () => {
    const u = await t.api.signUp();
    const w = await t.api.createWorkspace(u.token, 'Chatty');
    const p = await project(w.id, 'CHAT', 'Chatter');
    const host = await task(p, 'Plain host task');
    await sql(
      t.databaseUrl,
      `INSERT INTO activity (workspace_id, task_id, type, content, user_id, created_at)
       SELECT workspace_id, id, 'comment', 'wombat remark ' || g, $2, now() - (g || ' seconds')::interval
         FROM task, generate_series(1, 300) g WHERE id = $1`,
      [host, u.user.id],
    );
    await activity(host, 'status_changed', 'changed the status to wombat-ready', null, 600);
    await sql(t.databaseUrl, 'ANALYZE activity');
    const stats = t.running.app.get(SearchStatsService);
    await stats.refresh();
    const v = await stats.variant('wombat');
    expect(v.commentContent).toBe('common');
    expect(v.activityContent).toBe('rare');
    const res = await t.api.get('/search?q=wombat&limit=3', u.token);
    expect(res.status).toBe(200);
    expect(res.body.comments.map((c: any) => c.content)).toEqual(['wombat remark 1', 'wombat remark 2', 'wombat remark 3']);
    expect(res.body.activities.map((a: any) => a.content)).toEqual(['changed the status to wombat-ready']);
  });

  it('the walk through comments never steps over newer activities of other kinds', async () => {
    const u = await t.api.signUp();
    const w = await t.api.createWorkspace(u.token, 'Busy');
    const p = await project(w.id, 'BUSY', 'Busy board');
    const host = await task(p, 'Busy host task');
    await sql(
      t.databaseUrl,
      `INSERT INTO activity (workspace_id, task_id, type, content, user_id, created_at)
       SELECT workspace_id, id, 'comment', 'quoll remark ' || g, $2, now() - interval '1 hour' - (g || ' seconds')::interval
         FROM task, generate_series(1, 300) g WHERE id = $1`,
      [host, u.user.id],
    );
    // A busy spell after the comments: 5,000 status changes, all newer than every comment.
    await sql(
      t.databaseUrl,
      `INSERT INTO activity (workspace_id, task_id, type, content, user_id, created_at)
       SELECT workspace_id, id, 'status_changed', 'changed the status to done', $2, now() - (g || ' ms')::interval
         FROM task, generate_series(1, 5000) g WHERE id = $1`,
      [host, u.user.id],
    );
    await sql(t.databaseUrl, 'ANALYZE activity');
    const stats = t.running.app.get(SearchStatsService);
    await stats.refresh();
    const v = await stats.variant('quoll');
    expect(v.commentContent).toBe('common');
    const res = await t.api.get('/search?q=quoll&type=comments&limit=3', u.token);
    expect(res.body.comments.map((c: any) => c.content)).toEqual(['quoll remark 1', 'quoll remark 2', 'quoll remark 3']);
    expect(v.activityContent).toBe('rare');
    // The statements as the service runs them (generic plans): the rows they look at and throw
    // away must not include the 5,000 newer status changes, neither on the walk through comments
    // (a common word there) nor on the activities section's lookup (a rare word there).
    const c = new Client({ connectionString: t.databaseUrl, options: (dataSourceOptions(t.databaseUrl).extra as { options: string }).options });
    await c.connect();
    const removed = (node: any): number => (node['Rows Removed by Filter'] ?? 0) + (node.Plans ?? []).reduce((n: number, child: any) => n + removed(child), 0);
    try {
      for (const section of ['comments', 'activities'] as const) {
        await c.query(`PREPARE walk_${section} AS ${searchSql([section], v).text}`);
        const [plan] = (await c.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE walk_${section}('${u.user.id}', '%quoll%', 3, NULL, NULL)`)).rows;
        const discarded = removed(plan['QUERY PLAN'][0].Plan);
        expect({ section, discardedFewerThan1000: discarded < 1000, discarded }).toEqual({ section, discardedFewerThan1000: true, discarded });
      }
    } finally {
      await c.end();
    }
  });

  it('with projectId, a common word is found in that project only, newest first', async () => {
    const u = await t.api.signUp();
    const w = await t.api.createWorkspace(u.token, 'Numbats');
    const big = await project(w.id, 'BIG', 'Big');
    const small = await project(w.id, 'SML', 'Small');
    await sql(
      t.databaseUrl,
      `INSERT INTO task (workspace_id, project_id, number, title, status, created_at)
       SELECT workspace_id, id, g, 'Numbat chore ' || g, 'to-do', now() - (g || ' seconds')::interval
         FROM project, generate_series(1, 400) g WHERE id = $1`,
      [big],
    );
    const older = await task(small, 'Numbat in the small project', null, 60, 1);
    const newer = await task(small, 'Another numbat here', null, 30, 2);
    await task(small, 'Unrelated', null, 10, 3);
    await sql(t.databaseUrl, 'ANALYZE task, task_text');
    await t.running.app.get(SearchStatsService).refresh();
    expect((await t.running.app.get(SearchStatsService).variant('numbat')).taskTitle).toBe('common');
    // within the project the walk through its own tasks is taken (the path under test here)
    expect((await t.running.app.get(SearchStatsService).variant('numbat', { projectScoped: true })).taskTitle).toBe('project');
    const scoped = await t.api.get(`/search?q=numbat&type=tasks&projectId=${small}`, u.token);
    expect(scoped.status).toBe(200);
    expect(scoped.body.tasks.map((x: any) => x.id)).toEqual([newer, older]);
    const all = await t.api.get('/search?q=numbat&type=tasks&limit=2', u.token);
    expect(all.body.tasks.map((x: any) => x.title)).toEqual(['Numbat chore 1', 'Numbat chore 2']);

    // Comments and activities too: many numbat comments in the big project, two in the small one.
    const [bigTask] = await sql(t.databaseUrl, `SELECT id FROM task WHERE project_id = $1 AND number = 1`, [big]);
    await sql(
      t.databaseUrl,
      `INSERT INTO activity (workspace_id, task_id, type, content, user_id, created_at)
       SELECT workspace_id, id, 'comment', 'numbat note ' || g, $2, now() - (g || ' seconds')::interval
         FROM task, generate_series(1, 300) g WHERE id = $1`,
      [bigTask.id, u.user.id],
    );
    const c1 = await activity(older, 'comment', 'a numbat sighting', u.user.id, 20);
    const c2 = await activity(newer, 'comment', 'numbat again', u.user.id, 5);
    const moved = await activity(newer, 'status_changed', 'changed the status', null, 3);
    await activity(bigTask.id, 'status_changed', 'changed the status', null, 2);
    await sql(t.databaseUrl, 'ANALYZE activity');
    await t.running.app.get(SearchStatsService).refresh();
    expect((await t.running.app.get(SearchStatsService).variant('numbat')).commentContent).toBe('common');
    const everything = await t.api.get(`/search?q=numbat&projectId=${small}`, u.token);
    expect(everything.status).toBe(200);
    expect(everything.body.tasks.map((x: any) => x.id)).toEqual([newer, older]);
    expect(everything.body.comments.map((x: any) => x.id)).toEqual([c2, c1]);
    // a status change of a task whose title matches, in the project only
    expect(everything.body.activities.map((x: any) => x.id)).toEqual([moved]);
    expect(everything.body.projects).toEqual([]);
    expect(everything.body.workspaces).toEqual([]);
  });
});

describe('search records match the resources’ own endpoints', () => {
  it('a task, project, workspace and comment found by search equal what their GET routes answer', async () => {
    const { createProject, createTask } = await import('../../support/work-items');
    const u = await t.api.signUp();
    const ws = await t.api.createWorkspace(u.token, 'Narwhal workspace');
    const p = await createProject(t, u.token, ws.id, { name: 'Narwhal project', slug: 'NAR', description: 'about narwhals' });
    const task = await createTask(t, u.token, p.id, { title: 'Narwhal task', description: 'tusks', priority: 'high', dueDate: '2030-01-02T03:04:05.000Z' });
    const comment = await t.api.post(`/comment/${task.id}`, { content: 'narwhal comment' }, u.token);
    expect(comment.status).toBe(200);
    const res = await t.api.get('/search?q=narwhal', u.token);
    expect(res.body.tasks).toEqual([(await t.api.get(`/task/${task.id}`, u.token)).body]);
    expect(res.body.projects).toEqual([(await t.api.get(`/project/${p.id}`, u.token)).body]);
    expect(res.body.workspaces).toEqual([ws]);
    const comments = (await t.api.get(`/comment/${task.id}`, u.token)).body;
    expect(res.body.comments).toEqual(comments);
    const byKey = await t.api.get(`/search?q=NAR-${task.number}&type=tasks`, u.token);
    expect(byKey.body.tasks[0].id).toBe(task.id);
  });
});

describe('search follows every change of a task through the API', () => {
  it('finds new titles and descriptions, follows moves, forgets deleted tasks; moves leave the search text alone', async () => {
    const { createProject, createTask } = await import('../../support/work-items');
    const u = await t.api.signUp();
    const ws = await t.api.createWorkspace(u.token, 'Felines');
    const a = await createProject(t, u.token, ws.id, { name: 'Alpha', slug: 'ALF' });
    const b = await createProject(t, u.token, ws.id, { name: 'Beta', slug: 'BET' });
    const task = await createTask(t, u.token, a.id, { title: 'Ocelot alpha', description: 'plain words' });
    const found = async (q: string) => (await t.api.get(`/search?q=${q}&type=tasks`, u.token)).body.tasks as any[];
    expect((await found('ocelot')).map((x) => x.id)).toEqual([task.id]);

    expect((await t.api.put(`/task/title/${task.id}`, { title: 'Lynx alpha' }, u.token)).status).toBe(200);
    expect(await found('ocelot')).toEqual([]);
    expect((await found('lynx')).map((x) => x.title)).toEqual(['Lynx alpha']);

    expect((await t.api.put(`/task/description/${task.id}`, { description: 'an ocelot den' }, u.token)).status).toBe(200);
    expect((await found('ocelot')).map((x) => x.description)).toEqual(['an ocelot den']);

    expect((await t.api.put(`/task/${task.id}`, { title: 'Serval alpha', description: 'savanna' }, u.token)).status).toBe(200);
    expect(await found('lynx')).toEqual([]);
    expect(await found('ocelot')).toEqual([]);
    expect((await found('savanna')).map((x) => x.title)).toEqual(['Serval alpha']);

    const textVersion = async () => (await sql(t.databaseUrl, `SELECT xmin::text AS v FROM task_text WHERE task_id = $1`, [task.id]))[0]?.v;
    const before = await textVersion();
    const moved = await t.api.put(`/task/move/${task.id}`, { destinationProjectId: b.id }, u.token);
    expect(moved.status).toBe(200);
    expect((await t.api.put(`/task/status/${task.id}`, { status: 'done' }, u.token)).status).toBe(200);
    expect(await textVersion()).toBe(before);
    const afterMove = await found('serval');
    expect(afterMove.map((x) => [x.projectId, x.number, x.status])).toEqual([[b.id, moved.body.task.number, 'done']]);
    expect((await t.api.get(`/search?q=serval&type=tasks&projectId=${b.id}`, u.token)).body.tasks).toHaveLength(1);
    expect((await t.api.get(`/search?q=serval&type=tasks&projectId=${a.id}`, u.token)).body.tasks).toEqual([]);

    expect((await t.api.delete(`/task/${task.id}`, u.token)).status).toBe(200);
    expect(await found('serval')).toEqual([]);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM task_text WHERE task_id = $1`, [task.id])).toEqual([]);
  });
});
