#!/usr/bin/env node
// `npm run bench:files`: files through the local store (docs/files.md). Builds, then starts the API
// (APP_ROLES=api) and the worker as two processes on their own database and a temporary
// STORAGE_DIR. Part 1: the API's resident memory idle, then its peak while a BENCH_BIG_MIB file
// (default 25 MiB) is uploaded through the service's own upload URL and while it is downloaded
// (sampled every 10 ms): streaming keeps the peak near idle. Part 2: GET /task/:id latency alone
// and while BENCH_DOWNLOADS concurrent 1 MiB downloads (default 20) run without pause, alternating
// BENCH_ROUNDS times (default 3) so that the machine's own spread shows beside the difference.
// Settings: BENCH_BIG_MIB, BENCH_DOWNLOADS, BENCH_ROUNDS, BENCH_REQUESTS (per phase, default 400), BENCH_PORT (3117),
// BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/tandem_bench_files), REDIS_URL.
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { benchEnv, flushRedis, jsonClient, recreateDatabase, rssMb, startService, stopAll, waitFor } = require('./admin');

const BIG_MIB = Number(process.env.BENCH_BIG_MIB ?? 25);
const DOWNLOADS = Number(process.env.BENCH_DOWNLOADS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const PORT = Number(process.env.BENCH_PORT ?? 3117);
const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tandem_bench_files';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'bench_files';
const BASE = `http://127.0.0.1:${PORT}/api`;
const call = jsonClient(BASE);
const MIB = 1024 * 1024;

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One HTTP request; the answer's body is read and dropped (never held). Answers status and bytes read. */
function request(method, url, { headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      let bytes = 0;
      res.on('data', (c) => (bytes += c.length));
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

async function latencies(token, taskId, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    const res = await request('GET', `${BASE}/task/${taskId}`, { headers: { authorization: `Bearer ${token}` } });
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (res.status !== 200) throw new Error(`GET /task/:id answered ${res.status}`);
  }
  return out.sort((a, b) => a - b);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-bench-files-'));
  await recreateDatabase(DB_URL);
  await flushRedis(REDIS_URL, PREFIX);
  const env = benchEnv({
    PORT: String(PORT),
    DATABASE_URL: DB_URL,
    REDIS_URL,
    QUEUE_PREFIX: PREFIX,
    STORAGE_DIR: path.join(dir, 'files'),
    MAX_ATTACHMENT_BYTES: String(BIG_MIB * MIB),
  });
  const api = startService('api', env);
  let worker;
  try {
    await waitFor('the API', async () => (await call('GET', '/health').catch(() => ({}))).status === 200);
    worker = startService('worker', { ...env, PORT: '0' });
    const signUp = await call('POST', '/auth/sign-up/email', { name: 'Bench', email: `bench-${Date.now()}@example.test`, password: 'benchmark-password' });
    const token = signUp.body.token;
    const ws = (await call('POST', '/auth/organization/create', { name: 'Bench files' }, token)).body;
    const project = (await call('POST', '/project', { name: 'Files', workspaceId: ws.id }, token)).body;
    const task = (await call('POST', `/task/${project.id}`, { title: 'Holds files' }, token)).body;
    const big = path.join(dir, 'big.bin');
    fs.writeFileSync(big, Buffer.alloc(BIG_MIB * MIB, 7));
    const small = path.join(dir, 'small.bin');
    fs.writeFileSync(small, Buffer.alloc(MIB, 3));

    // Warm up the routes, then let the heap settle.
    const warm = await upload(token, task.id, small, MIB);
    for (let i = 0; i < 20; i++) await request('GET', `${BASE}/asset/${warm.id}`, { headers: { authorization: `Bearer ${token}` } });
    await latencies(token, task.id, 100);
    await new Promise((r) => setTimeout(r, 1000));
    const idle = rssMb(api.pid);
    let bigAsset;
    const upPeak = await peakWhile(api.pid, async () => (bigAsset = await upload(token, task.id, big, BIG_MIB * MIB)));
    const downPeak = await peakWhile(api.pid, async () => {
      const res = await request('GET', `${BASE}/asset/${bigAsset.id}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.bytes !== BIG_MIB * MIB) throw new Error(`downloaded ${res.bytes} bytes`);
    });
    console.log(
      `API resident memory: idle ${idle} MB; peak while uploading ${BIG_MIB} MiB ${upPeak} MB (+${upPeak - idle}); while downloading it ${downPeak} MB (+${downPeak - idle})`,
    );

    const asset = await upload(token, task.id, small, MIB);
    const rows = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const alone = await latencies(token, task.id, REQUESTS);
      let running = true;
      let downloaded = 0;
      const loops = Array.from({ length: DOWNLOADS }, async () => {
        while (running) {
          const res = await request('GET', `${BASE}/asset/${asset.id}`, { headers: { authorization: `Bearer ${token}` } });
          if (res.bytes !== MIB) throw new Error(`downloaded ${res.bytes} bytes`);
          downloaded++;
        }
      });
      const started = Date.now();
      const loaded = await latencies(token, task.id, REQUESTS);
      const seconds = (Date.now() - started) / 1000;
      running = false;
      await Promise.all(loops);
      rows.push({ round, alone, loaded, rate: downloaded / seconds });
    }
    console.log(`GET /task/:id (${REQUESTS} in a row) alone and beside ${DOWNLOADS} concurrent 1 MiB downloads, ms:`);
    console.log('round | alone p50 | alone p95 | with downloads p50 | with downloads p95 | downloads/s');
    for (const r of rows) {
      console.log(
        `${r.round} | ${quantile(r.alone, 0.5).toFixed(2)} | ${quantile(r.alone, 0.95).toFixed(2)} | ${quantile(r.loaded, 0.5).toFixed(2)} | ${quantile(r.loaded, 0.95).toFixed(2)} | ${r.rate.toFixed(0)}`,
      );
    }
  } finally {
    await stopAll([worker, api]);
    agent.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
