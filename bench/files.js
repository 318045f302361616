#!/usr/bin/env node
// `npm run bench:files`: files through the local store (docs/files.md). Builds, then starts the API
// (APP_ROLES=api) and the worker as two processes on their own database and a temporary
// STORAGE_DIR. Part 1: the API's resident memory idle, then its peak while a BENCH_BIG_MIB file
// (default 25 MiB), then one four times as big, is uploaded through the service's own upload URL
// and while it is downloaded (sampled every 10 ms): streamed, the peak does not grow with the file. Part 2: GET /task/:id latency alone
// and while BENCH_DOWNLOADS concurrent 1 MiB downloads (default 20) are in progress, each read as a
// client on a LAN reads (BENCH_DOWNLOAD_KIBPS, default 1024 KiB/s each; a finished download starts
// again), alternating BENCH_ROUNDS times (default 3) so that the machine's own spread shows beside
// the difference; then once with the downloads read as fast as the loopback allows (the worst case).
// With BENCH_FILES_BASE (a git revision) that build is measured too, alternating with this one.
// Settings: BENCH_FILES_BASE, BENCH_BIG_MIB, BENCH_DOWNLOADS, BENCH_DOWNLOAD_KIBPS, BENCH_ROUNDS, BENCH_REQUESTS (per phase, default 400), BENCH_PORT (3117),
// BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/tandem_bench_files), REDIS_URL.
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { benchEnv, buildBase, flushRedis, jsonClient, recreateDatabase, rssMb, startService, stopAll, waitFor } = require('./admin');

const BIG_MIB = Number(process.env.BENCH_BIG_MIB ?? 25);
const DOWNLOADS = Number(process.env.BENCH_DOWNLOADS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const KIBPS = Number(process.env.BENCH_DOWNLOAD_KIBPS ?? 1024);
const PORT = Number(process.env.BENCH_PORT ?? 3117);
const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tandem_bench_files';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'bench_files';
const BASE = `http://127.0.0.1:${PORT}/api`;
const call = jsonClient(BASE);
const MIB = 1024 * 1024;

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One HTTP request; the answer's body is read and dropped (never held), at most `kibps` KiB/s when
 * given (the answer is paused while ahead). Answers status and bytes read.
 */
function request(method, url, { headers = {}, body, kibps } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      let bytes = 0;
      const started = Date.now();
      res.on('data', (c) => {
        bytes += c.length;
        const ahead = kibps ? (bytes / 1024 / kibps) * 1000 - (Date.now() - started) : 0;
        if (ahead > 5) {
          res.pause();
          setTimeout(() => res.resume(), ahead);
        }
      });
      res.on('end', () => resolve({ status: res.statusCode, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body && typeof body.pipe === 'function') body.pipe(req);
    else req.end(body);
  });
}

/** Peak RSS (MB) of `pid` while `work` runs, sampled every 10 ms. */
async function peakWhile(pid, work) {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid) ?? 0)), 10);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, rssMb(pid) ?? 0);
}

async function upload(token, taskId, file, size, surface = 'attachment') {
  const body = { filename: path.basename(file), contentType: 'application/octet-stream', size, surface };
  const ticket = await call('PUT', `/task/image-upload/${taskId}`, body, token);
  if (ticket.status !== 200) throw new Error(`upload request: ${ticket.status} ${JSON.stringify(ticket.body)}`);
  const sent = await request('PUT', ticket.body.uploadUrl, { headers: { ...ticket.body.headers, 'content-length': String(size) }, body: fs.createReadStream(file) });
  if (sent.status !== 200) throw new Error(`upload: ${sent.status}`);
  const done = await call('POST', `/task/image-upload/${taskId}/finalize`, { ...body, key: ticket.body.key }, token);
  if (done.status !== 200) throw new Error(`finalize: ${done.status} ${JSON.stringify(done.body)}`);
  return done.body;
}

/** `n` requests in a row, and more until `minMs` have passed; sorted latencies in ms. */
async function latencies(token, taskId, n, minMs = 0) {
  const out = [];
  const until = Date.now() + minMs;
  for (let i = 0; i < n || Date.now() < until; i++) {
    const start = process.hrtime.bigint();
    const res = await request('GET', `${BASE}/task/${taskId}`, { headers: { authorization: `Bearer ${token}` } });
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (res.status !== 200) throw new Error(`GET /task/:id answered ${res.status}`);
  }
  return out.sort((a, b) => a - b);
}

