// Shared by the benchmark scripts: the database they measure on, made fresh for each run.
const { Client } = require('pg');

/** Drops and creates the database of `dbUrl` (connected through the server's `postgres` database). */
async function recreateDatabase(dbUrl) {
  const u = new URL(dbUrl);
  const name = u.pathname.slice(1);
  u.pathname = '/postgres';
  const c = new Client({ connectionString: u.toString() });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
  } finally {
    await c.end();
  }
}

const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

/** The environment of a measured process: production mode, fresh keys, rate limits off, quiet logs. */
function benchEnv(overrides) {
  return {
    ...process.env,
    NODE_ENV: 'production',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    RATE_LIMIT_API: '0',
    RATE_LIMIT_AUTH: '0',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
    ...overrides,
  };
}

/**
 * Starts the built service (`root`/dist/main.js, this checkout's by default) in `role`; logs an exit that was not asked for. Its
 * standard output (the JSON log) goes to `$BENCH_SERVICE_LOG.<role>.log` when that is set.
 */
function startService(role, env, nodeArgs = [], root = path.join(__dirname, '..')) {
  const logFile = process.env.BENCH_SERVICE_LOG;
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'dist', 'main.js')], {
    env: { ...env, APP_ROLES: role },
    stdio: ['ignore', logFile ? fs.openSync(`${logFile}.${role}.log`, 'a') : 'ignore', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') console.error(`${role} process exited with ${code ?? signal}`);
  });
  return child;
}

/** Stops the children (SIGTERM) and waits for each to exit. */
async function stopAll(children) {
  for (const child of children.filter(Boolean)) {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
  }
}

/** Polls `check` every `everyMs` until it is true; throws naming `what` after `timeoutMs`. */
async function waitFor(what, check, timeoutMs = 60_000, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A JSON client of the API at `base` (e.g. http://127.0.0.1:3111/api): call(method, path, body?, token?). */
function jsonClient(base) {
  return async (method, p, body, token) => {
    const res = await fetch(base + p, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

/** Deletes the Redis keys of `prefix` (a run's queues), so each run starts from empty queues. */
async function flushRedis(redisUrl, prefix) {
  const Redis = require('ioredis');
  const redis = new Redis(redisUrl);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
}

/** Resident memory of process `pid` in MB, from /proc (Linux); null elsewhere. */
function rssMb(pid) {
  try {
    const line = require('node:fs')
      .readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Math.round(Number(line.split(/\s+/)[1]) / 1024);
  } catch {
    return null;
  }
}

/**
 * CPU time (ms) of process `pid` from /proc/<pid>/stat (Linux): its own user + system time, and
 * with `reaped` also that of the children it has waited for (fields 14 to 17 of stat, in clock
 * ticks, 100 per second). Throws when the process is gone or there is no /proc.
 */
function statCpuMs(pid, reaped = false) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0);
  return (ticks * 1000) / 100;
}

/** CPU time (user + system, ms) the process `pid` has used so far, from /proc (Linux); null elsewhere. */
function cpuMs(pid) {
  try {
    return statCpuMs(pid);
  } catch {
    return null;
  }
}

/**
 * CPU time (ms) used so far by every process of this machine whose command line starts with
 * `command` (all of Postgres: `postgres`), including the children they have reaped: a backend or
 * autovacuum worker that exits is counted in the server's children's time from then on.
 */
function commandCpuMs(command) {
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      // Backends name themselves (`postgres: …`); the server runs as …/bin/postgres.
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.startsWith(command) && path.basename(cmdline.split('\0')[0]) !== command) continue;
      total += statCpuMs(pid, true);
    } catch {
      continue; // gone meanwhile
    }
  }
  return total;
}

/**
 * The checkout of git revision `rev` in a worktree of its own under the system's temporary
 * directory (`tandem-bench-<what>-<sha>`), built with this checkout's node_modules, to measure
 * beside this build in the same sitting; returns `{name, root}` for startService.
 */
function buildBase(rev, what) {
  const { execFileSync } = require('node:child_process');
  const os = require('node:os');
  const here = path.join(__dirname, '..');
  const git = (...args) => execFileSync('git', args, { cwd: here, encoding: 'utf8' }).trim();
  const sha = git('rev-parse', '--short', rev);
  const dir = path.join(os.tmpdir(), `tandem-bench-${what}-${sha}`);
  if (!fs.existsSync(path.join(dir, 'dist', 'main.js'))) {
    if (!fs.existsSync(dir)) git('worktree', 'add', '--detach', dir, sha);
    if (!fs.existsSync(path.join(dir, 'node_modules'))) fs.symlinkSync(path.join(here, 'node_modules'), path.join(dir, 'node_modules'));
    console.log(`building ${sha} in ${dir}`);
    execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'inherit' });
  }
  return { name: sha, root: dir };
}

module.exports = { buildBase, recreateDatabase, benchEnv, startService, stopAll, waitFor, jsonClient, flushRedis, rssMb, cpuMs, commandCpuMs };
