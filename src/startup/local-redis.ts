import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { delimiter, join } from 'node:path';
import type { LocalServer } from './embedded-postgres';
import { answers, freePort, processAlive } from './net';
import { ServerExitedError, startServer } from './server-process';
import { StartupError } from './startup-error';

export interface LocalRedisOptions {
  /** Folder whose `redis/` subfolder holds the server's configuration, data (AOF), pid file and log. */
  dataDir: string;
  /** Default true: a random password (in redis/redis.conf); false: none (throwaway test servers). */
  password?: boolean;
  /** false: neither AOF nor snapshots (throwaway test servers). Default true. */
  durable?: boolean;
  /** The PATH searched for redis-server (default: the process's). */
  path?: string;
}

/** The first executable `name` on a PATH-like list, or null. */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      /* next */
    }
  }
  return null;
}

const resp = (...args: string[]) => `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;

/** Whether a Redis on loopback `port` answers PING (after AUTH with `password`): a raw exchange, so nothing is left behind. */
export function redisAnswersPing(port: number, password?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let received = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (/(^|\n)\+PONG\r\n/.test(received)) done(true);
      else if (/(^|\n)-/.test(received)) done(false); // LOADING, NOAUTH, WRONGPASS…
    });
    socket.connect(port, '127.0.0.1', () => socket.write((password ? resp('AUTH', password) : '') + resp('PING')));
  });
}

const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function confText(o: { dir: string; port: number; password?: string; durable: boolean }): string {
  return [
    '# Written by Tandem at each start of its local Redis (src/startup/local-redis.ts): edits are overwritten.',
    'bind 127.0.0.1',
    `port ${o.port}`,
    'protected-mode yes',
    'daemonize no',
    `dir ${quote(o.dir)}`,
    `pidfile ${quote(join(o.dir, 'redis.pid'))}`,
    'logfile ""',
    // Queued jobs must survive a restart, and BullMQ's keys must never be evicted.
    ...(o.durable ? ['appendonly yes', 'appendfsync everysec'] : ['appendonly no', 'save ""']),
    'maxmemory-policy noeviction',
    ...(o.password ? [`requirepass ${quote(o.password)}`] : []),
    '',
  ].join('\n');
}

/** port and password of the configuration file a previous start wrote. */
function previousConf(file: string): { port: number; password?: string } | null {
  try {
    const text = readFileSync(file, 'utf8');
    const port = Number(/^port (\d+)$/m.exec(text)?.[1]);
    const password = /^requirepass "((?:[^"\\]|\\.)*)"$/m.exec(text)?.[1]?.replace(/\\(.)/g, '$1');
    return port > 0 ? { port, password } : null;
  } catch {
    return null;
  }
}

function urlOf(port: number, password?: string): string {
  const u = new URL(`redis://127.0.0.1:${port}`);
  if (password) u.password = password;
  return u.toString().replace(/\/$/, '');
}

/** The redis-server that a Tandem process started from `<dataDir>/redis` and that still runs, if any. */
export async function runningLocalRedis(dataDir: string): Promise<{ url: string; pid: number } | null> {
  const dir = join(dataDir, 'redis');
  const previous = previousConf(join(dir, 'redis.conf'));
  if (!previous) return null;
  let pid = NaN;
  try {
    pid = Number(readFileSync(join(dir, 'redis.pid'), 'utf8').trim());
  } catch {
    return null; // removed by redis at a clean shutdown
  }
  if (!processAlive(pid) || !(await answers('127.0.0.1', previous.port)) || !(await redisAnswersPing(previous.port, previous.password))) return null;
  return { url: urlOf(previous.port, previous.password), pid };
}

/**
 * A redis-server from the PATH on a free loopback port, with its data (AOF) in `<dataDir>/redis`
 * and `maxmemory-policy noeviction`, as BullMQ needs. A server already running from that folder
 * (left by a process that was killed, or started by another Tandem process) is used as it is and
 * left running.
 */
export async function startLocalRedis(opts: LocalRedisOptions): Promise<LocalServer> {
  const binary = findOnPath('redis-server', opts.path);
  if (!binary) {
    throw new StartupError(
      'There is no redis-server on the PATH. Three ways forward:\n' +
        "  - install Redis with your system's package manager (apt install redis-server, dnf install redis, brew install redis, …) and start Tandem again;\n" +
        '  - set REDIS_URL=redis://host:port to use a Redis of your own;\n' +
        '  - or run docker compose up -d redis (it answers on 127.0.0.1:6379).',
    );
  }
  const dir = join(opts.dataDir, 'redis');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const confFile = join(dir, 'redis.conf');
  const durable = opts.durable ?? true;

  const already = await runningLocalRedis(opts.dataDir);
  if (already) return { ...already, owned: false, dataDir: dir, stop: async () => undefined };

  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const password = opts.password === false ? undefined : randomBytes(24).toString('base64url');
    writeFileSync(confFile, confText({ dir, port, password, durable }), { mode: 0o600 });
    try {
      const server = await startServer({
        name: 'The local Redis',
        command: binary,
        args: [confFile],
        logFile: join(dir, 'redis.log'),
        ready: () => redisAnswersPing(port, password),
        // Redis saves (AOF fsync) and exits on SIGTERM.
        stopSignal: 'SIGTERM',
      });
      return { url: urlOf(port, password), pid: server.child.pid!, owned: true, dataDir: dir, stop: () => server.stop() };
    } catch (err) {
      if (err instanceof ServerExitedError && /already in use|could not create server tcp listening socket/i.test(err.log) && attempt < 3) continue;
      if (err instanceof ServerExitedError) throw new StartupError(err.message);
      throw err;
    }
  }
}
