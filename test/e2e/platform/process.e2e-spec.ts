import { randomBytes } from 'node:crypto';
import { dropRedisKeys, runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { launch } from '../../support/launcher';

/** The service as a real process, as `npm start` runs it. */

let t: TestApp;
beforeAll(async () => {
  // Only for its migrated database: the child processes below use it.
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const env = () => ({ DATABASE_URL: t.databaseUrl, DATABASE_POOL_SIZE: '3', QUEUE_PREFIX: `t_proc_${randomBytes(3).toString('hex')}`, PORT: '0' });

describe('the service process', () => {
  it('serves, and stops cleanly on SIGTERM (exit 0)', async () => {
    const e = { ...env(), APP_ROLES: 'api,worker' };
    const proc = await launch(e);
    try {
      const port = /on port (\d+)/.exec(proc.output())?.[1];
      expect(Number(port)).toBeGreaterThan(0);
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
      expect(proc.output()).toContain('Tandem started (api,worker)');
      expect(await proc.kill('SIGTERM')).toBe(0);
      expect(proc.output()).toContain('SIGTERM received, shutting down');
    } finally {
      await proc.kill('SIGKILL');
      await dropRedisKeys(runRedisUrl(), e.QUEUE_PREFIX);
    }
  });

  it('a worker-only process starts without a port and can be killed outright', async () => {
    const e = { ...env(), APP_ROLES: 'worker' };
    const proc = await launch(e);
    try {
      expect(proc.output()).toContain('Tandem started (worker)');
      expect(proc.output()).not.toMatch(/on port \d+/);
      expect(await proc.kill('SIGKILL')).toBe('SIGKILL');
    } finally {
      await dropRedisKeys(runRedisUrl(), e.QUEUE_PREFIX);
    }
  });
});
