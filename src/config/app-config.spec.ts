import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';
import { developmentSecrets } from './dev-secrets';
import { QUEUE_NAMES, QueueName, QUEUES } from '../queue/queues';

describe('loadConfig', () => {
  it('has safe development defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/tandem');
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(c.roles).toEqual(['api', 'worker']);
    expect(c.encryptionKey).toHaveLength(32);
    expect(c.rateLimits).toEqual({ auth: 20, invites: 10, api: 6000, signInFailures: 10 });
    expect(c.outboxPollMs).toBe(2000);
    expect(c.customOAuth.scopes).toBe('openid email profile');
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.smtp)).toBe(true);
  });

  it('names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', APP_ROLES: 'api,cron', RATE_LIMIT_AUTH: '-1' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', APP_ROLES: 'api,cron', RATE_LIMIT_AUTH: '-1' });
    } catch (e: any) {
      expect(e.message).toContain('PORT');
      expect(e.message).toContain('APP_ROLES');
      expect(e.message).toContain('RATE_LIMIT_AUTH');
      expect(e.message).not.toContain('DATABASE_URL');
    }
  });

  it('rejects malformed keys and URLs', () => {
    expect(() => loadConfig({ ENCRYPTION_KEY: 'short' })).toThrow(/ENCRYPTION_KEY/);
    expect(() => loadConfig({ JWT_SECRET: 'too-short' })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ ALLOW_PRIVATE_DESTINATIONS: 'maybe' })).toThrow(/ALLOW_PRIVATE_DESTINATIONS/);
    expect(() => loadConfig({ OUTBOX_POLL_MS: '10' })).toThrow(/OUTBOX_POLL_MS/);
    expect(loadConfig({ OUTBOX_POLL_MS: '600000' }).outboxPollMs).toBe(600_000);
  });

  it('keeps the heap within 1.5 times its live size unless told otherwise', () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(50);
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: '301' })).toThrow(/HEAP_GROWTH_PERCENT/);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: '-1' })).toThrow(/HEAP_GROWTH_PERCENT/);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: 'lots' })).toThrow(/HEAP_GROWTH_PERCENT/);
  });

  it('requires JWT_SECRET and ENCRYPTION_KEY in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET: is required[\s\S]*ENCRYPTION_KEY: is required/);
    const c = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) });
    expect(c.encryptionKey.equals(Buffer.from('ab'.repeat(32), 'hex'))).toBe(true);
  });

  it('ENCRYPTION_KEY_PREVIOUS: optional, the same format as ENCRYPTION_KEY', () => {
    expect(loadConfig({}).encryptionKeyPrevious).toBeUndefined();
    const c = loadConfig({ ENCRYPTION_KEY: 'ab'.repeat(32), ENCRYPTION_KEY_PREVIOUS: Buffer.alloc(32, 7).toString('base64') });
    expect(c.encryptionKeyPrevious!.equals(Buffer.alloc(32, 7))).toBe(true);
    expect(loadConfig({ ENCRYPTION_KEY_PREVIOUS: 'cd'.repeat(32) }).encryptionKeyPrevious!.equals(Buffer.from('cd'.repeat(32), 'hex'))).toBe(true);
    expect(() => loadConfig({ ENCRYPTION_KEY_PREVIOUS: 'ab'.repeat(16) })).toThrow(/ENCRYPTION_KEY_PREVIOUS: must be 32 bytes/);
  });

  it('QUEUE_CONCURRENCY: queue=count pairs over the defaults of src/queue/queues.ts; bad names or counts stop start-up', () => {
    const defaults = loadConfig({}).queueConcurrency;
    expect(defaults).toEqual(Object.fromEntries(QUEUE_NAMES.map((q) => [q, QUEUES[q].concurrency])));
    expect(Object.isFrozen(defaults)).toBe(true);
    const c = loadConfig({ QUEUE_CONCURRENCY: ' deliver-generic-webhook=64, email = 1 ' }).queueConcurrency;
    expect(c).toEqual({ ...defaults, ['deliver-generic-webhook']: 64, [QueueName.Email]: 1 });
    expect(() => loadConfig({ QUEUE_CONCURRENCY: 'emails=4' })).toThrow(/QUEUE_CONCURRENCY: unknown queue "emails" \(queues: email, task-events/);
    expect(() => loadConfig({ QUEUE_CONCURRENCY: 'email=0' })).toThrow('QUEUE_CONCURRENCY: email=0: the count must be a whole number from 1 to 1000');
    expect(() => loadConfig({ QUEUE_CONCURRENCY: 'email=-2' })).toThrow(/email=-2: the count must be a whole number/);
    expect(() => loadConfig({ QUEUE_CONCURRENCY: 'email=2.5' })).toThrow(/email=2.5: the count must be a whole number/);
    expect(() => loadConfig({ QUEUE_CONCURRENCY: 'email=1001' })).toThrow(/email=1001/);
    expect(() => loadConfig({ QUEUE_CONCURRENCY: 'email' })).toThrow(/"email" is not queue=count/);
    expect(() => loadConfig({ QUEUE_CONCURRENCY: 'email=2,email=3' })).toThrow(/"email" is given twice/);
  });

  it('parses roles, booleans and numbers', () => {
    const c = loadConfig({ APP_ROLES: ' worker ', DISABLE_REGISTRATION: 'true', RATE_LIMIT_API: '0', CORS_ORIGINS: 'https://a.example, https://b.example' });
    expect(c.roles).toEqual(['worker']);
    expect(c.disableRegistration).toBe(true);
    expect(c.rateLimits.api).toBe(0);
    expect(c.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
  });
});

