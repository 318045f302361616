import { randomBytes, randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import { bootstrap } from '../../src/bootstrap';
import { QueueName } from '../../src/queue/queues';
import { GuardedQueue } from '../../src/queue/guarded-bullmq';
import { loadConfig } from '../../src/config/app-config';
import { MIGRATIONS } from '../../src/database/migrations';
import { dropRedisKeys, startTestApp, TestApp } from '../support/app';
import { DB_PREFIX, urlFor, withAdmin } from '../support/db';
import { sql } from '../support/fixtures';

/** Routes that answer without credentials. Anything else must be 401 without a token. */
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'POST /api/auth/sign-up/email',
  'POST /api/auth/sign-in/email',
  'GET /api/auth/oauth2/authorize/custom',
  'GET /api/auth/oauth2/callback/custom',
  'POST /api/selfgit-integration/webhook/{integrationId}',
  'POST /api/hostedgit-integration/webhook',
]);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('health, docs and the public surface', () => {
  it('GET /health is public and checks Postgres and Redis', async () => {
    const res = await t.api.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } });
  });

  it('serves the OpenAPI document and the interactive page', async () => {
    const doc = await t.api.get('/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/auth/sign-up/email', '/api/auth/organization/create', '/api/health']));
    expect(doc.body.components.schemas.SignUpDto.properties).toHaveProperty('password');
    const page = await fetch(`${t.url}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger');
  });

  it('no route but the public ones answers without a valid token', async () => {
    const doc = (await t.api.get('/openapi.json')).body;
    const checked: string[] = [];
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const method of Object.keys(ops)) {
        const key = `${method.toUpperCase()} ${path}`;
        if (PUBLIC_ROUTES.has(key)) continue;
        const url = path.replace(/^\/api/, '').replace(/\{[^}]+\}/g, () => randomUUID());
        for (const token of [undefined, 'not-a-token']) {
          const res = await t.api.request(method.toUpperCase(), url, method === 'get' ? undefined : {}, { token });
          if (res.status !== 401) throw new Error(`${key} answered ${res.status} without a valid token`);
          expect(res.body).toEqual({ message: 'Unauthorized' });
        }
        checked.push(key);
      }
    }
    expect(checked.length).toBeGreaterThan(10);
  });
});

describe('error answers in the OpenAPI document', () => {
  it('every route behind authentication documents 401, 429 and 500; public ones do not claim 401', async () => {
    const doc = (await t.api.get('/openapi.json')).body;
    const ref = { $ref: '#/components/schemas/ErrorBody' };
    expect(doc.components.schemas.ErrorBody.properties).toEqual({ message: expect.objectContaining({ type: 'string' }) });
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const key = `${method.toUpperCase()} ${path}`;
        expect(op['x-public']).toBeUndefined();
        if (PUBLIC_ROUTES.has(key)) {
          expect([key, op.responses['401']]).toEqual([key, undefined]);
          continue;
        }
        for (const status of ['401', '429', '500']) expect([key, status, op.responses[status]?.content['application/json'].schema]).toEqual([key, status, ref]);
      }
    }
  });

  it('the organization operations document their own error cases with the {message} schema', async () => {
    const doc = (await t.api.get('/openapi.json')).body;
    const responses = (path: string) => doc.paths[`/api/auth/organization/${path}`].post.responses;
    const described = (path: string, status: string) => {
      const r = responses(path)[status];
      expect(r.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      return r.description as string;
    };
    expect(described('invite-member', '400')).toContain('User is already invited to this organization');
    expect(described('invite-member', '403')).toContain('Only an owner can invite an owner');
    expect(described('invite-member', '429')).toContain('Too many invitations');
    expect(described('create-role', '400')).toContain('The provided permission includes an invalid resource');
    expect(described('update-member-role', '400')).toContain('You cannot leave the organization without an owner');
    expect(described('remove-team-member', '404')).toContain('Team not found');
    expect(described('cancel-invitation', '404')).toContain('Invitation not found');
    // The spec's work-item endpoints and search document theirs too.
    const spec = (method: string, path: string) => doc.paths[path][method].responses;
    expect(spec('put', '/api/task/move/{id}')['400'].description).toContain('Tasks can only be moved within the same workspace');
    expect(spec('put', '/api/label/{id}')['404'].description).toContain('Label not found');
    expect(spec('put', '/api/time-entry/{id}')['400'].description).toContain('Start time cannot be after end time');
    expect(spec('put', '/api/column/reorder/{projectId}')['400'].description).toContain('does not belong to this project');
    expect(spec('get', '/api/search')['400'].description).toContain('Limit must not exceed 50');
    // The spec: these seven operations document six message-bodied error responses each.
    for (const op of ['create-team', 'update-team', 'remove-team-member', 'invite-member', 'cancel-invitation', 'update-member-role', 'create-role']) {
      expect([op, Object.keys(responses(op)).sort()]).toEqual([op, ['200', '400', '401', '403', '404', '429', '500']]);
      for (const status of ['400', '401', '403', '404', '429', '500']) described(op, status);
    }
  });
});

describe('per-token API rate limit', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMIT_API: '5' });
  });
  afterAll(() => limited?.close());

  it('answers 429 with Retry-After past RATE_LIMIT_API per minute, per token', async () => {
    const a = await limited.api.signUp();
    const b = await limited.api.signUp();
    const statuses: number[] = [];
    let last: any;
    for (let i = 0; i < 7; i++) {
      last = await limited.api.get('/auth/get-session', a.token);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.api.get('/auth/get-session', b.token)).status).toBe(200);
  });
});

describe('start-up', () => {
  it('two instances booting together on an empty database migrate once and both serve', async () => {
    const db = `${DB_PREFIX}boot_${randomBytes(4).toString('hex')}`;
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PORT: '0',
      DATABASE_URL: urlFor(db),
      DATABASE_POOL_SIZE: '3',
      QUEUE_PREFIX: `t_boot_${randomBytes(3).toString('hex')}`,
    };
    const config = loadConfig(env);
    // Neither the database nor its schema exist yet: both processes create and migrate.
    const [one, two] = await Promise.all([bootstrap(config, { host: '127.0.0.1' }), bootstrap(config, { host: '127.0.0.1' })]);
    try {
      const applied = await sql(urlFor(db), `SELECT name FROM migrations ORDER BY id`);
      expect(applied.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => new m().name));
      for (const r of [one, two]) {
        const res = await fetch(`${r.url}/api/health`);
        expect(res.status).toBe(200);
      }
    } finally {
      await one.close();
      await two.close();
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`));
      await dropRedisKeys(config.redisUrl, config.queuePrefix);
    }
  });

  it('a worker-only process opens no HTTP server', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      APP_ROLES: 'worker',
      DATABASE_URL: t.databaseUrl,
      DATABASE_POOL_SIZE: '2',
      QUEUE_PREFIX: t.queuePrefix,
    });
    const worker = await bootstrap(config, { migrate: false });
    try {
      expect(worker.url).toBeUndefined();
      expect((worker.app as any).getHttpServer).toBeUndefined();
      // Queues and workers are BullMQ's classes with the shutdown guards (src/queue/guarded-bullmq.ts).
      expect(worker.app.get(getQueueToken(QueueName.Email))).toBeInstanceOf(GuardedQueue);
    } finally {
      await worker.close();
    }
  });

  it('health answers 503 {message} naming what is down', async () => {
    // api role only: a BullMQ worker that never reached Redis keeps its stalled-job timer after close.
    const broken = await startTestApp({ REDIS_URL: 'redis://127.0.0.1:1', APP_ROLES: 'api' });
    try {
      const res = await broken.api.get('/health');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: 'Unavailable: redis' });
    } finally {
      await broken.close();
    }
  });
});
