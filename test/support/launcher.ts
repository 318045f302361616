import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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

/**
 * Runs the service (API and/or worker, as `env.APP_ROLES` says) as a child process a test can
 * kill, e.g. to prove that a worker killed mid-way loses nothing. Resolves once the process says
 * it started.
 */
export async function launch(env: Record<string, string>, timeoutMs = 30_000): Promise<Launched> {
  const child = spawn(process.execPath, [builtMain()], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      // Explicit secrets, so the process writes no development secrets file.
      JWT_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  let gone = false;
  void exited.then(() => (gone = true));
  await until(
    'the service to start',
    () => {
      if (gone) throw new Error(`the service exited before starting:\n${out}`);
      return out.includes('Tandem started');
    },
    timeoutMs,
  );
  return {
    child,
    output: () => out,
    exited,
    kill: (signal = 'SIGTERM') => {
      if (!gone) child.kill(signal);
      return exited;
    },
  };
}