/** One sitting of both parts with the build in `root`. */
async function measure(root, label) {
  console.log(`\n== ${label}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-bench-files-'));
  await recreateDatabase(DB_URL);
  await flushRedis(REDIS_URL, PREFIX);
  const env = benchEnv({
    PORT: String(PORT),
    DATABASE_URL: DB_URL,
    REDIS_URL,
    QUEUE_PREFIX: PREFIX,
    STORAGE_DIR: path.join(dir, 'files'),
    MAX_ATTACHMENT_BYTES: String(4 * BIG_MIB * MIB),
  });
  const api = startService('api', env, [], root);
  let worker;
  try {
    await waitFor('the API', async () => (await call('GET', '/health').catch(() => ({}))).status === 200);
    worker = startService('worker', { ...env, PORT: '0' }, [], root);
    const signUp = await call('POST', '/auth/sign-up/email', { name: 'Bench', email: `bench-${Date.now()}@example.test`, password: 'benchmark-password' });
    const token = signUp.body.token;
    const ws = (await call('POST', '/auth/organization/create', { name: 'Bench files' }, token)).body;
    const project = (await call('POST', '/project', { name: 'Files', workspaceId: ws.id }, token)).body;
    const task = (await call('POST', `/task/${project.id}`, { title: 'Holds files' }, token)).body;
    const small = path.join(dir, 'small.bin');
    fs.writeFileSync(small, Buffer.alloc(MIB, 3));

    // Warm up the routes, then let the heap settle.
    const warm = await upload(token, task.id, small, MIB);
    for (let i = 0; i < 20; i++) await request('GET', `${BASE}/asset/${warm.id}`, { headers: { authorization: `Bearer ${token}` } });
    await latencies(token, task.id, 100);
    await new Promise((r) => setTimeout(r, 1000));
    const idle = rssMb(api.pid);
    console.log(`API resident memory idle (after warm-up): ${idle} MB`);
    console.log('file | before upload | peak uploading | before download | peak downloading (MB) | upload s');
    // Two sizes: a file held in memory would raise the peak by its size; a streamed one does not.
    for (const mib of [BIG_MIB, 4 * BIG_MIB]) {
      const file = path.join(dir, `big-${mib}.bin`);
      fs.writeFileSync(file, Buffer.alloc(mib * MIB, 7));
      let stored;
      const beforeUp = rssMb(api.pid);
      const upStarted = Date.now();
      const upPeak = await peakWhile(api.pid, async () => (stored = await upload(token, task.id, file, mib * MIB)));
      const upSeconds = (Date.now() - upStarted) / 1000;
      fs.rmSync(file);
      await new Promise((r) => setTimeout(r, 500));
      const beforeDown = rssMb(api.pid);
      const downPeak = await peakWhile(api.pid, async () => {
        const res = await request('GET', `${BASE}/asset/${stored.id}`, { headers: { authorization: `Bearer ${token}` } });
        if (res.bytes !== mib * MIB) throw new Error(`downloaded ${res.bytes} bytes`);
      });
      console.log(`${mib} MiB | ${beforeUp} | ${upPeak} (+${upPeak - beforeUp}) | ${beforeDown} | ${downPeak} (+${downPeak - beforeDown}) | ${upSeconds.toFixed(2)}`);
      await new Promise((r) => setTimeout(r, 500));
    }

    const asset = await upload(token, task.id, small, MIB);
    /** GET /task/:id latencies while DOWNLOADS downloads of the 1 MiB file run (read at `kibps`, or at once). */
    const besideDownloads = async (kibps) => {
      let running = true;
      let downloaded = 0;
      const loops = Array.from({ length: DOWNLOADS }, async () => {
        while (running) {
          const res = await request('GET', `${BASE}/asset/${asset.id}`, { headers: { authorization: `Bearer ${token}` }, kibps });
          if (res.bytes !== MIB) throw new Error(`downloaded ${res.bytes} bytes`);
          downloaded++;
        }
      });
      // Every download under way before the first measured request.
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      const loaded = await latencies(token, task.id, REQUESTS, 5000);
      const rate = downloaded / ((Date.now() - started) / 1000);
      running = false;
      await Promise.all(loops);
      return { loaded, rate };
    };
    const rows = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const alone = await latencies(token, task.id, REQUESTS);
      rows.push({ round, alone, ...(await besideDownloads(KIBPS)) });
    }
    const fast = await besideDownloads(undefined);
    const ms = (sorted) => `${quantile(sorted, 0.5).toFixed(2)} | ${quantile(sorted, 0.95).toFixed(2)}`;
    console.log(`GET /task/:id (${REQUESTS} in a row), ms: alone, and beside ${DOWNLOADS} concurrent 1 MiB downloads read at ${KIBPS} KiB/s each:`);
    console.log('round | alone p50 | alone p95 | beside downloads p50 | beside downloads p95 | downloads/s');
    for (const r of rows) console.log(`${r.round} | ${ms(r.alone)} | ${ms(r.loaded)} | ${r.rate.toFixed(0)}`);
    console.log(`beside ${DOWNLOADS} downloads read as fast as the loopback allows: p50 | p95 ${ms(fast.loaded)} ms, ${fast.rate.toFixed(0)} downloads/s`);
  } finally {
    await stopAll([worker, api]);
    agent.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const here = { name: 'this build', root: path.join(__dirname, '..') };
  const base = process.env.BENCH_FILES_BASE ? buildBase(process.env.BENCH_FILES_BASE, 'files') : null;
  // Alternating with the build before, when one is named: this, before, this, before.
  const order = base ? [here, base, here, base] : [here];
  for (const build of order) await measure(build.root, `${build.name} (node ${process.version}, ${os.cpus().length} cores)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
