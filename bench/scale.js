#!/usr/bin/env node
// `npm run bench:scale`: the same traffic through a local round-robin in front of one API process,
// then in front of two (docs/scaling.md). Builds, starts two API processes (APP_ROLES=api) and one
// worker (APP_ROLES=worker) on their own database, seeds the benchmark data set (bench/seed.js),
// and runs a TCP round-robin in this process (each new connection goes to the next API process, as
// a load balancer in TCP mode does). For each scenario it measures with one backend, then with
// both: requests per second, p50/p99, errors, non-2xx, and how many connections each process got.
// Settings: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (10), BENCH_PORT (3114; the API
// processes listen on the next two ports), BENCH_DATABASE_URL
// (postgres://postgres@127.0.0.1:5432/tandem_bench_scale), REDIS_URL.
const net = require('node:net');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { benchEnv, recreateDatabase, rssMb, startService, stopAll } = require('./admin');
const { seed } = require('./seed');

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 3114);
const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tandem_bench_scale';
const BACKENDS = [PORT + 1, PORT + 2];

/** Round-robin over `ports()` per connection; counts the connections each port got. */
function roundRobin() {
  const state = { ports: BACKENDS, next: 0, counts: new Map() };
  const server = net.createServer((client) => {
    const port = state.ports[state.next++ % state.ports.length];
    state.counts.set(port, (state.counts.get(port) ?? 0) + 1);
    const upstream = net.connect(port, '127.0.0.1');
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
  });
  return { server, state };
}

async function waitForHealth(port) {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the API on port ${port} did not become healthy`);
}

const start = (role, port, env) => startService(role, { ...env, PORT: String(port) });

function measure(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ url: `http://127.0.0.1:${PORT}/api`, connections: CONNECTIONS, duration: DURATION, ...opts }, (err, r) => (err ? reject(err) : resolve(r)));
  });
}

async function main() {
  await recreateDatabase(DB_URL);
  const env = benchEnv({ DATABASE_URL: DB_URL, QUEUE_PREFIX: 'bench_scale' });
  // The first process migrates the fresh database; the second starts once it serves.
  const children = [start('api', BACKENDS[0], env)];
  const { server, state } = roundRobin();
  const db = new Client({ connectionString: DB_URL });
  try {
    await waitForHealth(BACKENDS[0]);
    children.push(start('api', BACKENDS[1], env), start('worker', 0, env));
    await waitForHealth(BACKENDS[1]);
    await new Promise((r) => server.listen(PORT, '127.0.0.1', r));

    const signUp = await (
      await fetch(`http://127.0.0.1:${BACKENDS[0]}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Scale', email: `scale-${Date.now()}@example.test`, password: 'benchmark-password' }),
      })
    ).json();
    const { workspaceIds } = await seed(DB_URL, signUp.user.id, () => undefined);
    await db.connect();
    const headers = { authorization: `Bearer ${signUp.token}`, 'content-type': 'application/json' };
    const ids = async (q, params) => (await db.query(q, params)).rows.map((r) => r.id);
    const readIds = await ids(`SELECT id FROM task ORDER BY md5(id::text) LIMIT 1000`);
    const labelIds = await ids(`SELECT id FROM label WHERE task_id IS NULL ORDER BY id`);
    const [pa] = await ids(`SELECT id FROM project WHERE workspace_id = $1 ORDER BY name LIMIT 1`, [workspaceIds[0]]);
    const statusIds = await ids(`SELECT id FROM task WHERE project_id = $1 ORDER BY number LIMIT 500`, [pa]);
    let n = 0;
    const scenarios = [
      ['GET /task/:id', { method: 'GET', headers, setupRequest: (r) => ({ ...r, path: `/api/task/${readIds[n++ % readIds.length]}` }) }],
      [
        'PUT /label/:id',
        {
          method: 'PUT',
          headers,
          setupRequest: (r) => ({ ...r, path: `/api/label/${labelIds[n++ % labelIds.length]}`, body: JSON.stringify({ color: n % 2 ? '#112233' : '#445566' }) }),
        },
      ],
      [
        'PUT /task/status/:id',
        {
          method: 'PUT',
          headers,
          setupRequest: (r) => ({
            ...r,
            path: `/api/task/status/${statusIds[n++ % statusIds.length]}`,
            body: JSON.stringify({ status: Math.floor(n / 500) % 2 ? 'to-do' : 'done' }),
          }),
        },
      ],
      ['GET /search?q=quokka', { method: 'GET', headers, path: '/api/search?q=quokka' }],
    ];

    console.log(
      `\n${CONNECTIONS} connections, ${DURATION} s per row, through a TCP round-robin in the load generator's process, node ${process.version}, ${require('node:os').cpus().length} cores\n`,
    );
    console.log('| scenario | API processes | req/s | p50 ms | p99 ms | errors | non-2xx | connections per process |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---|');
    for (const [name, request] of scenarios) {
      for (const count of [1, 2]) {
        state.ports = BACKENDS.slice(0, count);
        await measure({ requests: [request], duration: 2 }); // warm-up
        state.counts.clear();
        const r = await measure({ requests: [request] });
        const spread = state.ports.map((p) => state.counts.get(p) ?? 0).join(' / ');
        console.log(`| ${name} | ${count} | ${Math.round(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ${r.errors + r.timeouts} | ${r.non2xx} | ${spread} |`);
      }
    }
    console.log(`\nRSS after the run (MB): ${children.map((c) => rssMb(c.pid) ?? '–').join(' / ')} (API, API, worker)`);
  } finally {
    server.close();
    await db.end().catch(() => undefined);
    await stopAll(children);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
