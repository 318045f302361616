// Seeds the benchmark data set straight into Postgres (fast, deterministic):
// 5 workspaces × 10 projects × 2,000 tasks = 100,000 tasks, one `created` activity per task,
// 50,000 comments (one per two tasks), workspace labels with task copies, and time entries (one per
// ten tasks), all owned by one user; a quarter of the tasks assigned to them, two in three with a
// due date over 2026 and one in three with a start date. BENCH_TASKS_PER_PROJECT changes the 2,000 (20,000: a million
// tasks), with comments and time entries in proportion.
// Titles mix ~200 ordinary words; "update" is common (about a third of titles), "quokka" rare (20 tasks
// and 10 comments whatever the size).
const { Client } = require('pg');

const PER_PROJECT = Number(process.env.BENCH_TASKS_PER_PROJECT ?? 2000);
const TOTAL = PER_PROJECT * 50;
const COMMENTS = TOTAL / 2;

const WORDS = `account add admin alert align api app archive audit auth avatar backend badge banner batch billing
board bug build button cache calendar card cart chart checkout cleanup client cloud column comment config
connect console cookie copy cron css csv dashboard data database date debug default delete deploy design
dialog docs domain draft drag dropdown edit email error event export feature feed field filter fix flag
flow font footer form frontend gateway graph grid guard header health helper hook icon image import index
input install integration invoice job layout lazy legacy limit link list load locale lock log login logo
logout mail map menu merge metric migrate mobile modal module monitor navbar network notify oauth offline
onboarding order page pagination panel parser password patch payment pdf permission pipeline plan plugin
popup port preview price print profile progress proxy push query queue quota rate readme redirect refactor
refresh release render report request reset resize retry review role route sandbox scale schema scroll
search secret security seed server session settings setup share sidebar signup slider sort spinner sql
ssl stage status storage stream style sync table tag team template test theme thread ticket timeout
timer toast token toolbar tooltip tracking translate tree trial upload user validate version video view
webhook widget wizard worker workflow`
  .split(/\s+/)
  .filter(Boolean);

const pick = (salt) => `(ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}])[1 + abs(hashtext(g.n::text || '${salt}')) % ${WORDS.length}]`;

