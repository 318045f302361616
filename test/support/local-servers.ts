import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalServer, startEmbeddedPostgres } from '../../src/startup/embedded-postgres';
import { startLocalRedis } from '../../src/startup/local-redis';
import { answers } from '../../src/startup/net';
import { StartupError } from '../../src/startup/startup-error';

interface Started {
  server: LocalServer;
  dir: string;
}

/** Kept between the global setup and the global teardown, which run in the same process. */
const HANDLE = Symbol.for('tandem.test.local-servers');
const holder = globalThis as unknown as { [HANDLE]?: Started[] };

function hostPort(address: string): [string, number] {
  const i = address.lastIndexOf(':');
  return [address.slice(0, i), Number(address.slice(i + 1))];
}

const say = (line: string) => process.stderr.write(`\n[tests] ${line}\n`);

/**
 * `npm test` on a machine where no Postgres or Redis runs: when TEST_DATABASE_ADMIN_URL is not set
 * and nothing answers at 127.0.0.1:5432 (TANDEM_DEFAULT_POSTGRES moves that address), the run
 * starts an embedded Postgres of its own; when REDIS_URL is not set and nothing answers at
 * 127.0.0.1:6379 (TANDEM_DEFAULT_REDIS), a redis-server from the PATH. Both are throwaway: a
 * temporary folder, no fsync, no password; the global teardown stops them. The variables are set
 * here, in Jest's main process, so the test workers (started after the global setup) use them.
 * Where the servers answer (CI, a developer's machine), nothing is started.
 */
export async function startTestServers(): Promise<void> {
  const started: Started[] = (holder[HANDLE] ??= []);
  try {
    if (!process.env.TEST_DATABASE_ADMIN_URL) {
      const address = process.env.TANDEM_DEFAULT_POSTGRES ?? '127.0.0.1:5432';
      if (!(await answers(...hostPort(address)))) {
        const dir = mkdtempSync(join(tmpdir(), 'tandem-test-pg-'));
        const server = await startEmbeddedPostgres({ dataDir: dir, database: 'postgres', auth: 'trust', durable: false }).catch((err) => {
          rmSync(dir, { recursive: true, force: true });
          throw err instanceof StartupError
            ? new StartupError(`TEST_DATABASE_ADMIN_URL is not set and no Postgres answers at ${address}, so the tests try to start an embedded Postgres. ${err.message}`)
            : err;
        });
        started.push({ server, dir });
        process.env.TEST_DATABASE_ADMIN_URL = server.url;
        say(`no Postgres answers at ${address}: this run uses an embedded Postgres at ${server.url} (set TEST_DATABASE_ADMIN_URL to use another)`);
      } else if (process.env.TANDEM_DEFAULT_POSTGRES) {
        process.env.TEST_DATABASE_ADMIN_URL = `postgres://postgres@${address}/postgres`;
      }
    }
    if (!process.env.REDIS_URL) {
      const address = process.env.TANDEM_DEFAULT_REDIS ?? '127.0.0.1:6379';
      if (!(await answers(...hostPort(address)))) {
        const dir = mkdtempSync(join(tmpdir(), 'tandem-test-redis-'));
        const server = await startLocalRedis({ dataDir: dir, password: false, durable: false }).catch((err) => {
          rmSync(dir, { recursive: true, force: true });
          throw err instanceof StartupError
            ? new StartupError(`REDIS_URL is not set and no Redis answers at ${address}, so the tests try to start a local redis-server. ${err.message}`)
            : err;
        });
        started.push({ server, dir });
        process.env.REDIS_URL = server.url;
        say(`no Redis answers at ${address}: this run uses a local redis-server at ${server.url} (set REDIS_URL to use another)`);
      } else if (process.env.TANDEM_DEFAULT_REDIS) {
        process.env.REDIS_URL = `redis://${address}`;
      }
    }
  } catch (err) {
    await stopTestServers();
    throw err;
  }
}

/** Stops what startTestServers started and removes its folders. */
export async function stopTestServers(): Promise<void> {
  const started = holder[HANDLE] ?? [];
  holder[HANDLE] = [];
  for (const { server, dir } of started.reverse()) {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
