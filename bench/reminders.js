#!/usr/bin/env node
// `npm run bench:reminders`: BENCH_TASKS tasks (default 10,000) due in the same minute, with two
// workers scanning (docs/notifications.md, "Due dates"). Builds, then starts the API and
// BENCH_WORKERS worker processes (default 2) on their own database; one user is the assignee of
// every task. The tasks are written in one statement, due BENCH_DUE_SECONDS ahead (default 120)
// with the default lead time of a day, so each is reminded at once: part 1 reports how long from
// that commit until every task's due_date_reminder notification was written. Part 2 waits for the
// due minute and reports how long from the due time until every task_overdue notification was
// written. Both report duplicates (notifications and ledger rows beyond one per task and kind) and
// the workers' CPU. Settings: BENCH_TASKS, BENCH_WORKERS, BENCH_DUE_SECONDS, BENCH_PORT (3118),
// BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/tandem_bench_reminders), REDIS_URL.
const { Client } = require('pg');
const { benchEnv, cpuMs, flushRedis, jsonClient, recreateDatabase, startService, stopAll, waitFor } = require('./admin');

const TASKS = Number(process.env.BENCH_TASKS ?? 10_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const DUE_SECONDS = Number(process.env.BENCH_DUE_SECONDS ?? 120);
const PORT = Number(process.env.BENCH_PORT ?? 3118);
const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tandem_bench_reminders';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'bench_reminders';
const call = jsonClient(`http://127.0.0.1:${PORT}/api`);

async function main() {
  await recreateDatabase(DB_URL);
  await flushRedis(REDIS_URL, PREFIX);
  const env = benchEnv({ PORT: String(PORT), DATABASE_URL: DB_URL, REDIS_URL, QUEUE_PREFIX: PREFIX });
  const api = startService('api', env);
  const workers = [];
  const db = new Client({ connectionString: DB_URL });
  try {
    await waitFor('the API', async () => (await call('GET', '/health').catch(() => ({}))).status === 200);
    for (let i = 0; i < WORKERS; i++) workers.push(startService('worker', { ...env, PORT: '0' }));
    const signUp = await call('POST', '/auth/sign-up/email', { name: 'Bench', email: `bench-${Date.now()}@example.test`, password: 'benchmark-password' });
    const token = signUp.body.token;
    const userId = signUp.body.user.id;
    const ws = await call('POST', '/auth/organization/create', { name: 'Bench' }, token);
    const project = await call('POST', '/project', { name: 'Reminder bench', workspaceId: ws.body.id }, token);
    await db.connect();
    await waitFor('the workers', async () => (await db.query(`SELECT scanned_to > now() - interval '5 seconds' AS ok FROM reminder_clock`)).rows[0].ok, 60_000);

    // Due at the start of a minute at least DUE_SECONDS ahead: every task in the same minute.
    const due = new Date(Math.ceil((Date.now() + DUE_SECONDS * 1000) / 60_000) * 60_000);
    const count = async (type) => Number((await db.query(`SELECT count(*)::int AS n FROM notification WHERE user_id = $1 AND type = $2`, [userId, type])).rows[0].n);
    const cpuBefore = workers.map((w) => cpuMs(w.pid));
    const written = Date.now();
    await db.query(
      `INSERT INTO task (workspace_id, project_id, number, position, status, user_id, created_by_id, title, priority, due_date)
       SELECT $1, $2, n, n, (SELECT slug FROM board_column WHERE project_id = $2 ORDER BY position LIMIT 1), $3, $3, 'Due ' || n, 'medium', $4
         FROM generate_series(1, $5::int) AS n`,
      [ws.body.id, project.body.id, userId, due, TASKS],
    );
    await waitFor('every reminder', async () => (await count('due_date_reminder')) >= TASKS, 300_000, 250);
    const remindedMs = Date.now() - written;
    const cpuReminded = workers.map((w, i) => cpuMs(w.pid) - cpuBefore[i]);

    await waitFor('the due minute', async () => Date.now() >= due.getTime(), DUE_SECONDS * 2000, 250);
    const cpuDue = workers.map((w) => cpuMs(w.pid));
    await waitFor('every overdue notice', async () => (await count('task_overdue')) >= TASKS, 300_000, 250);
    const overdueMs = Date.now() - due.getTime();
    const cpuOverdue = workers.map((w, i) => cpuMs(w.pid) - cpuDue[i]);
    // A few more scans after both: nothing more may come.
    const settled = new Date();
    await waitFor(
      'two more scans',
      async () => (await db.query(`SELECT scanned_to > $1::timestamptz + interval '20 seconds' AS ok FROM reminder_clock`, [settled])).rows[0].ok,
      60_000,
      500,
    );
    const dupes = (
      await db.query(
        `SELECT (SELECT count(*) - count(DISTINCT (task_id, type)) FROM notification WHERE user_id = $1)::int AS notifications,
                (SELECT count(*) FROM reminder_sent)::int - 2 * $2::int AS ledger`,
        [userId, TASKS],
      )
    ).rows[0];

    const s = (ms) => (ms / 1000).toFixed(1);
    console.log(`\n${TASKS} tasks due ${due.toISOString()}, ${WORKERS} workers (REMINDER_TICK_MS ${process.env.REMINDER_TICK_MS ?? 10000})`);
    console.log(`reminders: all ${TASKS} written ${s(remindedMs)} s after the tasks (worker CPU ${cpuReminded.map(s).join(' + ')} s)`);
    console.log(`overdue:   all ${TASKS} written ${s(overdueMs)} s after the due time (worker CPU ${cpuOverdue.map(s).join(' + ')} s)`);
    console.log(`duplicates: ${dupes.notifications} notifications, ${dupes.ledger} ledger rows beyond one per task and kind`);
    if (dupes.notifications || dupes.ledger) process.exitCode = 1;
  } finally {
    await db.end().catch(() => {});
    await stopAll([...workers, api]);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
