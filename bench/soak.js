#!/usr/bin/env node
// `npm run bench:soak`: mixed traffic for a long time, to see that nothing degrades or leaks.
// Builds, starts the API (APP_ROLES=api) and the worker (APP_ROLES=worker) as two processes on
// their own database, seeds the benchmark data set (bench/seed.js, 100,000 tasks), points a generic
// webhook of one project at a receiver on loopback (this process), and then runs BENCH_CONNECTIONS
// (default 100) connections of mixed traffic for BENCH_MINUTES (default 10) minutes: task reads,
// board reads, searches, status changes (each one delivered to the webhook), label and time-entry
// edits, and comments. Every minute it prints one row: requests per second, p50/p99 latency,
// errors (connection errors and timeouts), non-2xx answers, 5xx answers, deliveries received,
// and the resident memory (RSS) of the API and the worker. At the end it waits for the outbox to
// drain and prints the delivery records by status (every event delivered, none failed).
// Settings: BENCH_MINUTES, BENCH_CONNECTIONS, BENCH_PORT (3113), BENCH_DATABASE_URL
// (postgres://postgres@127.0.0.1:5432/tandem_bench_soak), REDIS_URL.
const http = require('node:http');
const { randomBytes } = require('node:crypto');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { benchEnv, flushRedis, jsonClient, recreateDatabase, rssMb, startService, stopAll, waitFor } = require('./admin');
const { seed } = require('./seed');

const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const PORT = Number(process.env.BENCH_PORT ?? 3113);
const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tandem_bench_soak';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'bench_soak';
const BASE = `http://127.0.0.1:${PORT}/api`;
const call = jsonClient(BASE);

/** One minute (or `seconds`) of the mixed traffic; resolves with autocannon's result. */
function segment(requests, seconds) {
  return new Promise((resolve, reject) => {
    autocannon({ url: BASE, connections: CONNECTIONS, duration: seconds, requests, timeout: 10 }, (err, r) => (err ? reject(err) : resolve(r)));
  });
}

