import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { API_KEY_REFUSED, NOT_INSTANCE_ADMIN } from '../../../src/common/guards/instance-admin.guard';
import { DASHBOARD_UNAUTHORIZED, QueueDashboard } from '../../../src/modules/admin/queue-dashboard.service';
import { APP_CONFIG, AppConfig } from '../../../src/config/app-config';
import { QUEUE_NAMES, QueueName } from '../../../src/queue/queues';
import { redisOptionsFromUrl } from '../../../src/redis/redis-options';
import { Auth } from '../../support/api';
import { runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { nearMissOrigins } from '../../support/near-misses';

const REDIS_URL = runRedisUrl();
const UNAUTHORIZED = { status: 401, body: { message: 'Unauthorized' } };
/** The dashboard's own 401 says how a browser gets in. */
const DASHBOARD_401 = {
  status: 401,
  body: { message: "Unauthorized: POST /api/admin/queues/session with an instance admin's session token sets the dashboard's cookie" },
};

/**
 * The queue dashboard (docs/decisions-local.md, "Queue dashboard"): Bull Board under
 * /api/admin/queues, for instance admins signed in with a session token, in a browser through a
 * cookie that POST /api/admin/queues/session sets.
 */
let t: TestApp;
let admin: Auth;
let member: Auth;
let redis: Redis;
/** The origin the app serves on, e.g. http://127.0.0.1:41234 */
let origin: string;

/** A request to the dashboard (path relative to /api/admin/queues) with raw headers; body parsed when JSON. */
async function dashboard(path: string, headers: Record<string, string> = {}, init: RequestInit = {}) {
  const res = await fetch(`${t.url}/admin/queues${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) }, redirect: 'manual' });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* HTML, CSS, JS */
  }
  return { status: res.status, body, headers: res.headers, text };
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const statusAndBody = (r: { status: number; body: unknown }) => ({ status: r.status, body: r.body });

/** Redis clients named as the dashboard names its connection: there until the first authorised request, none. */
async function dashboardConnections(): Promise<number> {
  const name = t.running.app.get(QueueDashboard).connectionName;
  const list = (await redis.client('LIST')) as string;
  return list.split('\n').filter((line) => line.includes(` name=${name} `)).length;
}

async function apiKey(token: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await t.api.post('/auth/api-key/create', body, token);
  expect(res.status).toBe(200);
  return res.body.key;
}

/** POST /admin/queues/session as `token`'s user; answers the response and the cookie pair (`name=value`). */
async function openSession(token: string) {
  const res = await t.api.post('/admin/queues/session', undefined, token);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { res, setCookie, cookie: setCookie.split(';')[0] };
}

beforeAll(async () => {
  // The API role alone: it opens no queue connection until someone opens the dashboard.
  t = await startTestApp({ APP_ROLES: 'api', CLIENT_URL: 'http://localhost:5173' });
  origin = new URL(t.url).origin;
  redis = new Redis(REDIS_URL);
  admin = await t.api.signUp({ name: 'Ada Admin' }); // the first user of the instance
  member = await t.api.signUp({ name: 'Mo Member' });
  // Nothing connects to the queues before the first authorised request.
  expect(await dashboardConnections()).toBe(0);
});
afterAll(async () => {
  redis?.disconnect();
  await t?.close();
});

describe('who may open it', () => {
  it('anonymous, invalid or revoked credentials → 401 {message} saying how to get in; nothing connects to the queues for them', async () => {
    const connected = await dashboardConnections();
    expect(DASHBOARD_UNAUTHORIZED).toBe(DASHBOARD_401.body.message);
    const revoked = (await t.api.signUp()).token;
    expect((await t.api.post('/auth/sign-out', undefined, revoked)).status).toBe(200);
    for (const path of ['', '/', '/api/queues', '/queue/email', '/static/css/does-not-matter.css']) {
      for (const headers of [{}, bearer('not-a-token'), bearer(revoked), bearer('tdm_not-a-key'), { 'x-api-key': 'tdm_not-a-key' }, { cookie: 'tandem_queues=forged' }] as Record<
        string,
        string
      >[]) {
        expect([path, headers, statusAndBody(await dashboard(path, headers))]).toEqual([path, headers, DASHBOARD_401]);
      }
    }
    expect(statusAndBody(await t.api.post('/admin/queues/session', undefined))).toEqual(UNAUTHORIZED);
    expect(await dashboardConnections()).toBe(connected);
  });

  it('a signed-in member who is not an instance admin → 403', async () => {
    const connected = await dashboardConnections();
    for (const path of ['', '/api/queues']) {
      expect(statusAndBody(await dashboard(path, bearer(member.token)))).toEqual({ status: 403, body: { message: NOT_INSTANCE_ADMIN } });
    }
    const { res, setCookie } = await openSession(member.token);
    expect(statusAndBody(res)).toEqual({ status: 403, body: { message: NOT_INSTANCE_ADMIN } });
    expect(setCookie).toBe('');
    expect(await dashboardConnections()).toBe(connected);
  });

  it("API keys are refused, even an instance admin's", async () => {
    const connected = await dashboardConnections();
    const unscoped = await apiKey(admin.token);
    const scoped = await apiKey(admin.token, { permissions: { task: ['read'] } });
    for (const key of [unscoped, scoped]) {
      for (const headers of [{ 'x-api-key': key }, bearer(key)]) {
        expect(statusAndBody(await dashboard('/api/queues', headers))).toEqual({ status: 403, body: { message: API_KEY_REFUSED } });
      }
    }
    expect(statusAndBody((await openSession(unscoped)).res)).toEqual({ status: 403, body: { message: API_KEY_REFUSED } });
    expect(statusAndBody((await openSession(scoped)).res)).toEqual({ status: 403, body: { message: 'Insufficient API key scope' } });
    expect(await dashboardConnections()).toBe(connected);
  });

  it('an instance admin with a session token → 200: the page, and every queue of src/queue/queues.ts in its API', async () => {
    const page = await dashboard('', bearer(admin.token));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<base href="/api/admin/queues/" />');

    const api = await dashboard('/api/queues', bearer(admin.token));
    expect(api.status).toBe(200);
    expect(api.body.queues.map((q: any) => q.name).sort()).toEqual([...QUEUE_NAMES].sort());
    // The first authorised requests connected the dashboard: one Redis connection for all queues.
    expect(await dashboardConnections()).toBe(1);
  });
});

describe('in a browser', () => {
  it('POST /admin/queues/session sets an HttpOnly, SameSite=Strict cookie for the dashboard path only', async () => {
    const { res, setCookie, cookie } = await openSession(admin.token);
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(res.body.expiresAt) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(setCookie).toMatch(/^tandem_queues=[\w-]+\.[\w-]+\.[\w-]+; Path=\/api\/admin\/queues; Max-Age=900; HttpOnly; SameSite=Strict$/);
    // The cookie opens the page and its API…
    expect((await dashboard('', { cookie })).status).toBe(200);
    const api = await dashboard('/api/queues', { cookie });
    expect(api.status).toBe(200);
    expect(api.body.queues).toHaveLength(QUEUE_NAMES.length);
    // …and nothing else: its token is no session token.
    const token = cookie.split('=')[1];
    expect(statusAndBody(await t.api.get('/auth/get-session', token))).toEqual(UNAUTHORIZED);
    // A forged or altered cookie is refused.
    expect(statusAndBody(await dashboard('/api/queues', { cookie: `${cookie.slice(0, -2)}xx` }))).toEqual(DASHBOARD_401);
  });

  it('the cookie ends with the session it was made from', async () => {
    const session = await t.api.post('/auth/sign-in/email', { email: admin.user.email, password: 'correct horse battery' });
    expect(session.status).toBe(200);
    const { cookie } = await openSession(session.body.token);
    expect((await dashboard('/api/queues', { cookie })).status).toBe(200);
    expect((await t.api.post('/auth/sign-out', undefined, session.body.token)).status).toBe(200);
    expect(statusAndBody(await dashboard('/api/queues', { cookie }))).toEqual(DASHBOARD_401);
  });

  it("a change through the cookie must come from the dashboard's own origin", async () => {
    const { cookie } = await openSession(admin.token);
    const pause = (headers: Record<string, string>) => dashboard(`/api/queues/${QueueName.Email}/pause`, { cookie, ...headers }, { method: 'PUT' });
    const refused = { status: 403, body: { message: 'Cross-origin request refused' } };
    expect(statusAndBody(await pause({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }))).toEqual(refused);
    expect(statusAndBody(await pause({ origin: 'https://sibling.example', 'sec-fetch-site': 'same-site' }))).toEqual(refused);
    expect(statusAndBody(await pause({ origin: 'https://evil.example' }))).toEqual(refused);
    // Neither Origin nor Sec-Fetch-Site: nothing shows it comes from the dashboard's pages.
    expect(statusAndBody(await pause({}))).toEqual(refused);
    const queue = new Queue(QueueName.Email, { connection: redisOptionsFromUrl(REDIS_URL), prefix: `${t.queuePrefix}:bull` });
    try {
      expect(await queue.isPaused()).toBe(false);
      // Sec-Fetch-Site: same-origin without Origin (a browser's same-origin request may omit it) is enough.
      expect((await pause({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
      expect((await dashboard(`/api/queues/${QueueName.Email}/resume`, { cookie, origin }, { method: 'PUT' })).status).toBe(200);
      expect(await queue.isPaused()).toBe(false);
      expect((await pause({ origin, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
      expect(await queue.isPaused()).toBe(true);
      expect((await dashboard(`/api/queues/${QueueName.Email}/resume`, { cookie, origin, 'sec-fetch-site': 'same-origin' }, { method: 'PUT' })).status).toBe(200);
      expect(await queue.isPaused()).toBe(false);
    } finally {
      await queue.close();
    }
  });

  it("a near miss of the dashboard's own origin or PUBLIC_API_URL's is refused, and the queue is not paused", async () => {
    const { cookie } = await openSession(admin.token);
    const queue = new Queue(QueueName.Email, { connection: redisOptionsFromUrl(REDIS_URL), prefix: `${t.queuePrefix}:bull` });
    try {
      for (const allowed of [origin, new URL(t.running.app.get<AppConfig>(APP_CONFIG).publicApiUrl).origin]) {
        for (const [what, near] of nearMissOrigins(allowed)) {
          // Sec-Fetch-Site says same-origin, so only the Origin header decides.
          const res = await dashboard(`/api/queues/${QueueName.Email}/pause`, { cookie, origin: near, 'sec-fetch-site': 'same-origin' }, { method: 'PUT' });
          expect([allowed, what, near, statusAndBody(res)]).toEqual([allowed, what, near, { status: 403, body: { message: 'Cross-origin request refused' } }]);
        }
      }
      expect(await queue.isPaused()).toBe(false);
    } finally {
      await queue.close();
    }
  });

  it('the page loads under its Content-Security-Policy: only its own scripts, styles and calls, no CORS for other origins', async () => {
    const { cookie } = await openSession(admin.token);
    const page = await dashboard('/', { cookie, origin: 'http://localhost:5173' });
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/unsafe-eval|upgrade-insecure-requests/);
    // Not even CLIENT_URL's origin may read it from a script.
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    expect(page.headers.get('x-powered-by')).toBeNull();
    // Every script is a file of the dashboard (same origin, allowed by script-src 'self'), but the
    // configuration block, which is JSON and never runs.
    const scripts = [...page.text.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(1);
    for (const attrs of scripts) expect(attrs).toMatch(/ src="static\/[^"]+\.js"|type="application\/json"/);
    expect(page.text).not.toMatch(/\son[a-z]+="/); // no inline event handlers (script-src-attr)
    // The files it references are served (relative to <base href="/api/admin/queues/">).
    const assets = [...page.text.matchAll(/(?:src|href)="(static\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(3);
    for (const asset of assets) {
      const res = await dashboard(`/${asset}`, { cookie });
      expect([asset, res.status]).toEqual([asset, 200]);
    }
  });
});

describe('what it shows and allows', () => {
  it('job data without the text workspaces wrote; editing data or adding jobs is refused', async () => {
    const queue = new Queue(QueueName.TaskEvents, { connection: redisOptionsFromUrl(REDIS_URL), prefix: `${t.queuePrefix}:bull` });
    try {
      const taskId = randomUUID();
      const job = await queue.add('taskTitleChanged', {
        id: randomUUID(),
        kind: 'taskTitleChanged',
        workspaceId: randomUUID(),
        project: { id: randomUUID(), name: 'Apollo', slug: 'APO' },
        task: { id: taskId, number: 7, title: 'Secret plan', description: 'Do not tell anyone' },
        actor: { id: randomUUID(), name: 'Mo Member' },
        data: { oldTitle: 'Plan', newTitle: 'Secret plan' },
      });
      const res = await dashboard(`/api/queues?activeQueue=${QueueName.TaskEvents}&status=waiting&page=1&jobsPerPage=10`, bearer(admin.token));
      expect(res.status).toBe(200);
      const shown = res.body.queues.find((q: any) => q.name === QueueName.TaskEvents).jobs.find((j: any) => j.id === job.id);
      expect(shown.data.task).toEqual({ id: taskId, number: 7, title: '[hidden]', description: '[hidden]' });
      expect(shown.data.kind).toBe('taskTitleChanged');
      for (const secret of ['Secret plan', 'Do not tell anyone', 'Apollo', 'Mo Member']) expect(res.text).not.toContain(secret);

      const edit = await dashboard(
        `/api/queues/${QueueName.TaskEvents}/${job.id}/update-data`,
        { ...bearer(admin.token), 'content-type': 'application/json' },
        { method: 'PATCH', body: JSON.stringify({ data: { task: { title: '[hidden]' } } }) },
      );
      expect(edit.status).toBe(403);
      const add = await dashboard(
        `/api/queues/${QueueName.Email}/add`,
        { ...bearer(admin.token), 'content-type': 'application/json' },
        { method: 'POST', body: JSON.stringify({ name: 'invitation', data: {} }) },
      );
      expect(add.status).toBe(403);
      expect((await queue.getJob(job.id!))!.data.task.title).toBe('Secret plan');
    } finally {
      await queue.close();
    }
  });

  it('is not in the OpenAPI document, but for the JSON route that opens it', async () => {
    const doc = (await t.api.get('/openapi.json')).body;
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/admin'))).toEqual(['/api/admin/queues/session']);
    expect(doc.paths['/api/admin/queues/session'].post['x-access']).toBe('Signed in with a session token, as an instance admin; API keys are refused.');
  });

  it("an unknown path under it, for an admin, is the API's usual 404", async () => {
    const res = await dashboard('/api/no-such-thing', bearer(admin.token));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: expect.any(String) });
  });
});
