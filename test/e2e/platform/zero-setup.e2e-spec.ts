import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { runningEmbeddedPostgres } from '../../../src/startup/embedded-postgres';
import { runningLocalRedis } from '../../../src/startup/local-redis';
import { answers, freePort, processAlive } from '../../../src/startup/net';
import { Api } from '../../support/api';
import { launch, Launched } from '../../support/launcher';
import { until } from '../../support/until';

/**
 * `npm start` on a machine with nothing configured (README, "Run it"): DATABASE_URL and REDIS_URL
 * unset, and the default addresses the service probes pointed at free ports
 * (TANDEM_DEFAULT_POSTGRES / TANDEM_DEFAULT_REDIS), so it finds nothing there and starts an
 * embedded Postgres and a local redis-server with their data in TANDEM_DATA_DIR.
 */

// The same secrets for every start, so a session made before a restart is still valid after it.
const secrets = { JWT_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('hex') };
let dataDir: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tandem-zero-setup-'));
  env = {
    ...secrets,
    DATABASE_URL: undefined,
    REDIS_URL: undefined,
    TANDEM_DATA_DIR: dataDir,
    TANDEM_DEFAULT_POSTGRES: `127.0.0.1:${await freePort()}`,
    TANDEM_DEFAULT_REDIS: `127.0.0.1:${await freePort()}`,
    APP_ROLES: 'api,worker',
    PORT: '0',
  };
});

/** Stops the local servers that a killed service (or a failed test) left running in the data folder. */
async function stopLeftServers(): Promise<void> {
  const pg = await runningEmbeddedPostgres(dataDir);
  if (pg) process.kill(pg.pid, 'SIGINT');
  const redis = await runningLocalRedis(dataDir);
  if (redis) process.kill(redis.pid, 'SIGTERM');
  await until('the local servers to stop', () => (!pg || !processAlive(pg.pid)) && (!redis || !processAlive(redis.pid)), 30_000);
}

afterAll(async () => {
  await stopLeftServers();
  rmSync(dataDir, { recursive: true, force: true });
});

const apiOf = (proc: Launched) => new Api(`http://127.0.0.1:${/on port (\d+)/.exec(proc.output())![1]}/api`);
const pidIn = (output: string, what: RegExp) => Number(new RegExp(`${what.source}[^\\n]*?, pid (\\d+)`).exec(output)?.[1]);

/** Logs from the local servers' notices: `{ pg, redis }` pids, and whether this start created the cluster. */
function notices(output: string) {
  return {
    pg: pidIn(output, /DATABASE_URL is not set and no Postgres answers at 127\.0\.0\.1:\d+: using the embedded Postgres/),
    redis: pidIn(output, /REDIS_URL is not set and no Redis answers at 127\.0\.0\.1:\d+: using the local redis-server/),
  };
}

