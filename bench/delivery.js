#!/usr/bin/env node
// `npm run bench:delivery`: task change committed → webhook receiver got it.
// Builds, then starts the API (APP_ROLES=api) and the worker (APP_ROLES=worker) as two processes
// on their own database, with a generic webhook integration pointing at a receiver on loopback
// (this process). Makes BENCH_CHANGES task status changes (default 1000) over BENCH_CONNECTIONS
// concurrent clients (default 10) and reports, per delivered event, the latency from the event's
// time (`timestamp`, taken inside the committing statement) to its arrival at the receiver: p50,
// p90, p99, max; and deliveries per second from the first change sent to the last arrival. Then
// the worker is stopped, BENCH_CHANGES more changes are committed (their events wait in the
// outbox), the worker is started again, and the rate at which it drains that backlog is reported
// (first arrival to last): the delivery side's own throughput, not bounded by the API's.
// With BENCH_WATCHERS=n (default 0), n more members watch every task (docs/notifications.md,
// "Watchers"): each change then also writes n in-app notifications, and the backlog part reports
// the drain per recipient (webhook deliveries and notifications together) beside the events'.
// Settings: BENCH_CHANGES, BENCH_CONNECTIONS, BENCH_TASKS (tasks changed in turn, default 100), BENCH_WATCHERS,
// BENCH_PORT (3112), BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/tandem_bench_delivery), REDIS_URL,
// BENCH_WORKER_NODE_ARGS / BENCH_API_NODE_ARGS (Node options of either process, e.g.
// `--cpu-prof --cpu-prof-dir=/tmp/prof` for a CPU profile written when it stops).
// After the live part it also reports where the live latency went, stage by stage (p50 and p90 of
// each), from the BullMQ jobs' own times (added, started, finished) and the delivery rows.
const { randomBytes } = require('node:crypto');
const http = require('node:http');
const { Client } = require('pg');
const { Queue } = require('bullmq');
const { benchEnv, commandCpuMs, cpuMs, flushRedis, recreateDatabase, rssMb, startService, stopAll, waitFor } = require('./admin');