async function seed(databaseUrl, userId, log = console.log) {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const t0 = Date.now();
    await c.query('BEGIN');
    const ws = await c.query(
      `INSERT INTO workspace (name, slug, description)
       SELECT 'Bench workspace ' || i, 'bench-' || i || '-' || substr(md5(random()::text), 1, 6), 'Workspace number ' || i || ' for benchmarks'
         FROM generate_series(1, 5) i RETURNING id`,
    );
    const wsIds = ws.rows.map((r) => r.id);
    await c.query(`INSERT INTO member (organization_id, user_id, role) SELECT unnest($1::uuid[]), $2, 'owner'`, [wsIds, userId]);
    await c.query(
      `INSERT INTO project (workspace_id, slug, name, description, task_counter)
       SELECT w.id, 'P' || w.ord || 'N' || j, 'Project ' || w.ord || '-' || j, 'Benchmark project ' || j, ${PER_PROJECT}
         FROM unnest($1::uuid[]) WITH ORDINALITY AS w(id, ord), generate_series(1, 10) j`,
      [wsIds],
    );
    await c.query(
      `INSERT INTO board_column (workspace_id, project_id, name, slug, position, is_final)
       SELECT p.workspace_id, p.id, c.name, c.slug, c.pos, c.pos = 3 FROM project p
         JOIN member m ON m.organization_id = p.workspace_id AND m.user_id = $1
         CROSS JOIN (VALUES ('To Do', 'to-do', 0), ('In Progress', 'in-progress', 1), ('In Review', 'in-review', 2), ('Done', 'done', 3)) c(name, slug, pos)`,
      [userId],
    );
    await c.query(
      `INSERT INTO task (workspace_id, project_id, number, position, user_id, created_by_id, title, description, status, priority, created_at, start_date, due_date)
       SELECT p.workspace_id, p.id, g.n, g.n,
              CASE WHEN g.n % 4 = 0 THEN $1::uuid END, $1::uuid,
              CASE WHEN abs(hashtext(p.id::text || g.n)) % 3 = 0 THEN 'Update ' ELSE '' END
                || initcap(${pick('a')}) || ' ' || ${pick('b')} || ' ' || ${pick('c')}
                || CASE WHEN (p.ord * ${PER_PROJECT} + g.n) % ${TOTAL / 20} = 7 THEN ' quokka' ELSE '' END,
              'We need to ' || ${pick('d')} || ' the ' || ${pick('e')} || ' ' || ${pick('f')} || ' before the '
                || ${pick('g')} || ' ' || ${pick('h')} || ' can ' || ${pick('i')} || '. See the ' || ${pick('j')} || ' notes.',
              (ARRAY['to-do','in-progress','in-review','done'])[1 + g.n % 4],
              (ARRAY['no-priority','low','medium','high','urgent'])[1 + g.n % 5],
              now() - ((${TOTAL} - (p.ord * ${PER_PROJECT} + g.n)) || ' seconds')::interval,
              -- Two tasks in three have a due date over 2026 (a day each), one in two of those a start 0–13 days before it.
              CASE WHEN g.n % 3 <> 0 AND g.n % 2 = 0 THEN timestamptz '2026-01-01' + ((g.n * 7) % 365 - g.n % 14 || ' days')::interval END,
              CASE WHEN g.n % 3 <> 0 THEN timestamptz '2026-01-01' + ((g.n * 7) % 365 || ' days')::interval END
         FROM (SELECT p.*, row_number() OVER (ORDER BY p.created_at, p.id) - 1 AS ord
                 FROM project p JOIN member m ON m.organization_id = p.workspace_id AND m.user_id = $1) p
        CROSS JOIN generate_series(1, ${PER_PROJECT}) AS g(n)`,
      [userId],
    );
    await c.query(
      `INSERT INTO activity (workspace_id, task_id, type, user_id, event_data, created_at)
       SELECT t.workspace_id, t.id, 'created', $1, jsonb_build_object('title', t.title), t.created_at
         FROM task t JOIN member m ON m.organization_id = t.workspace_id AND m.user_id = $1`,
      [userId],
    );
    await c.query(
      `WITH numbered AS (
         SELECT t.id, t.workspace_id, t.created_at, row_number() OVER (ORDER BY t.id) AS rn
           FROM task t JOIN member m ON m.organization_id = t.workspace_id AND m.user_id = $1)
       INSERT INTO activity (workspace_id, task_id, type, user_id, content, created_at)
       SELECT t.workspace_id, t.id, 'comment', $1,
              'I think we should ' || ${pick('k')} || ' the ' || ${pick('l')} || ' and ' || ${pick('m')} || ' it'
                || CASE WHEN g.n % ${COMMENTS / 10} = 11 THEN ' quokka' ELSE '' END,
              t.created_at + (g.n % 60 || ' seconds')::interval
         FROM generate_series(1, ${COMMENTS}) AS g(n) JOIN numbered t ON t.rn = 1 + (g.n::bigint * 7919) % ${TOTAL}`,
      [userId],
    );
    await c.query(
      `INSERT INTO label (workspace_id, name, color)
       SELECT w, l.name, l.color FROM unnest($1::uuid[]) w
        CROSS JOIN (VALUES ('bug', '#D73A4A'), ('feature', '#0E8A16'), ('docs', '#0075CA'), ('ops', '#FBCA04')) l(name, color)`,
      [wsIds],
    );
    await c.query(
      `INSERT INTO label (workspace_id, task_id, catalog_label_id, name, color)
       SELECT l.workspace_id, t.id, l.id, l.name, l.color
         FROM label l JOIN LATERAL (
           SELECT id FROM task WHERE workspace_id = l.workspace_id ORDER BY number, id LIMIT 25) t ON true
        WHERE l.task_id IS NULL AND l.workspace_id = ANY($1::uuid[])`,
      [wsIds],
    );
    await c.query(
      `INSERT INTO time_entry (workspace_id, task_id, user_id, description, start_time, end_time, duration)
       SELECT t.workspace_id, t.id, $1, 'work', t.created_at, t.created_at + interval '30 minutes', 1800
         FROM task t JOIN member m ON m.organization_id = t.workspace_id AND m.user_id = $1 WHERE t.number % 10 = 0`,
      [userId],
    );
    await c.query('COMMIT');
    await c.query('VACUUM ANALYZE');
    // Flush the seed's dirty pages now, so a checkpoint does not compete with the measurements.
    await c.query('CHECKPOINT');
    const counts = (
      await c.query(`SELECT (SELECT count(*) FROM task)::int AS tasks, (SELECT count(*) FROM project)::int AS projects,
        (SELECT count(*) FROM workspace)::int AS workspaces, (SELECT count(*) FROM activity WHERE type = 'comment')::int AS comments,
        (SELECT count(*) FROM activity)::int AS activities, (SELECT count(*) FROM label)::int AS labels,
        (SELECT count(*) FROM time_entry)::int AS time_entries`)
    ).rows[0];
    log(`seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${JSON.stringify(counts)}`);
    return { workspaceIds: wsIds, counts };
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await c.end();
  }
}

module.exports = { seed };