async function main() {
  await recreateDatabase(DB_URL);
  await flushRedis(REDIS_URL, PREFIX);

  let delivered = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.writeHead(204).end();
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));

  const env = benchEnv({ PORT: String(PORT), DATABASE_URL: DB_URL, REDIS_URL, ALLOW_PRIVATE_DESTINATIONS: 'true', QUEUE_PREFIX: PREFIX });
  const api = startService('api', env);
  let worker;
  const db = new Client({ connectionString: DB_URL });
  try {
    await waitFor('the API', async () => (await call('GET', '/health').catch(() => ({}))).status === 200, 120_000, 250);
    worker = startService('worker', { ...env, PORT: '0' });
    const signUp = await call('POST', '/auth/sign-up/email', { name: 'Soak', email: `soak-${Date.now()}@example.test`, password: 'benchmark-password' });
    const token = signUp.body.token;
    const { workspaceIds } = await seed(DB_URL, signUp.body.user.id);
    await db.connect();
    const [pa, pb] = (await db.query(`SELECT id FROM project WHERE workspace_id = $1 ORDER BY name LIMIT 2`, [workspaceIds[0]])).rows.map((r) => r.id);
    const hook = await call(
      'POST',
      `/generic-webhook-integration/project/${pb}`,
      {
        webhookUrl: `http://127.0.0.1:${receiver.address().port}/hook`,
        secret: randomBytes(24).toString('hex'),
        events: { taskCreated: false, taskStatusChanged: true, taskCommentCreated: true },
      },
      token,
    );
    if (hook.status !== 200) throw new Error(`creating the webhook failed: ${hook.status} ${JSON.stringify(hook.body)}`);

    const ids = async (q, params) => (await db.query(q, params)).rows.map((r) => r.id);
    const readIds = await ids(`SELECT id FROM task ORDER BY md5(id::text) LIMIT 1000`);
    const statusIds = await ids(`SELECT id FROM task WHERE project_id = $1 ORDER BY number LIMIT 500`, [pb]);
    const commentIds = await ids(`SELECT id FROM task WHERE project_id = $1 ORDER BY number DESC LIMIT 500`, [pa]);
    const labelIds = await ids(`SELECT id FROM label WHERE task_id IS NULL ORDER BY id`);
    const entryIds = await ids(`SELECT id FROM time_entry ORDER BY id LIMIT 1000`);
    const words = ['quokka', 'update', 'webhook', 'login', 'BENCH', 'think'];
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    let n = 0;
    const at = (list) => list[n++ % list.length];
    // Each connection walks this list in turn: 5 reads, 2 searches, 4 writes of 11 requests.
    const requests = [
      { method: 'GET', headers, setupRequest: (r) => ({ ...r, path: `/api/task/${at(readIds)}` }) },
      { method: 'GET', headers, setupRequest: (r) => ({ ...r, path: `/api/search?q=${at(words)}` }) },
      {
        method: 'PUT',
        headers,
        setupRequest: (r) => ({ ...r, path: `/api/task/status/${at(statusIds)}`, body: JSON.stringify({ status: n % 3 ? 'in-progress' : 'done' }) }),
      },
      { method: 'GET', headers, setupRequest: (r) => ({ ...r, path: `/api/task/${at(readIds)}` }) },
      { method: 'GET', headers, path: `/api/column/${pa}` },
      { method: 'PUT', headers, setupRequest: (r) => ({ ...r, path: `/api/label/${at(labelIds)}`, body: JSON.stringify({ color: n % 2 ? '#112233' : '#445566' }) }) },
      { method: 'GET', headers, setupRequest: (r) => ({ ...r, path: `/api/task/${at(readIds)}` }) },
      { method: 'POST', headers, setupRequest: (r) => ({ ...r, path: `/api/comment/${at(commentIds)}`, body: JSON.stringify({ content: `soak comment ${n}` }) }) },
      { method: 'GET', headers, setupRequest: (r) => ({ ...r, path: `/api/search?q=${at(words)}&type=tasks&projectId=${pa}` }) },
      {
        method: 'PUT',
        headers,
        setupRequest: (r) => ({
          ...r,
          path: `/api/time-entry/${at(entryIds)}`,
          body: JSON.stringify({ startTime: '2026-01-01T09:00:00.000Z', endTime: `2026-01-01T${10 + (n % 8)}:00:00.000Z`, description: `soak ${n}` }),
        }),
      },
      { method: 'GET', headers, setupRequest: (r) => ({ ...r, path: `/api/activity/${at(readIds)}` }) },
    ];
    for (const req of requests) {
      const first = req.setupRequest ? req.setupRequest({ ...req }) : req;
      const probe = await fetch(`http://127.0.0.1:${PORT}${first.path}`, { method: first.method, headers: first.headers, body: first.body });
      if (!probe.ok) throw new Error(`${first.method} ${first.path} answered ${probe.status}: ${(await probe.text()).slice(0, 200)}`);
    }

    console.log(
      `\n${CONNECTIONS} connections of mixed traffic for ${MINUTES} min, API and worker as separate processes, node ${process.version}, ${require('node:os').cpus().length} cores\n`,
    );
    console.log('| minute | req/s | p50 ms | p99 ms | errors | non-2xx | 5xx | deliveries | API RSS MB | worker RSS MB |');
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    const totals = { requests: 0, errors: 0, non2xx: 0, s5xx: 0, worstP99: 0 };
    for (let minute = 1; minute <= MINUTES; minute++) {
      const before = delivered;
      const r = await segment(requests, 60);
      const s5xx = Object.entries(r.statusCodeStats ?? {})
        .filter(([code]) => Number(code) >= 500)
        .reduce((sum, [, s]) => sum + s.count, 0);
      totals.requests += r.requests.total;
      totals.errors += r.errors + r.timeouts;
      totals.non2xx += r.non2xx;
      totals.s5xx += s5xx;
      totals.worstP99 = Math.max(totals.worstP99, r.latency.p99);
      console.log(
        `| ${minute} | ${Math.round(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ${r.errors + r.timeouts} | ${r.non2xx} | ${s5xx} | ${delivered - before} | ${rssMb(api.pid)} | ${rssMb(worker.pid)} |`,
      );
    }

    // Every event committed during the run delivered, none failed: wait for the outbox and the queue to empty.
    await waitFor('the outbox to drain', async () => (await db.query(`SELECT count(*)::int AS n FROM outbox`)).rows[0].n === 0, 300_000, 250);
    await waitFor(
      'deliveries to settle',
      async () => (await db.query(`SELECT count(*)::int AS n FROM delivery WHERE status NOT IN ('delivered', 'failed')`)).rows[0].n === 0,
      300_000,
      250,
    );
    const byStatus = (await db.query(`SELECT status, count(*)::int AS n FROM delivery GROUP BY status ORDER BY status`)).rows;
    console.log(`\nrequests: ${totals.requests}, errors: ${totals.errors}, non-2xx: ${totals.non2xx}, 5xx: ${totals.s5xx}, worst minute p99: ${totals.worstP99} ms`);
    console.log(`delivery records: ${byStatus.map((r) => `${r.status} ${r.n}`).join(', ') || 'none'}; requests received by the webhook: ${delivered}`);
    console.log(`RSS after the run: API ${rssMb(api.pid)} MB, worker ${rssMb(worker.pid)} MB`);
  } finally {
    await stopAll([worker, api]);
    await db.end().catch(() => undefined);
    receiver.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