describe('npm start with nothing configured', () => {
  let token: string;
  let taskId: string;
  let marker: string;
  /**
   * The first start on the empty data folder, which the other tests build on: whichever test runs
   * first (the order is random with --randomize) makes it happen, once.
   */
  let firstStart: Promise<void> | undefined;
  const afterFirstStart = () => (firstStart ??= startOnEmptyFolder());

  it('starts an embedded Postgres and a local Redis, serves the README walk, and stops both with itself', async () => {
    await afterFirstStart();
  }, 180_000);

  async function startOnEmptyFolder(): Promise<void> {
    const proc = await launch(env, 120_000);
    try {
      const out = proc.output();
      expect(out).toContain(`created an embedded Postgres 17 cluster in ${dataDir}/postgres`);
      expect(out).toMatch(
        /using the embedded Postgres it started \(postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/tandem, pid \d+, data in [^)]*, stopped with the service\)\. Set DATABASE_URL to use your own Postgres\./,
      );
      expect(out).toMatch(
        /using the local redis-server it started \(redis:\/\/:\*\*\*@127\.0\.0\.1:\d+, pid \d+, data in [^)]*, stopped with the service\)\. Set REDIS_URL to use your own Redis\./,
      );
      // The generated passwords are never logged.
      const pgPassword = JSON.parse(readFileSync(join(dataDir, 'postgres.json'), 'utf8')).password;
      const redisPassword = /^requirepass "(.*)"$/m.exec(readFileSync(join(dataDir, 'redis', 'redis.conf'), 'utf8'))![1];
      expect(pgPassword.length).toBeGreaterThanOrEqual(24);
      expect(out).not.toContain(pgPassword);
      expect(out).not.toContain(redisPassword);
      const { pg, redis } = notices(out);
      expect(processAlive(pg)).toBe(true);
      expect(processAlive(redis)).toBe(true);

      const api = apiOf(proc);
      const health = await api.get('/health');
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' }, redis: { mode: 'single' } });

      // The README's walk: sign up, a workspace, an API key, a project, a task, its status, search, activity.
      const signUp = await api.post('/auth/sign-up/email', { name: 'Ada', email: 'ada@example.com', password: 'correct horse' });
      expect(signUp.status).toBe(200);
      token = signUp.body.token;
      const ws = await api.post('/auth/organization/create', { name: 'Acme' }, token);
      expect(ws.status).toBe(200);
      expect((await api.get('/auth/organization/list', token)).body.map((w: any) => w.id)).toEqual([ws.body.id]);
      const key = await api.post('/auth/api-key/create', { name: 'ci', permissions: { task: ['read', 'update'] } }, token);
      expect(key.status).toBe(200);
      expect(key.body.key).toMatch(/^tdm_/);
      const project = await api.post('/project', { name: 'Backend API', slug: 'API', workspaceId: ws.body.id }, token);
      expect(project.status).toBe(200);
      const task = await api.post(`/task/${project.body.id}`, { title: 'Rate-limit the login', priority: 'high' }, token);
      expect(task.status).toBe(200);
      expect(task.body.number).toBe(1);
      taskId = task.body.id;
      const moved = await api.put(`/task/status/${taskId}`, { status: 'in-progress' }, token);
      expect(moved.status).toBe(200);
      expect(moved.body.status).toBe('in-progress');
      // Search runs on pg_trgm indexes, which the embedded Postgres has.
      const found = await api.get('/search?q=API-1', token);
      expect(found.body.tasks.map((x: any) => x.id)).toEqual([taskId]);
      expect((await api.get(`/search?q=${encodeURIComponent('limit the')}`, token)).body.tasks.map((x: any) => x.id)).toEqual([taskId]);
      const activity = await api.get(`/activity/${taskId}`, token);
      expect(activity.body.map((a: any) => a.type)).toEqual(['status_changed', 'created']);
      // An invitation goes through the outbox and the email queue in the local Redis (no SMTP: skipped).
      const invite = await api.post('/auth/organization/invite-member', { email: 'grace@example.com', role: 'member', organizationId: ws.body.id }, token);
      expect(invite.status).toBe(200);
      await until('the invitation email job to complete', () => /email [0-9a-f-]{36} \(invitation\) skipped/.test(proc.output()), 30_000);

      // Redis as BullMQ needs it, and a key to find again after the restart.
      const local = await runningLocalRedis(dataDir);
      expect(local?.pid).toBe(redis);
      const client = new Redis(local!.url);
      try {
        expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
        expect(await client.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
        marker = randomBytes(8).toString('hex');
        await client.set('zero-setup-test:marker', marker);
      } finally {
        client.disconnect();
      }

      expect(await proc.kill('SIGTERM')).toBe(0);
      expect(processAlive(pg)).toBe(false);
      expect(processAlive(redis)).toBe(false);
      expect(await runningEmbeddedPostgres(dataDir)).toBeNull();
      expect(await runningLocalRedis(dataDir)).toBeNull();
    } finally {
      await proc.kill('SIGKILL');
    }
  }

  it('after a restart, the data is back: the session, the task, search, and the Redis data', async () => {
    await afterFirstStart();
    const proc = await launch(env, 120_000);
    try {
      const out = proc.output();
      expect(out).not.toContain('created an embedded Postgres');
      expect(out).toContain('using the embedded Postgres it started');
      const api = apiOf(proc);
      expect((await api.get('/health')).status).toBe(200);
      const task = await api.get(`/task/${taskId}`, token);
      expect(task.status).toBe(200);
      expect(task.body).toMatchObject({ title: 'Rate-limit the login', status: 'in-progress', number: 1 });
      expect((await api.get('/search?q=API-1', token)).body.tasks.map((x: any) => x.id)).toEqual([taskId]);
      expect((await api.post('/auth/sign-in/email', { email: 'ada@example.com', password: 'correct horse' })).status).toBe(200);
      const client = new Redis((await runningLocalRedis(dataDir))!.url);
      try {
        expect(await client.get('zero-setup-test:marker')).toBe(marker);
      } finally {
        client.disconnect();
      }
      expect(await proc.kill('SIGTERM')).toBe(0);
    } finally {
      await proc.kill('SIGKILL');
    }
  }, 180_000);

  it('servers left running by a killed service are used by the next start and left running', async () => {
    await afterFirstStart();
    const killed = await launch(env, 120_000);
    const first = notices(killed.output());
    expect(await killed.kill('SIGKILL')).toBe('SIGKILL');
    // Nothing stopped them: they run on, and the next start finds them through their folders.
    expect(processAlive(first.pg)).toBe(true);
    expect(processAlive(first.redis)).toBe(true);

    const proc = await launch(env, 120_000);
    try {
      const out = proc.output();
      expect(out).toMatch(/using the embedded Postgres already running \([^)]*, left running\)/);
      expect(out).toMatch(/using the local redis-server already running \([^)]*, left running\)/);
      expect(notices(out)).toEqual(first);
      const api = apiOf(proc);
      expect((await api.get('/health')).status).toBe(200);
      expect((await api.get(`/task/${taskId}`, token)).status).toBe(200);
      expect(await proc.kill('SIGTERM')).toBe(0);
      // Not this process's to stop (afterAll stops them).
      expect(processAlive(first.pg)).toBe(true);
      expect(await answers('127.0.0.1', (await runningEmbeddedPostgres(dataDir))!.port)).toBe(true);
      expect((await runningLocalRedis(dataDir))?.pid).toBe(first.redis);
    } finally {
      await proc.kill('SIGKILL');
      // So that a start after this test starts its own servers again.
      await stopLeftServers();
    }
  }, 300_000);
});