const CHANGES = Number(process.env.BENCH_CHANGES ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const TASKS = Number(process.env.BENCH_TASKS ?? 100);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 0);
const PORT = Number(process.env.BENCH_PORT ?? 3112);
const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tandem_bench_delivery';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'bench_delivery';
const BASE = `http://127.0.0.1:${PORT}/api`;

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
function call(method, p, body, token) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(`${BASE}${p}`, { method, agent, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

const start = (role, env) => startService(role, env, ((role === 'worker' ? process.env.BENCH_WORKER_NODE_ARGS : process.env.BENCH_API_NODE_ARGS) ?? '').split(' ').filter(Boolean));

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/**
 * The live latency by stage, per delivered event: from the event's time to its task-events job
 * (commit, wake-up, relay), to the fan-out taking it, to its delivery job (fan-out), to a delivery
 * worker taking that, to its arrival (read, sign, send). Jobs are kept after completion (the last
 * 1,000 of a queue), so every live job of this run is still there.
 */
async function stages(live) {
  const connection = { url: REDIS_URL };
  const prefix = `${PREFIX}:bull`;
  const taskEvents = new Queue('task-events', { connection, prefix });
  const deliveries = new Queue('deliver-generic-webhook', { connection, prefix });
  const db = new Client({ connectionString: DB_URL });
  await db.connect();
  try {
    const eventJob = new Map();
    for (const job of await taskEvents.getJobs(['completed'], 0, -1)) for (const e of job.data.events ?? [job.data]) eventJob.set(e.id, job);
    const deliveryJob = new Map((await deliveries.getJobs(['completed'], 0, -1)).map((j) => [j.id, j]));
    const { rows } = await db.query('SELECT id::text, event_id::text FROM delivery WHERE id = ANY($1::uuid[])', [live.map((a) => a.id)]);
    const eventOf = new Map(rows.map((r) => [r.id, r.event_id]));
    const names = [
      'change → task-events job (commit, wake-up, relay)',
      'task-events job → fan-out starts',
      'fan-out starts → delivery job',
      'delivery job → delivery starts',
      'delivery starts → arrival (read, sign, send)',
    ];
    const out = names.map(() => []);
    let events = 0;
    for (const a of live) {
      const tj = eventJob.get(eventOf.get(a.id));
      const dj = deliveryJob.get(a.id);
      if (!tj || !dj) continue;
      events++;
      const points = [a.timestamp, tj.timestamp, tj.processedOn, dj.timestamp, dj.processedOn, a.at];
      for (let i = 0; i < names.length; i++) out[i].push(points[i + 1] - points[i]);
    }
    return { events, rows: names.map((n, i) => [n, out[i].sort((x, y) => x - y)]) };
  } finally {
    await Promise.all([taskEvents.close(), deliveries.close(), db.end()]);
  }
}

async function main() {
  await recreateDatabase(DB_URL);
  await flushRedis(REDIS_URL, PREFIX);

  // The receiver: records each event once (by webhook-id) with its arrival time.
  const arrivals = new Map();
  let duplicates = 0;
  const receiver = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const at = Date.now();
      const id = req.headers['webhook-id'];
      if (arrivals.has(id)) duplicates++;
      else arrivals.set(id, { id, at, timestamp: Date.parse(JSON.parse(raw).timestamp) });
      res.writeHead(204).end();
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

  const env = benchEnv({ PORT: String(PORT), DATABASE_URL: DB_URL, REDIS_URL, ALLOW_PRIVATE_DESTINATIONS: 'true', QUEUE_PREFIX: PREFIX });
  const api = start('api', env);
  let worker;
  try {
    await waitFor('the API', async () => (await call('GET', '/health').catch(() => ({}))).status === 200);
    worker = start('worker', { ...env, PORT: '0' });

    const signUp = await call('POST', '/auth/sign-up/email', { name: 'Bench', email: `bench-${Date.now()}@example.test`, password: 'benchmark-password' });
    const token = signUp.body.token;
    const ws = await call('POST', '/auth/organization/create', { name: 'Bench' }, token);
    const project = await call('POST', '/project', { name: 'Delivery bench', workspaceId: ws.body.id }, token);
    const hook = await call(
      'POST',
      `/generic-webhook-integration/project/${project.body.id}`,
      { webhookUrl: receiverUrl, secret: randomBytes(24).toString('hex'), events: { taskCreated: false, taskStatusChanged: true } },
      token,
    );
    if (hook.status !== 200) throw new Error(`creating the webhook failed: ${hook.status} ${JSON.stringify(hook.body)}`);
    const tasks = [];
    for (let i = 0; i < TASKS; i++) tasks.push((await call('POST', `/task/${project.body.id}`, { title: `Task ${i}` }, token)).body);
    const statuses = ['in-progress', 'done'];
    // The watchers: members of the workspace who watch every task (rows written directly: setting up, not measured).
    const db = new Client({ connectionString: DB_URL });
    await db.connect();
    for (let i = 0; i < WATCHERS; i++) {
      const w = await call('POST', '/auth/sign-up/email', { name: `Watcher ${i}`, email: `watcher-${i}-${Date.now()}@example.test`, password: 'benchmark-password' });
      await db.query(`INSERT INTO member (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [ws.body.id, w.body.user.id]);
      await db.query(`INSERT INTO task_watcher (task_id, user_id, workspace_id, watching, reason) SELECT id, $2, $1, true, 'watching' FROM task WHERE project_id = $3`, [
        ws.body.id,
        w.body.user.id,
        project.body.id,
      ]);
    }
    const notifications = async () => Number((await db.query('SELECT count(*)::int AS n FROM notification')).rows[0].n);

    // Warm-up: one change, delivered, before the clock starts.
    await call('PUT', `/task/status/${tasks[0].id}`, { status: 'in-review' }, token);
    await waitFor('the warm-up delivery', () => arrivals.size >= 1);
    arrivals.clear();

    const change = async (n) => {
      const task = tasks[n % TASKS];
      const status = statuses[Math.floor(n / TASKS) % 2];
      return (await call('PUT', `/task/status/${task.id}`, { status }, token)).status;
    };
    /** CHANGES changes over CONNECTIONS clients, numbered from `from`; answers how many failed. */
    const burst = async (from) => {
      let next = from;
      let failed = 0;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          for (let n = next++; n < from + CHANGES; n = next++) if ((await change(n)) !== 200) failed++;
        }),
      );
      return failed;
    };

    // Live: changes at full speed with the worker running; latency per event.
    const cpu = () => {
      const own = process.cpuUsage();
      return { api: cpuMs(api.pid), worker: cpuMs(worker.pid), postgres: commandCpuMs('postgres'), redis: commandCpuMs('redis-server'), bench: (own.user + own.system) / 1000 };
    };
    const cpuBefore = cpu();
    const started = Date.now();
    const failed = await burst(0);
    const changesDone = Date.now();
    await waitFor(`${CHANGES - failed} deliveries`, () => arrivals.size >= CHANGES - failed, 120_000);
    const cpuAfter = cpu();
    const live = [...arrivals.values()];
    const lastArrival = Math.max(...live.map((a) => a.at));
    const latencies = live.map((a) => a.at - a.timestamp).sort((a, b) => a - b);
    const liveDuplicates = duplicates;
    const stageRows = await stages(live);

    // Backlog: the worker stopped, CHANGES events committed meanwhile (they wait in the outbox),
    // then the worker started again: how fast it drains them, first arrival to last.
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
    arrivals.clear();
    const backlogFailed = await burst(CHANGES);
    const notifiedBefore = await notifications();
    worker = start('worker', { ...env, PORT: '0' });
    await waitFor(`${CHANGES - backlogFailed} backlog deliveries`, () => arrivals.size >= CHANGES - backlogFailed, 180_000);
    const wanted = notifiedBefore + (CHANGES - backlogFailed) * WATCHERS;
    await waitFor(`${wanted - notifiedBefore} backlog notifications`, async () => (await notifications()) >= wanted, 180_000, 20);
    const notifiedAt = Date.now();
    const drained = [...arrivals.values()].map((a) => a.at).sort((a, b) => a - b);
    const drainRate = ((drained.length - 1) / (drained[drained.length - 1] - drained[0])) * 1000;
    // With watchers, the drain ends when the last notification is written (polled every 20 ms) or the last delivery arrives.
    const drainEnd = WATCHERS ? Math.max(drained[drained.length - 1], notifiedAt) : drained[drained.length - 1];
    const recipientRate = ((drained.length * (1 + WATCHERS) - 1) / (drainEnd - drained[0])) * 1000;
    await db.end();

    console.log(
      `\n${CHANGES} status changes over ${CONNECTIONS} connections (${TASKS} tasks), API and worker as separate processes, node ${process.version}, ${require('node:os').cpus().length} cores\n`,
    );
    console.log('| figure | value |');
    console.log('|---|---:|');
    console.log(`| live: changes answered 200 | ${CHANGES - failed} |`);
    console.log(`| live: changes per second (API) | ${Math.round((CHANGES / (changesDone - started)) * 1000)} |`);
    console.log(`| live: events delivered | ${live.length} (duplicates: ${liveDuplicates}) |`);
    console.log(`| live: deliveries per second (first change → last arrival) | ${Math.round((live.length / (lastArrival - started)) * 1000)} |`);
    console.log(`| live: latency p50 ms | ${quantile(latencies, 0.5)} |`);
    console.log(`| live: latency p90 ms | ${quantile(latencies, 0.9)} |`);
    console.log(`| live: latency p99 ms | ${quantile(latencies, 0.99)} |`);
    console.log(`| live: latency max ms | ${latencies[latencies.length - 1]} |`);
    console.log(`| backlog: events delivered | ${drained.length} (duplicates: ${duplicates - liveDuplicates}) |`);
    console.log(`| backlog: deliveries per second (first arrival → last) | ${Math.round(drainRate)} |`);
    if (WATCHERS) {
      console.log(`| backlog: watchers per task | ${WATCHERS} |`);
      console.log(`| backlog: recipients per second (deliveries + notifications, first arrival → last written) | ${Math.round(recipientRate)} |`);
      console.log(`| backlog: events per second with ${WATCHERS} watchers each | ${Math.round((drained.length / (drainEnd - drained[0])) * 1000)} |`);
    }
    console.log(`| RSS MB after the run: API / worker (restarted for the backlog) | ${rssMb(api.pid) ?? '–'} / ${rssMb(worker.pid) ?? '–'} |`);
    // CPU per delivered event in the live part, by process: on two cores shared by all of them, what
    // one process spends, the others wait for.
    const used = Object.fromEntries(Object.keys(cpuAfter).map((k) => [k, cpuAfter[k] - cpuBefore[k]]));
    const perEvent = (ms) => (ms / live.length).toFixed(2);
    const busyCores = Object.values(used).reduce((a, b) => a + b, 0) / (lastArrival - started);
    console.log(
      `\nCPU ms per event in the live part: API ${perEvent(used.api)}, worker ${perEvent(used.worker)}, Postgres ${perEvent(used.postgres)}, Redis ${perEvent(used.redis)}, this process (clients and receiver) ${perEvent(used.bench)}; ${busyCores.toFixed(2)} cores busy on average`,
    );
    console.log(`\nWhere the live latency went (ms; ${stageRows.events} events whose jobs were still kept):\n`);
    console.log('| stage | p50 | p90 |');
    console.log('|---|---:|---:|');
    for (const [stage, values] of stageRows.rows) console.log(`| ${stage} | ${quantile(values, 0.5)} | ${quantile(values, 0.9)} |`);
  } finally {
    await stopAll([worker, api]);
    agent.destroy();
    receiver.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