describe('security settings', () => {
  it('CORS: the origin of CLIENT_URL by default, a list of origins, or * ; anything else stops start-up', () => {
    // CLIENT_URL defaults to PUBLIC_API_URL: the service serves its own web app.
    expect(loadConfig({}).corsOrigins).toEqual(['http://localhost:3000']);
    expect(loadConfig({ PUBLIC_API_URL: 'https://tandem.example.com/' })).toMatchObject({ clientUrl: 'https://tandem.example.com', corsOrigins: ['https://tandem.example.com'] });
    expect(loadConfig({ CLIENT_URL: 'https://app.example.com/some/path/' }).corsOrigins).toEqual(['https://app.example.com']);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example:8443,http://b.example' }).corsOrigins).toEqual(['https://a.example:8443', 'http://b.example']);
    expect(loadConfig({ CORS_ORIGINS: ' * ' }).corsOrigins).toBe('*');
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/path' })).toThrow(/CORS_ORIGINS: "https:\/\/a.example\/path" is not an origin/);
    expect(() => loadConfig({ CORS_ORIGINS: 'a.example' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ CORS_ORIGINS: 'ftp://a.example' })).toThrow(/CORS_ORIGINS/);
  });

  it('TRUST_PROXY: nobody by default; named addresses and ranges; never "true" or a hop count', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toBe('127.0.0.1');
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback, ::1, fd00::/8' }).trustProxy).toBe('10.0.0.0/8,loopback,::1,fd00::/8');
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: "true" would believe X-Forwarded-For from any peer/);
    expect(() => loadConfig({ TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY: "2" would believe X-Forwarded-For from any peer; name the proxies/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY: "10.0.0.0\/33" is not false, an address/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY/);
  });

  it('RATE_LIMIT_SIGN_IN_FAILURES: 10 by default, 0 turns it off, a whole number up to 1000', () => {
    expect(loadConfig({}).rateLimits.signInFailures).toBe(10);
    expect(loadConfig({ RATE_LIMIT_SIGN_IN_FAILURES: '0' }).rateLimits.signInFailures).toBe(0);
    expect(() => loadConfig({ RATE_LIMIT_SIGN_IN_FAILURES: 'many' })).toThrow(/RATE_LIMIT_SIGN_IN_FAILURES/);
    expect(() => loadConfig({ RATE_LIMIT_SIGN_IN_FAILURES: '1001' })).toThrow(/RATE_LIMIT_SIGN_IN_FAILURES/);
  });

  it('without JWT_SECRET / ENCRYPTION_KEY, values are random, never the old public constants', () => {
    const c = loadConfig({});
    const oldJwt = createHash('sha256').update('tandem-development-only-jwt').digest('hex');
    const oldKey = createHash('sha256').update('tandem-development-only-encryption').digest();
    expect(c.jwtSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(c.jwtSecret).not.toBe(oldJwt);
    expect(c.encryptionKey.equals(oldKey)).toBe(false);
    // Stable within one process, so an API and a worker started together agree.
    expect(loadConfig({}).jwtSecret).toBe(c.jwtSecret);
  });
});

describe('developmentSecrets', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates both once into <data dir>/secrets.json with mode 0600 and reuses them', () => {
    const first = developmentSecrets({ TANDEM_DATA_DIR: dir });
    expect(first.env.JWT_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(first.env.ENCRYPTION_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(first.notice).toContain(join(dir, 'secrets.json'));
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    const again = developmentSecrets({ TANDEM_DATA_DIR: dir });
    expect(again.env).toEqual(first.env);
    expect(loadConfig({ ...first.env }).jwtSecret).toBe(first.env.JWT_SECRET);
    // Another folder, other values.
    const other = mkdtempSync(join(tmpdir(), 'tandem-secrets-'));
    try {
      expect(developmentSecrets({ TANDEM_DATA_DIR: other }).env.JWT_SECRET).not.toBe(first.env.JWT_SECRET);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('fills only what is missing, and nothing in production', () => {
    const onlyKey = developmentSecrets({ TANDEM_DATA_DIR: dir, JWT_SECRET: 'x'.repeat(40) });
    expect(Object.keys(onlyKey.env)).toEqual(['ENCRYPTION_KEY']);
    expect(developmentSecrets({ TANDEM_DATA_DIR: dir, JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) })).toEqual({ env: {}, notice: null });
    const prodDir = join(dir, 'prod');
    expect(developmentSecrets({ TANDEM_DATA_DIR: prodDir, NODE_ENV: 'production' })).toEqual({ env: {}, notice: null });
    expect(existsSync(prodDir)).toBe(false);
  });

  it('replaces a malformed stored value, and refuses an unreadable file with a clear message', () => {
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ JWT_SECRET: 'short', ENCRYPTION_KEY: 'cd'.repeat(32) }));
    const fixed = developmentSecrets({ TANDEM_DATA_DIR: dir });
    expect(fixed.env.ENCRYPTION_KEY).toBe('cd'.repeat(32));
    expect(fixed.env.JWT_SECRET).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(join(dir, 'secrets.json'), '{not json');
    expect(() => developmentSecrets({ TANDEM_DATA_DIR: dir })).toThrow(/Cannot read .*secrets\.json.*delete it/);
  });
});
