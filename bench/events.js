#!/usr/bin/env node
// `npm run bench:events`: the live event stream (GET /api/events, docs/live-events.md).
// Builds, then starts the API (APP_ROLES=api) and the worker (APP_ROLES=worker) as two processes
// on their own database. Part 1: BENCH_STREAMS open streams (default 100) of one workspace, and
// BENCH_RATE task status changes per second (default 50) for BENCH_SECONDS seconds (default 20);
// for every change and every stream, the time from the event's commit (`occurredAt`, taken inside
// the committing statement) to its arrival on that stream: p50, p90, p99, max, and how many
// (stream, event) pairs never arrived. Part 2: the API's resident memory with no stream open, then
// with BENCH_IDLE_STREAMS idle streams (default 1000) open: what they add. Part 3: BENCH_CROWD
// streams (default 1000) under description edits at BENCH_RATE for BENCH_SECONDS, measured twice,
// alternating: all reading, then with BENCH_STALLED of them (default 50) that stop reading (a
// laptop asleep): the readers' commit → stream latency in each, and whether the API process
// survived (it must, and the readers must not notice the stalled ones).
// Settings: BENCH_CROWD, BENCH_STALLED, BENCH_STREAMS, BENCH_RATE, BENCH_SECONDS, BENCH_IDLE_STREAMS, BENCH_TASKS (default 100),
// BENCH_PORT (3115), BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/tandem_bench_events), REDIS_URL.
const http = require('node:http');
const { benchEnv, cpuMs, flushRedis, jsonClient, recreateDatabase, rssMb, startService, stopAll, waitFor } = require('./admin');

const STREAMS = Number(process.env.BENCH_STREAMS ?? 100);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const IDLE_STREAMS = Number(process.env.BENCH_IDLE_STREAMS ?? 1000);
const TASKS = Number(process.env.BENCH_TASKS ?? 100);
const CROWD = Number(process.env.BENCH_CROWD ?? 1000);
const STALLED = Number(process.env.BENCH_STALLED ?? 50);
const PORT = Number(process.env.BENCH_PORT ?? 3115);
const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tandem_bench_events';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'bench_events';
const BASE = `http://127.0.0.1:${PORT}/api`;
const call = jsonClient(BASE);

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/**
 * Opens an event stream and calls `onEvent(name, data, at)` for each event as it arrives. Answers
 * once the stream's headers came (status 200), with a function that closes it.
 */
