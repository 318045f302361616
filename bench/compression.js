#!/usr/bin/env node
// `npm run bench:compression`: what compressing a JSON answer costs and saves, to choose the size
// above which the service compresses (docs/benchmarks.md, "Compressed answers"). For answers of
// BENCH_SIZES bytes (a task list as the API writes it), it times gzip at zlib's default level and
// brotli at quality 4 (what the `compression` middleware uses) in this process, one core, and
// prints the CPU time per answer, the bytes saved, and what sending the uncompressed answer would
// take at 10 and 100 Mbit/s, the links a self-hosted service is usually reached over.
const zlib = require('node:zlib');

const SIZES = (process.env.BENCH_SIZES ?? '256,512,1024,2048,4096,16384,65536,262144,1048576').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 400);

/** A JSON task list of at least `bytes` bytes, with the field mix of GET /api/task/tasks. */
function taskList(bytes) {
  const tasks = [];
  let i = 0;
  while (JSON.stringify(tasks).length < bytes) {
    i++;
    tasks.push({
      id: `0b6f${String(i).padStart(4, '0')}-9c1d-4a8e-b1f2-${String(1000000 + i * 7919).padStart(12, '0')}`,
      projectId: '4d2c1a9e-7f3b-4c5d-8e6f-1a2b3c4d5e6f',
      number: i,
      title: `Task ${i}: ${['fix the login form', 'write the release notes', 'review the roadmap', 'migrate the board'][i % 4]}`,
      description: i % 3 ? null : `Steps to reproduce ${i}, what we expected and what happened.`,
      status: ['to-do', 'in-progress', 'in-review', 'done'][i % 4],
      priority: ['no-priority', 'low', 'medium', 'high', 'urgent'][i % 5],
      position: i,
      userId: i % 2 ? '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' : null,
      dueDate: i % 4 ? null : new Date(Date.UTC(2026, 11, 1 + (i % 28))).toISOString(),
      createdAt: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(),
    });
  }
  return Buffer.from(JSON.stringify(tasks).slice(0, bytes));
}

function time(fn) {
  for (let i = 0; i < 20; i++) fn();
  const start = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / ROUNDS;
}

const brotliParams = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
console.log(`Node ${process.version}, ${ROUNDS} rounds per size, CPU time per answer (user + system)`);
console.log('| answer | gzip µs | gzip bytes | brotli-4 µs | brotli bytes | 10 Mbit/s saved µs (gzip) | 100 Mbit/s saved µs (gzip) |');
console.log('|---:|---:|---:|---:|---:|---:|---:|');
for (const size of SIZES) {
  const body = taskList(size);
  const gz = zlib.gzipSync(body).length;
  const br = zlib.brotliCompressSync(body, brotliParams).length;
  const gzUs = time(() => zlib.gzipSync(body));
  const brUs = time(() => zlib.brotliCompressSync(body, brotliParams));
  const savedAt = (mbit) => (((body.length - gz) * 8) / (mbit * 1e6)) * 1e6;
  console.log(`| ${size} | ${gzUs.toFixed(0)} | ${gz} | ${brUs.toFixed(0)} | ${br} | ${savedAt(10).toFixed(0)} | ${savedAt(100).toFixed(0)} |`);
}
