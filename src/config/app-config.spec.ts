import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('has safe development defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/tandem');
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(c.roles).toEqual(['api', 'worker']);
    expect(c.encryptionKey).toHaveLength(32);
    expect(c.rateLimits).toEqual({ auth: 20, invites: 10, api: 6000 });
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
  });

  it('requires JWT_SECRET and ENCRYPTION_KEY in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET: is required[\s\S]*ENCRYPTION_KEY: is required/);
    const c = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) });
    expect(c.encryptionKey.equals(Buffer.from('ab'.repeat(32), 'hex'))).toBe(true);
  });

  it('parses roles, booleans and numbers', () => {
    const c = loadConfig({ APP_ROLES: ' worker ', DISABLE_REGISTRATION: 'true', RATE_LIMIT_API: '0', CORS_ORIGINS: 'https://a.example, https://b.example' });
    expect(c.roles).toEqual(['worker']);
    expect(c.disableRegistration).toBe(true);
    expect(c.rateLimits.api).toBe(0);
    expect(c.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
  });
});
