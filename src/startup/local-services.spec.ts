import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ConfigError, loadConfig } from '../config/app-config';
import { embeddedPostgresBinaries, restoreLibraryLinks } from './embedded-postgres';
import { startLocalServices } from './local-services';
import { findOnPath } from './local-redis';
import { addressOf, freePort, maskPassword } from './net';

describe('default addresses (config)', () => {
  it('DATABASE_URL / REDIS_URL unset: the defaults, marked as such, at TANDEM_DEFAULT_* when given', () => {
    const c = loadConfig({});
    expect(c.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/tandem');
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(c.unsetUrls).toEqual({ database: true, redis: true });
    expect(c.dataDir).toBe(join(process.cwd(), '.tandem'));
    const moved = loadConfig({ TANDEM_DEFAULT_POSTGRES: '127.0.0.1:15432', TANDEM_DEFAULT_REDIS: 'localhost:16379', TANDEM_DATA_DIR: '/var/lib/tandem' });
    expect(moved.databaseUrl).toBe('postgres://postgres@127.0.0.1:15432/tandem');
    expect(moved.redisUrl).toBe('redis://localhost:16379');
    expect(moved.dataDir).toBe('/var/lib/tandem');
    const set = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/x', REDIS_URL: 'redis://r:6379', TANDEM_DEFAULT_POSTGRES: '127.0.0.1:1' });
    expect(set.databaseUrl).toBe('postgres://u@db:5432/x');
    expect(set.unsetUrls).toEqual({ database: false, redis: false });
  });

  it('TANDEM_DEFAULT_* must be host:port', () => {
    expect(() => loadConfig({ TANDEM_DEFAULT_POSTGRES: 'postgres://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ TANDEM_DEFAULT_REDIS: '6379' })).toThrow(/TANDEM_DEFAULT_REDIS: must be host:port/);
  });
});

describe('startLocalServices decides without starting anything', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tandem-local-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('set variables are never replaced, even when nothing answers there', async () => {
    const [pgPort, redisPort] = [await freePort(), await freePort()];
    const config = loadConfig({ DATABASE_URL: `postgres://postgres:hunter2@127.0.0.1:${pgPort}/x`, REDIS_URL: `redis://:s3cret@127.0.0.1:${redisPort}`, TANDEM_DATA_DIR: dir });
    const local = await startLocalServices(config);
    expect(local.config.databaseUrl).toBe(config.databaseUrl);
    expect(local.config.redisUrl).toBe(config.redisUrl);
    // One line per server, its origin said, its password masked.
    expect(local.notices).toEqual([
      `Postgres: postgres://postgres:***@127.0.0.1:${pgPort}/x (set by DATABASE_URL)`,
      `Redis: redis://:***@127.0.0.1:${redisPort} (set by REDIS_URL)`,
    ]);
    expect(existsSync(join(dir, 'postgres'))).toBe(false);
  });

  it('in production nothing is started in place of the defaults', async () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(32),
      ENCRYPTION_KEY: 'a'.repeat(64),
      TANDEM_DEFAULT_POSTGRES: `127.0.0.1:${await freePort()}`,
      TANDEM_DEFAULT_REDIS: `127.0.0.1:${await freePort()}`,
      TANDEM_DATA_DIR: dir,
    });
    const local = await startLocalServices(config);
    expect(local.config.databaseUrl).toBe(config.databaseUrl);
    // (checkServices then stops start-up: nothing answers at the defaults.)
    expect(local.notices).toEqual([
      `Postgres: ${config.databaseUrl} (found at the default address; DATABASE_URL is not set)`,
      `Redis: ${config.redisUrl} (found at the default address; REDIS_URL is not set)`,
    ]);
    expect(existsSync(join(dir, 'postgres'))).toBe(false);
    expect(existsSync(join(dir, 'redis'))).toBe(false);
  });
});

describe('helpers', () => {
  it('addressOf fills in default ports; maskPassword hides only the password', () => {
    expect(addressOf('postgres://u:p@db.example/x').text).toBe('db.example:5432');
    expect(addressOf('redis://cache').text).toBe('cache:6379');
    expect(addressOf('redis://[::1]:7000').host).toBe('::1');
    expect(maskPassword('postgres://user:s3cret@h:1/db')).toBe('postgres://user:***@h:1/db');
    expect(maskPassword('redis://h:1')).toBe('redis://h:1');
  });

  it('findOnPath finds executables only', () => {
    expect(findOnPath('sh', '/nonexistent:/bin:/usr/bin')).toMatch(/\/sh$/);
    expect(findOnPath('tandem-no-such-binary', '/bin:/usr/bin')).toBeNull();
    expect(findOnPath('sh', '')).toBeNull();
  });
});

describe('restoreLibraryLinks', () => {
  it('makes the library links an npm without install scripts left out, and keeps existing ones', () => {
    const pkg = mkdtempSync(join(tmpdir(), 'tandem-links-'));
    try {
      const native = join(pkg, 'native');
      mkdirSync(join(native, 'lib'), { recursive: true });
      writeFileSync(join(native, 'lib', 'libpq.so.5.17'), 'library');
      writeFileSync(join(native, 'lib', 'libz.so'), 'kept');
      writeFileSync(
        join(native, 'pg-symlinks.json'),
        JSON.stringify([
          { source: 'native/lib/libpq.so.5.17', target: 'native/lib/libpq.so.5' },
          { source: 'native/lib/libpq.so.5.17', target: 'native/lib/libz.so' },
        ]),
      );
      restoreLibraryLinks(native);
      expect(readlinkSync(join(native, 'lib', 'libpq.so.5'))).toBe('libpq.so.5.17');
      expect(readFileSync(join(native, 'lib', 'libpq.so.5'), 'utf8')).toBe('library');
      expect(readFileSync(join(native, 'lib', 'libz.so'), 'utf8')).toBe('kept');
    } finally {
      rmSync(pkg, { recursive: true, force: true });
    }
  });

  it('the installed package has every link it lists', () => {
    const bins = embeddedPostgresBinaries();
    expect(bins?.major).toBe('17');
    const native = join(dirname(bins!.initdb), '..');
    const links: Array<{ target: string }> = JSON.parse(readFileSync(join(native, 'pg-symlinks.json'), 'utf8'));
    for (const { target } of links) expect(existsSync(join(native, '..', target))).toBe(true);
  });
});
