#!/usr/bin/env node
// `npm run bench`: builds, starts the service on its own database, seeds 100k tasks, and
// measures the hot endpoints with autocannon (10 connections). Prints a table; with
// BENCH_EXPLAIN=1 (default) also prints EXPLAIN ANALYZE of the search statements and of each task
// list filter.
// Settings: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (10), BENCH_PORT (3111),
// BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/tandem_bench), REDIS_URL, BENCH_ONLY (comma list),
// BENCH_DIST (the build to run, default ./dist: point it at another checkout's dist to compare builds),
// BENCH_ROLES (APP_ROLES of the measured process, default api,worker), BENCH_NODE_ARGS (e.g.
// `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the service under the load), BENCH_REUSE=1 (keep the
// database of an earlier run with the same settings and sign in as its user instead of seeding again:
// a million tasks take ten minutes to seed).
const { spawn } = require('node:child_process');
const path = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { benchEnv, commandCpuMs, cpuMs, jsonClient, recreateDatabase, rssMb } = require('./admin');
const { seed } = require('./seed');

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 3111);
const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tandem_bench';
const ONLY = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',') : null;
const BASE = `http://127.0.0.1:${PORT}/api`;

async function waitForHealth(child) {
  for (let i = 0; i < 120; i++) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${BASE}/health`);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('service did not become healthy');
}

const call = jsonClient(BASE);
const PASSWORD = 'benchmark-password';

/** The bench user of an earlier run on this database, with its workspaces, or null when there is none to reuse. */
async function seededUser(dbUrl) {
  const c = new Client({ connectionString: dbUrl });
  try {
    await c.connect();
  } catch {
    return null; // no such database yet
  }
  try {
    const user = (await c.query(`SELECT id, email FROM "user" WHERE email LIKE 'bench-%@example.test' ORDER BY created_at LIMIT 1`)).rows[0];
    if (!user) return null;
    const ws = await c.query(`SELECT w.id FROM workspace w JOIN member m ON m.organization_id = w.id WHERE m.user_id = $1 ORDER BY w.created_at, w.id`, [user.id]);
    const tasks = (await c.query(`SELECT count(*)::int AS n FROM task`)).rows[0].n;
    return { ...user, workspaceIds: ws.rows.map((r) => r.id), tasks };
  } catch {
    return null; // not a seeded bench database
  } finally {
    await c.end();
  }
}

function run(name, opts) {
  return new Promise((resolve, reject) => {
    autocannon({ url: BASE, connections: CONNECTIONS, duration: DURATION, ...opts }, (err, r) => {
      if (err) return reject(err);
      resolve({
        name,
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors + r.timeouts,
        total: r.requests.total,
      });
    });
  });
}

async function main() {
  const reuse = process.env.BENCH_REUSE === '1' && (await seededUser(DB_URL));
  if (!reuse) await recreateDatabase(DB_URL);
  const env = benchEnv({ PORT: String(PORT), DATABASE_URL: DB_URL, QUEUE_PREFIX: 'bench', APP_ROLES: process.env.BENCH_ROLES ?? 'api,worker' });
  const dist = process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist');
  const nodeArgs = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ').filter(Boolean) : [];
  const child = spawn(process.execPath, [...nodeArgs, path.join(dist, 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitForHealth(child);
    let token, userId, workspaceIds;
    if (reuse) {
      const signIn = await call('POST', '/auth/sign-in/email', { email: reuse.email, password: PASSWORD });
      if (!signIn.body.token) throw new Error(`could not sign in as ${reuse.email}: ${JSON.stringify(signIn.body)}`);
      ({ token } = signIn.body);
      userId = reuse.id;
      workspaceIds = reuse.workspaceIds;
      console.log(`reusing ${DB_URL} (${reuse.tasks} tasks)`);
    } else {
      const signUp = await call('POST', '/auth/sign-up/email', { name: 'Bench', email: `bench-${Date.now()}@example.test`, password: PASSWORD });
      token = signUp.body.token;
      userId = signUp.body.user.id;
      ({ workspaceIds } = await seed(DB_URL, userId));
    }

    // With the session settings the service's connections have (no JIT, no parallel workers, generic
    // plans for named statements), so the plans printed below are the ones the service runs.
    const { options } = require(path.join(dist, 'database/data-source-options')).dataSourceOptions(DB_URL).extra;
    const db = new Client({ connectionString: DB_URL, options });
    await db.connect();
    const [pa, pb] = (await db.query(`SELECT id FROM project WHERE workspace_id = $1 ORDER BY name LIMIT 2`, [workspaceIds[0]])).rows.map((r) => r.id);
    const readIds = (await db.query(`SELECT id FROM task ORDER BY md5(id::text) LIMIT 1000`)).rows.map((r) => r.id);
    // The moved tasks start in whichever of the two projects holds more tasks (a reused database
    // may have been left with many of them moved), and go back and forth between the two.
    const counts = (await db.query(`SELECT project_id, count(*)::int AS n FROM task WHERE project_id = ANY($1) GROUP BY 1`, [[pa, pb]])).rows;
    const moveFrom = (counts.find((c) => c.project_id === pb)?.n ?? 0) > (counts.find((c) => c.project_id === pa)?.n ?? 0) ? pb : pa;
    const moveIds = (await db.query(`SELECT id FROM task WHERE project_id = $1 ORDER BY number LIMIT 500`, [moveFrom])).rows.map((r) => r.id);
    const labelIds = (await db.query(`SELECT id FROM label WHERE task_id IS NULL ORDER BY id`)).rows.map((r) => r.id);
    const entryIds = (await db.query(`SELECT id FROM time_entry ORDER BY id LIMIT 1000`)).rows.map((r) => r.id);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    // Each scenario counts its own requests; each moved task's current project is tracked so
    // every move goes to the other project.
    const counter = () => {
      let n = 0;
      return () => n++;
    };
    const nextRead = counter();
    const nextLabel = counter();
    const nextEntry = counter();
    const nextMove = counter();
    const nextStatus = counter();
    const statusIds = (await db.query(`SELECT id FROM task WHERE project_id = $1 ORDER BY number DESC LIMIT 500`, [pb])).rows.map((r) => r.id);
    const location = new Map(moveIds.map((id) => [id, moveFrom]));
    const keyQuery = `${(await db.query(`SELECT slug FROM project WHERE id = $1`, [pb])).rows[0].slug}-1234`;
    // Column reorder on a project nothing else touches: its columns in one order, then reversed.
    const pc = (await db.query(`SELECT id FROM project WHERE workspace_id = $1 ORDER BY name OFFSET 2 LIMIT 1`, [workspaceIds[0]])).rows[0].id;
    const columnIds = (await db.query(`SELECT id FROM board_column WHERE project_id = $1 ORDER BY position`, [pc])).rows.map((r) => r.id);
    const nextReorder = counter();
    // The task list filters (docs/compatibility.md, "Task lists and their filters"): the original's
    // three together, a label, and the caller's own tasks over a week across the workspaces.
    // A catalogue label of pb's workspace.
    const [{ id: bug }] = (
      await db.query(`SELECT id FROM label WHERE task_id IS NULL AND workspace_id = (SELECT workspace_id FROM project WHERE id = $1) ORDER BY name LIMIT 1`, [pb])
    ).rows;
    const scenarios = [
      [
        'GET /task/tasks/:projectId?assigneeId&dueAfter&dueBefore',
        { requests: [{ method: 'GET', headers: auth, path: `/api/task/tasks/${pb}?assigneeId=${userId}&dueAfter=2026-03-01&dueBefore=2026-04-01` }] },
      ],
      ['GET /task/tasks/:projectId?labelId', { requests: [{ method: 'GET', headers: auth, path: `/api/task/tasks/${pb}?labelId=${bug}` }] }],
      ['GET /task/mine?dueAfter&dueBefore', { requests: [{ method: 'GET', headers: auth, path: '/api/task/mine?dueAfter=2026-03-02&dueBefore=2026-03-09' }] }],
      ['search selective (type all)', { requests: [{ method: 'GET', path: '/api/search?q=quokka', headers: auth }] }],
      ['search common (type tasks)', { requests: [{ method: 'GET', path: '/api/search?q=update&type=tasks', headers: auth }] }],
      // A word in every comment (type all), and a common word in one project.
      ['search common in comments (type all)', { requests: [{ method: 'GET', path: '/api/search?q=think', headers: auth }] }],
      ['search common in one project (type all)', { requests: [{ method: 'GET', path: `/api/search?q=update&projectId=${pb}`, headers: auth }] }],
      ['search task key (type all)', { requests: [{ method: 'GET', path: `/api/search?q=${encodeURIComponent(keyQuery)}`, headers: auth }] }],
      ['GET /task/:id', { requests: [{ method: 'GET', headers: auth, setupRequest: (r) => ({ ...r, path: `/api/task/${readIds[nextRead() % readIds.length]}` }) }] }],
      [
        'PUT /task/move/:id',
        {
          requests: [
            {
              method: 'PUT',
              headers: auth,
              setupRequest: (r) => {
                const id = moveIds[nextMove() % moveIds.length];
                const dest = location.get(id) === pa ? pb : pa;
                location.set(id, dest);
                return { ...r, path: `/api/task/move/${id}`, body: JSON.stringify({ destinationProjectId: dest }) };
              },
            },
          ],
        },
      ],
      [
        // Every request changes the status (to-do ↔ done by rounds): a history row and a task event each.
        'PUT /task/status/:id',
        {
          requests: [
            {
              method: 'PUT',
              headers: auth,
              setupRequest: (r) => {
                const n = nextStatus();
                const status = Math.floor(n / statusIds.length) % 2 ? 'to-do' : 'done';
                return { ...r, path: `/api/task/status/${statusIds[n % statusIds.length]}`, body: JSON.stringify({ status }) };
              },
            },
          ],
        },
      ],
      [
        'PUT /label/:id',
        {
          requests: [
            {
              method: 'PUT',
              headers: auth,
              setupRequest: (r) => {
                const n = nextLabel();
                const color = n % 2 ? '#112233' : '#445566';
                return { ...r, path: `/api/label/${labelIds[n % labelIds.length]}`, body: JSON.stringify({ name: `label-${n % labelIds.length}`, color }) };
              },
            },
          ],
        },
      ],
      [
        'PUT /time-entry/:id',
        {
          requests: [
            {
              method: 'PUT',
              headers: auth,
              setupRequest: (r) => {
                const n = nextEntry();
                return {
                  ...r,
                  path: `/api/time-entry/${entryIds[n % entryIds.length]}`,
                  body: JSON.stringify({ startTime: '2026-01-01T09:00:00.000Z', endTime: `2026-01-01T${10 + (n % 8)}:00:00.000Z`, description: `work ${n}` }),
                };
              },
            },
          ],
        },
      ],
      [
        'PUT /column/reorder/:projectId',
        {
          requests: [
            {
              method: 'PUT',
              headers: auth,
              path: `/api/column/reorder/${pc}`,
              setupRequest: (r) => {
                const flip = nextReorder() % 2;
                const columns = columnIds.map((id, i) => ({ id, position: flip ? columnIds.length - 1 - i : i }));
                return { ...r, body: JSON.stringify({ columns }) };
              },
            },
          ],
        },
      ],
    ];

    // Sanity: each scenario's first request must succeed, else its figures mean nothing.
    const rssBefore = rssMb(child.pid);
    const rows = [];
    for (const [name, opts] of scenarios) {
      if (ONLY && !ONLY.some((o) => name.includes(o))) continue;
      const req = opts.requests[0];
      const first = req.setupRequest ? req.setupRequest({ ...req }) : req;
      const probe = await fetch(`http://127.0.0.1:${PORT}${first.path}`, { method: first.method, headers: first.headers, body: first.body });
      if (!probe.ok) {
        rows.push({ name, skipped: `first request answered ${probe.status}: ${(await probe.text()).slice(0, 120)}` });
        continue;
      }
      await run(name, { ...opts, duration: 2 }); // warm-up
      // The service's own CPU per request is far less sensitive than req/s to whatever else the
      // machine is doing, so it compares builds even on a busy machine.
      const cpuBefore = cpuMs(child.pid);
      const pgBefore = commandCpuMs('postgres');
      const row = await run(name, opts);
      const cpuAfter = cpuMs(child.pid);
      row.pgPerReq = (commandCpuMs('postgres') - pgBefore) / row.total;
      row.cpuPerReq = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / row.total;
      row.rss = rssMb(child.pid);
      rows.push(row);
    }

    console.log(`\n${CONNECTIONS} connections, ${DURATION} s per scenario, node ${process.version}, ${require('node:os').cpus().length} cores\n`);
    console.log(`| scenario | req/s | p50 ms | p99 ms | non-2xx | errors | service CPU ms/req | Postgres CPU ms/req | RSS MB after |`);
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      if (r.skipped) console.log(`| ${r.name} | skipped: ${r.skipped} | | | | | | | |`);
      else
        console.log(
          `| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} | ${r.cpuPerReq === null ? '–' : r.cpuPerReq.toFixed(3)} | ${r.pgPerReq.toFixed(3)} | ${r.rss ?? '–'} |`,
        );
    }
    // The measured process holds the roles of BENCH_ROLES (by default API and worker, as `npm start` runs them).
    console.log(`\nMemory (${env.APP_ROLES}, one process): RSS ${rssBefore ?? '–'} MB after start and seeding, ${rssMb(child.pid) ?? '–'} MB after the benchmark`);

    if (process.env.BENCH_EXPLAIN !== '0') {
      // Each search variant as the service runs it: the statement searchSql builds for the word's
      // access paths, prepared, with its cached generic plan; ANALYZE and BUFFERS.
      const { searchSql, likePattern } = require(path.join(dist, 'modules/search/search.sql'));
      const all = ['tasks', 'projects', 'workspaces', 'comments', 'activities'];
      const common = { taskTitle: 'common', taskDescription: 'rare', commentContent: 'rare', activityContent: 'rare' };
      // Within one project the common word walks that project's tasks.
      const inProject = { ...common, taskTitle: 'project', projectScoped: true };
      const [{ slug }] = (await db.query(`SELECT slug FROM project WHERE id = $1`, [pb])).rows;
      for (const [label, q, sections, variant, projectId, key] of [
        ['selective word, type all', 'quokka', all, undefined, null, null],
        ['common word, type tasks', 'update', ['tasks'], common, null, null],
        ['task key, type all', `${slug}-1234`, all, undefined, null, [slug, 1234]],
        ['common word in one project, type all', 'update', all, inProject, pb, null],
      ]) {
        const params = [userId, likePattern(q), 20, null, projectId];
        if (sections.includes('tasks')) params.push(key ? key[0] : null, key ? key[1] : null);
        await db.query(`PREPARE bench_search AS ${searchSql(sections, variant).text}`);
        const args = params.map((p) => (p === null ? 'NULL' : typeof p === 'number' ? String(p) : `'${String(p).replace(/'/g, "''")}'`)).join(', ');
        const plan = await db.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) EXECUTE bench_search(${args})`);
        await db.query(`DEALLOCATE bench_search`);
        console.log(`\nEXPLAIN (ANALYZE, BUFFERS) search (${label}, q=${q}):\n` + plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
      }
    }
    if (process.env.BENCH_EXPLAIN !== '0') {
      // Each task list filter as the service runs it: the page's statement (filterSql's conditions,
      // the default order, 50 rows) with its values bound; ANALYZE and BUFFERS.
      const { filterSql } = require(path.join(dist, 'modules/task/task.repository'));
      const { TASK_FIELDS } = require(path.join(dist, 'modules/task/task.record'));
      const catalogueLabel = bug;
      const order = 'ORDER BY created_at DESC, number DESC, id DESC LIMIT 50';
      const project = [['project_id = $1', 'workspace_id = $2'], () => [pb, workspaceIds[0]]];
      const mine = [['user_id = $1', 'workspace_id = ANY($2::uuid[])'], () => [userId, workspaceIds]];
      for (const [label, [where, base], q] of [
        ['no filter', project, {}],
        ['assigneeId (a user)', project, { assigneeId: userId }],
        ['assigneeId=none', project, { assigneeId: 'none' }],
        ['dueAfter and dueBefore (a week)', project, { dueAfter: '2026-03-02', dueBefore: '2026-03-09' }],
        ['startAfter and startBefore (a week)', project, { startAfter: '2026-03-02', startBefore: '2026-03-09' }],
        ['status', project, { status: 'in-review' }],
        ['priority', project, { priority: 'urgent' }],
        ['labelId (a catalogue label)', project, { labelId: [catalogueLabel] }],
        ['q, a rare word', project, { q: 'quokka' }],
        ['q, a common word', project, { q: 'update' }],
        ["the original's three: assigneeId, dueAfter, dueBefore", project, { assigneeId: userId, dueAfter: '2026-03-01', dueBefore: '2026-04-01' }],
        ['GET /task/mine, dueAfter and dueBefore (a week)', mine, { dueAfter: '2026-03-02', dueBefore: '2026-03-09' }],
      ]) {
        const params = base();
        const text = `SELECT ${TASK_FIELDS} FROM task WHERE ${[...where, ...filterSql(q, params)].join(' AND ')} ${order}`;
        const plan = await db.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) ${text}`, params);
        console.log(`\nEXPLAIN (ANALYZE, BUFFERS) task list (${label}):\n` + plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
      }
    }
    await db.end();
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
