import { randomBytes } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import { bootstrap } from '../../../src/bootstrap';
import { QueueName } from '../../../src/queue/queues';
import { GuardedQueue } from '../../../src/queue/guarded-bullmq';
import { loadConfig } from '../../../src/config/app-config';
import { MIGRATIONS } from '../../../src/database/migrations';
import { dropRedisKeys, runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { DB_PREFIX, urlFor, withAdmin } from '../../support/db';
import { sql } from '../../support/fixtures';
import { concretePath, MAX_PUBLIC_ROUTES, PUBLIC_ROUTES, registeredRoutes, routeAccess } from '../../support/routes';

/**
 * The routes SwaggerModule.setup (src/bootstrap.ts) registers beside the controllers, so without
 * @Public() or any guard: the OpenAPI document as JSON and YAML, the interactive page and its
 * start-up script. Public by design: they describe the API and grant nothing. (`LICENSE` is
 * swagger-ui's; @nestjs/swagger answers it 404.) swagger-ui's static files are served by a
 * middleware, not by routes, so they are not listed.
 */
const DOCS_ROUTES = [
  'GET /api/openapi.json',
  'GET /api/docs-yaml',
  'GET /api/docs',
  'GET /api/docs/',
  'GET /api/docs/index.html',
  'GET /api/docs/swagger-ui-init.js',
  'GET /api/docs/docs/swagger-ui-init.js',
  'GET /api/docs/LICENSE',
];

/** `get` + `/api/task/{id}` (OpenAPI) → `GET /api/task/:id` (Express). */
const expressKey = (method: string, openApiPath: string) => `${method.toUpperCase()} ${openApiPath.replace(/\{([^}]+)\}/g, ':$1')}`;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('health, docs and the public surface', () => {
  it('GET /health is public and checks Postgres and Redis', async () => {
    const res = await t.api.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' }, redis: { mode: 'single' } });
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
    // a static file of the page, served by swagger's middleware
    const css = await fetch(`${t.url}/docs/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it("the routes Express serves are the controllers' and the OpenAPI pages; the public ones are declared @Public()", async () => {
    const registered = registeredRoutes(t).map((r) => r.key);
    const controllers = routeAccess(t);
    const controllerKeys = new Set(controllers.map((r) => r.key));
    expect(registered.filter((key) => controllerKeys.has(key)).sort()).toEqual([...controllerKeys].sort());
    expect(registered.filter((key) => !controllerKeys.has(key)).sort()).toEqual([...DOCS_ROUTES].sort());
    expect(
      controllers
        .filter((r) => r.isPublic)
        .map((r) => r.key)
        .sort(),
    ).toEqual([...PUBLIC_ROUTES].sort());
    expect(PUBLIC_ROUTES.length).toBeLessThanOrEqual(MAX_PUBLIC_ROUTES);
  });

  it('no registered route but the public ones answers without a valid token', async () => {
    const routes = registeredRoutes(t);
    // The few routes answering {error} (docs/git-hosts.md) say Unauthorized with that key.
    const errorKey = new Map(routeAccess(t).map((r) => [r.key, r.errorBodyKey ?? 'message']));
    const signedOut = (await t.api.signUp()).token;
    expect((await t.api.post('/auth/sign-out', undefined, signedOut)).status).toBe(200);

    const open: string[] = [];
    for (const route of routes) {
      const path = concretePath(route.path);
      const body = route.method === 'GET' ? undefined : {};
      const anonymous = await t.api.request(route.method, path, body);
      const signedOutNull = routeAccess(t).find((r) => r.key === route.key)?.signedOutNull === true;
      if (signedOutNull) expect([route.key, anonymous.status, anonymous.text]).toEqual([route.key, 200, 'null']);
      else if (anonymous.status !== 401) {
        open.push(route.key);
        continue;
      }
      const unauthorized = { [errorKey.get(route.key)!]: 'Unauthorized' };
      if (!signedOutNull) expect([route.key, anonymous.body]).toEqual([route.key, unauthorized]);
      // a garbage bearer, a garbage API key, a revoked session
      for (const token of ['not-a-token', 'tdm_not-a-key', signedOut]) {
        const res = await t.api.request(route.method, path, body, { token });
        expect([route.key, res.status, res.body]).toEqual([route.key, 401, unauthorized]);
      }
    }
    // Exactly the listed routes are open: a stale entry or a new public route fails here.
    expect(open.sort()).toEqual([...PUBLIC_ROUTES, ...DOCS_ROUTES].sort());
  });
});

describe('error answers in the OpenAPI document', () => {
  it('documents every route of the controllers, and nothing else', async () => {
    const doc = (await t.api.get('/openapi.json')).body;
    const documented = Object.entries<any>(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => expressKey(method, path)));
    const served = registeredRoutes(t)
      .map((r) => r.key)
      .filter((key) => !DOCS_ROUTES.includes(key));
    expect(documented.sort()).toEqual(served.sort());
  });

  it('every route behind authentication documents 401, 429 and 500; public ones do not claim Unauthorized; each error has the schema of the route error key', async () => {
    const doc = (await t.api.get('/openapi.json')).body;
    const refs: Record<string, { $ref: string }> = { message: { $ref: '#/components/schemas/ErrorBody' }, error: { $ref: '#/components/schemas/ErrorKeyBody' } };
    expect(doc.components.schemas.ErrorBody.properties).toEqual({ message: expect.objectContaining({ type: 'string' }) });
    expect(doc.components.schemas.ErrorKeyBody.properties).toEqual({ error: expect.objectContaining({ type: 'string' }) });
    const errorKey = new Map(routeAccess(t).map((r) => [r.key, r.errorBodyKey ?? 'message']));
    const publicSeen: string[] = [];
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const key = expressKey(method, path);
        const ref = refs[errorKey.get(key)!];
        expect(op['x-public']).toBeUndefined();
        expect(op['x-error-key']).toBeUndefined();
        // Every error response of the route has the schema of its error key.
        for (const [status, r] of Object.entries<any>(op.responses)) {
          if (/^[45]/.test(status)) expect([key, status, r.content['application/json'].schema]).toEqual([key, status, ref]);
        }
        if (PUBLIC_ROUTES.includes(key)) {
          publicSeen.push(key);
          // No login, so no `Unauthorized` (a webhook's own 401 is its refused signature).
          expect([key, op.responses['401']?.description ?? '']).toEqual([key, expect.not.stringContaining('Unauthorized')]);
          continue;
        }
        for (const status of ['401', '429', '500']) expect([key, status, op.responses[status]?.content['application/json'].schema]).toEqual([key, status, ref]);
      }
    }
    expect(publicSeen.sort()).toEqual([...PUBLIC_ROUTES].sort());
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
    // The 403 of a route behind a permission names it, as the permission guard's answer does.
    expect(described('create-team', '403')).toContain('`Insufficient permissions: team:create is needed`');
    expect(described('create-team', '403')).not.toContain('`Insufficient permissions`');
    expect(spec('put', '/api/task/{id}')['403'].description).toContain('`Insufficient permissions: task:update is needed` · `Insufficient permissions: task:assign is needed`');
    expect(spec('post', '/api/comment/{taskId}')['403'].description).toContain('`Insufficient permissions: task:update is needed`');
    expect(spec('get', '/api/comment/{taskId}')['403']).toBeUndefined();
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
    const retry = Number(last.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
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
      REDIS_URL: runRedisUrl(),
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
      REDIS_URL: runRedisUrl(),
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
