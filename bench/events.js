#!/usr/bin/env node
// `npm run bench:events`: the live event stream (GET /api/events, docs/live-events.md).
// Builds, then starts the API (APP_ROLES=api) and the worker (APP_ROLES=worker) as two processes
// on their own database. Part 1: BENCH_STREAMS open streams (default 100) of one workspace, and
// BENCH_RATE task status changes per second (default 50) for BENCH_SECONDS seconds (default 20);
// for every change and every stream, the time from the event's commit (`occurredAt`, taken inside
// the committing statement) to its arrival on that stream: p50, p90, p99, max, and how many
// (stream, event) pairs never arrived. Part 2: the API's resident memory with no stream open, then
// with BENCH_IDLE_STREAMS idle streams (default 1000) open: what they add.
// Settings: BENCH_STREAMS, BENCH_RATE, BENCH_SECONDS, BENCH_IDLE_STREAMS, BENCH_TASKS (default 100),
// BENCH_PORT (3115), BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/tandem_bench_events), REDIS_URL.
const http = require('node:http');
const { benchEnv, cpuMs, flushRedis, jsonClient, recreateDatabase, rssMb, startService, stopAll, waitFor } = require('./admin');

const STREAMS = Number(process.env.BENCH_STREAMS ?? 100);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const IDLE_STREAMS = Number(process.env.BENCH_IDLE_STREAMS ?? 1000);
const TASKS = Number(process.env.BENCH_TASKS ?? 100);
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
function openStream(workspaceId, token, onEvent) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${BASE}/events?workspaceId=${workspaceId}`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`event stream answered ${res.statusCode}`));
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
  const env = benchEnv({ PORT: String(PORT), DATABASE_URL: DB_URL, REDIS_URL, QUEUE_PREFIX: PREFIX });
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
  } finally {
    await stopAll([worker, api]);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
