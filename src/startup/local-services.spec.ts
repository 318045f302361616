import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config/app-config';
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
    const config = loadConfig({ DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/x`, REDIS_URL: `redis://127.0.0.1:${await freePort()}`, TANDEM_DATA_DIR: dir });
    const local = await startLocalServices(config);
    expect(local.config.databaseUrl).toBe(config.databaseUrl);
    expect(local.config.redisUrl).toBe(config.redisUrl);
    expect(local.notices).toEqual([]);
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
    expect(local.notices).toEqual([]);
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
