import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runRedisUrl } from './app';
import { until } from './until';

const ROOT = join(__dirname, '../..');

/**
 * The service compiled once per test run into `.tmp/dist-<run>` (swc, a few seconds), so tests
 * can run it as a real process: `npm start` minus the build.
 */
export function builtMain(): string {
  const dir = join(ROOT, '.tmp', `dist-${process.env.TANDEM_TEST_RUN ?? 'local'}`);
  const main = join(dir, 'main.js');
  if (!existsSync(main)) {
    execFileSync(join(ROOT, 'node_modules/.bin/swc'), ['src', '-d', dir, '--strip-leading-paths', '--copy-files', '-q'], { cwd: ROOT, stdio: 'pipe' });
  }
  return main;
}

export interface Launched {
  child: ChildProcess;
  /** Everything the process printed (JSON log lines). */
  output(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): Promise<number | string>;
}

/** The child's environment: the launcher's defaults, then `env`; an `undefined` value removes the variable. */
function childEnv(env: Record<string, string | undefined>): Record<string, string> {
  const merged: Record<string, string | undefined> = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    // Explicit secrets, so the process writes no development secrets file.
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    // The run's Redis (the global setup may have started one: test/support/local-servers.ts).
    REDIS_URL: process.env.REDIS_URL,
    ...env,
  };
  return Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined));
}

function spawnService(env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, [builtMain()], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { child, output: () => out, exited };
}

/**
 * Runs the service (API and/or worker, as `env.APP_ROLES` says) as a child process a test can
 * kill, e.g. to prove that a worker killed mid-way loses nothing. Resolves once the process says
 * it started.
 */
export async function launch(env: Record<string, string | undefined>, timeoutMs = 30_000): Promise<Launched> {
  const { child, output, exited } = spawnService(env);
  let gone = false;
  void exited.then(() => (gone = true));
  try {
    await until(
      'the service to start',
      () => {
        if (gone) throw new Error(`the service exited before starting:\n${output()}`);
        return output().includes('Tandem started');
      },
      timeoutMs,
    );
  } catch (err) {
    if (!gone) child.kill('SIGKILL');
    throw err;
  }
  return {
    child,
    output,
    exited,
    kill: (signal = 'SIGTERM') => {
      if (!gone) child.kill(signal);
      return exited;
    },
  };
}

/**
 * A worker process of the installation `api` belongs to (its database and queues, with
 * `encryptionKey`), as a test can kill it; `env` adds or overrides settings.
 */
export function launchWorker(api: { databaseUrl: string; queuePrefix: string }, encryptionKey: string, env: Record<string, string | undefined> = {}): Promise<Launched> {
  return launch({
    APP_ROLES: 'worker',
    DATABASE_URL: api.databaseUrl,
    DATABASE_POOL_SIZE: '4',
    QUEUE_PREFIX: api.queuePrefix,
    REDIS_URL: runRedisUrl(),
    ENCRYPTION_KEY: encryptionKey,
    OUTBOX_POLL_MS: '500',
    ...env,
  });
}

/** Runs the service and waits for it to exit by itself (a start-up that must fail): its exit code and output. */
export async function runUntilExit(env: Record<string, string | undefined>, timeoutMs = 30_000): Promise<{ code: number | string; output: string }> {
  const { child, output, exited } = spawnService(env);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    const code = await exited;
    return { code, output: output() };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The service as one process (API and worker) on an existing database (e.g. a test app's, made
 * only for its migrated database) with its own Redis prefix and `LOG_LEVEL`: the launched process
 * and the base URL of its API (`http://127.0.0.1:<port>/api`).
 */
export async function launchApi(
  databaseUrl: string,
  queuePrefix: string,
  logLevel: string,
  env: Record<string, string | undefined>,
): Promise<{ service: Launched; apiUrl: string }> {
  const service = await launch({ APP_ROLES: 'api,worker', PORT: '0', DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '4', QUEUE_PREFIX: queuePrefix, LOG_LEVEL: logLevel, ...env });
  const port = /on port (\d+)/.exec(service.output())![1];
  return { service, apiUrl: `http://127.0.0.1:${port}/api` };
}