function openStream(workspaceId, token, onEvent, { stall = false } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${BASE}/events?workspaceId=${workspaceId}`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`event stream answered ${res.statusCode}`));
      if (stall) {
        // Never reads: what the service sends piles up in the socket's buffers, then in the service.
        res.pause();
        req.on('error', () => undefined);
        return resolve(() => req.destroy());
      }
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const at = Date.now();
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) onEvent(event, data, at);
        }
      });
      res.on('error', () => undefined);
      resolve(() => req.destroy());
    });
    req.on('error', reject);
  });
}

async function main() {
  await recreateDatabase(DB_URL);
  await flushRedis(REDIS_URL, PREFIX);
  // One user holds every stream here: the per-user cap (10 by default) is raised for it.
  const env = benchEnv({ PORT: String(PORT), DATABASE_URL: DB_URL, REDIS_URL, QUEUE_PREFIX: PREFIX, LIVE_STREAMS_PER_USER: String(Math.max(STREAMS, IDLE_STREAMS, CROWD) + 10) });
  const api = startService('api', env);
  let worker;
  try {
    await waitFor('the API', async () => (await call('GET', '/health').catch(() => ({}))).status === 200);
    worker = startService('worker', { ...env, PORT: '0' });
    const signUp = await call('POST', '/auth/sign-up/email', { name: 'Bench', email: `bench-${Date.now()}@example.test`, password: 'benchmark-password' });
    const token = signUp.body.token;
    const ws = (await call('POST', '/auth/organization/create', { name: 'Bench' }, token)).body;
    const project = (await call('POST', '/project', { name: 'Events bench', workspaceId: ws.id }, token)).body;
    const tasks = [];
    for (let i = 0; i < TASKS; i++) tasks.push((await call('POST', `/task/${project.id}`, { title: `Task ${i}` }, token)).body);

    // Part 1: STREAMS streams, RATE changes per second.
    const arrivals = new Map(); // event id → arrival times, one per stream
    const committed = new Map(); // event id → occurredAt (ms)
    const closers = [];
    for (let s = 0; s < STREAMS; s++) {
      closers.push(
        await openStream(ws.id, token, (event, data, at) => {
          if (event !== 'task.status_changed') return;
          const e = JSON.parse(data);
          committed.set(e.id, Date.parse(e.occurredAt));
          arrivals.set(e.id, [...(arrivals.get(e.id) ?? []), at]);
        }),
      );
    }
    // Warm-up: one change seen by every stream before the clock starts.
    await call('PUT', `/task/status/${tasks[0].id}`, { status: 'in-review' }, token);
    await waitFor('the warm-up event on every stream', () => [...arrivals.values()].some((a) => a.length >= STREAMS));
    arrivals.clear();
    committed.clear();

    const total = RATE * SECONDS;
    const statuses = ['in-progress', 'done'];
    const cpuBefore = { api: cpuMs(api.pid), worker: cpuMs(worker.pid) };
    const started = Date.now();
    let failed = 0;
    const pending = [];
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / RATE;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const task = tasks[n % TASKS];
      pending.push(call('PUT', `/task/status/${task.id}`, { status: statuses[Math.floor(n / TASKS) % 2] }, token).then((r) => (r.status === 200 ? 0 : failed++)));
    }
    await Promise.all(pending);
    const sent = Date.now();
    await waitFor(`${total - failed} events on every stream`, () => committed.size >= total - failed && [...arrivals.values()].every((a) => a.length >= STREAMS), 60_000).catch(
      (err) => console.error(err.message),
    );
    const cpuAfter = { api: cpuMs(api.pid), worker: cpuMs(worker.pid) };
    const latencies = [];
    let missing = 0;
    for (const [id, times] of arrivals) {
      for (const at of times) latencies.push(at - committed.get(id));
      missing += Math.max(0, STREAMS - times.length);
    }
    missing += Math.max(0, total - failed - arrivals.size) * STREAMS;
    latencies.sort((a, b) => a - b);
    const rssWithStreams = rssMb(api.pid);
    for (const close of closers) close();

    // Part 2: the memory of IDLE_STREAMS idle streams.
    await new Promise((r) => setTimeout(r, 2_000));
    const idleBase = rssMb(api.pid);
    const idle = [];
    for (let s = 0; s < IDLE_STREAMS; s++) idle.push(await openStream(ws.id, token, () => undefined));
    // Let the heap settle with the streams open (their buffers allocated, the access checks run).
    await new Promise((r) => setTimeout(r, 5_000));
    const idleRss = rssMb(api.pid);
    for (const close of idle) close();

    // Part 3: a crowd of CROWD streams, all reading, then with STALLED that stop reading; alternating.
    const crowd = [];
    for (const stalled of [0, STALLED, 0, STALLED]) crowd.push({ stalled, ...(await crowdRun(api, ws.id, token, tasks, stalled)) });

    console.log(
      `\nLive event stream: ${STREAMS} streams of one workspace, ${RATE} status changes per second for ${SECONDS} s, API and worker as separate processes, node ${process.version}, ${require('node:os').cpus().length} cores\n`,
    );
    console.log('| figure | value |');
    console.log('|---|---:|');
    console.log(`| changes answered 200 | ${total - failed} of ${total} |`);
    console.log(`| changes per second achieved | ${Math.round((total / (sent - started)) * 1000)} |`);
    console.log(`| (stream, event) arrivals | ${latencies.length} (missing: ${missing}) |`);
    console.log(`| commit → stream p50 ms | ${quantile(latencies, 0.5)} |`);
    console.log(`| commit → stream p90 ms | ${quantile(latencies, 0.9)} |`);
    console.log(`| commit → stream p99 ms | ${quantile(latencies, 0.99)} |`);
    console.log(`| commit → stream max ms | ${latencies[latencies.length - 1]} |`);
    console.log(`| API CPU ms per change (${STREAMS} streams) | ${((cpuAfter.api - cpuBefore.api) / total).toFixed(2)} |`);
    console.log(`| worker CPU ms per change | ${((cpuAfter.worker - cpuBefore.worker) / total).toFixed(2)} |`);
    console.log(`| API RSS MB with ${STREAMS} streams | ${rssWithStreams} |`);
    console.log(`| API RSS MB: no stream open / ${IDLE_STREAMS} idle streams | ${idleBase} / ${idleRss} (+${(idleRss - idleBase).toFixed(1)}) |`);
    console.log(`\n${CROWD} streams of one workspace, ${RATE} description edits (10 kB each) per second for ${SECONDS} s; the readers' latency, runs alternating\n`);
    console.log('| run | stalled streams | readers | arrivals (missing) | p50 / p90 / p99 / max ms | API process |');
    console.log('|---:|---:|---:|---|---|---|');
    crowd.forEach((r, i) =>
      console.log(
        `| ${i + 1} | ${r.stalled} | ${CROWD - r.stalled} | ${r.arrivals} (${r.missing}) | ${r.p50} / ${r.p90} / ${r.p99} / ${r.max} | ${r.alive ? 'running' : `exited (${r.exit})`} |`,
      ),
    );
  } finally {
    await stopAll([worker, api]);
  }
}

