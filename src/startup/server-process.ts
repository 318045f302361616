import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

/** A server this process started and stops. */
export interface ServerProcess {
  readonly child: ChildProcess;
  /** Asks the server to stop (`stopSignal`) and resolves once it has exited (SIGKILL after 30 s). */
  stop(): Promise<void>;
}

export interface ServerSpec {
  /** For messages, e.g. "the embedded Postgres". */
  name: string;
  command: string;
  args: string[];
  /** The server's own output goes here (truncated at each start); its tail explains a failed start. */
  logFile: string;
  uid?: number;
  gid?: number;
  env?: NodeJS.ProcessEnv;
  /** Resolves true once the server serves. */
  ready: () => Promise<boolean>;
  stopSignal: NodeJS.Signals;
  timeoutMs?: number;
}

export class ServerExitedError extends Error {
  constructor(
    readonly spec: ServerSpec,
    readonly log: string,
  ) {
    super(`${spec.name} stopped before it was ready. Its last output (${spec.logFile}):\n${log}`);
  }
}

/** The last lines of a log file, for an error message. */
export function logTail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(-lines)
      .map((l) => `  ${l}`)
      .join('\n');
  } catch {
    return '  (no output)';
  }
}

/**
 * Starts a server process and waits until `ready` says it serves. The server runs in its own
 * process group, so a Ctrl-C meant for the service does not stop it before the service has
 * finished with it: the service stops it last (stop()); if the service exits without doing so,
 * it is signalled on the way out. Its output goes straight to `logFile`, not through this process.
 */
export async function startServer(spec: ServerSpec): Promise<ServerProcess> {
  const fd = openSync(spec.logFile, 'w', 0o600);
  let child: ChildProcess;
  try {
    child = spawn(spec.command, spec.args, {
      uid: spec.uid,
      gid: spec.gid,
      env: spec.env ?? process.env,
      detached: true,
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exit.then(() => (exited = true));
  let spawnError: Error | null = null; // e.g. ENOENT, EACCES: the command could not run at all
  child.once('error', (err) => (spawnError = err));
  const signalOnExit = () => {
    if (!exited) child.kill(spec.stopSignal);
  };
  process.on('exit', signalOnExit);

  const stop = async () => {
    process.off('exit', signalOnExit);
    if (exited || spawnError) return;
    child.kill(spec.stopSignal);
    const force = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exit;
    clearTimeout(force);
  };

  const deadline = Date.now() + (spec.timeoutMs ?? 60_000);
  for (;;) {
    if (spawnError) {
      process.off('exit', signalOnExit);
      throw spawnError;
    }
    if (exited) {
      process.off('exit', signalOnExit);
      throw new ServerExitedError(spec, logTail(spec.logFile));
    }
    if (await spec.ready()) return { child, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${spec.name} did not become ready within ${Math.round((spec.timeoutMs ?? 60_000) / 1000)} s. Its last output (${spec.logFile}):\n${logTail(spec.logFile)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