/**
 * CROWD streams, `stalled` of which never read; RATE description edits per second for SECONDS:
 * the readers' commit → stream latencies, and whether the API process is still running after.
 */
async function crowdRun(api, workspaceId, token, tasks, stalled) {
  const arrivals = new Map();
  const committed = new Map();
  const closers = [];
  const onEvent = (event, data, at) => {
    if (event !== 'task.description_changed') return;
    const e = JSON.parse(data);
    committed.set(e.id, Date.parse(e.occurredAt));
    arrivals.set(e.id, (arrivals.get(e.id) ?? 0) + 1);
    latencies.push(at - Date.parse(e.occurredAt));
  };
  const latencies = [];
  const readers = CROWD - stalled;
  for (let s = 0; s < CROWD; s++) closers.push(await openStream(workspaceId, token, onEvent, { stall: s % 20 === 0 && s / 20 < stalled }));
  const total = RATE * SECONDS;
  const started = Date.now();
  const pending = [];
  for (let n = 0; n < total; n++) {
    const wait = started + (n * 1000) / RATE - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const description = `Edit ${n}: `.padEnd(10_000, 'the quick brown fox ');
    pending.push(call('PUT', `/task/description/${tasks[n % tasks.length].id}`, { description }, token));
  }
  const answered = (await Promise.all(pending)).filter((r) => r.status === 200).length;
  await waitFor(`${answered} edits on every reading stream`, () => committed.size >= answered && [...arrivals.values()].every((a) => a >= readers), 60_000).catch((err) =>
    console.error(err.message),
  );
  const alive = api.exitCode === null && api.signalCode === null;
  for (const close of closers) close();
  latencies.sort((a, b) => a - b);
  let missing = Math.max(0, answered - arrivals.size) * readers;
  for (const n of arrivals.values()) missing += Math.max(0, readers - n);
  await new Promise((r) => setTimeout(r, 2_000));
  return {
    arrivals: latencies.length,
    missing,
    p50: quantile(latencies, 0.5),
    p90: quantile(latencies, 0.9),
    p99: quantile(latencies, 0.99),
    max: latencies[latencies.length - 1],
    alive,
    exit: api.exitCode ?? api.signalCode,
  };
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
