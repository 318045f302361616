import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { SELFGIT_TIMEOUT_MS } from '../../../src/modules/git-hosts/selfgit/selfgit-api';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { FakeSelfgit } from '../../support/git-hosts';
import { HttpReceiver } from '../../support/http-receiver';
import { until } from '../../support/until';
import { createProject, MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';

const PUBLIC_API_URL = 'https://tandem.example.test';
const TOKEN = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0';
const READ_TOKEN = 'readonly-token-0123456789';
const git = new FakeSelfgit();
let t: TestApp;

beforeAll(async () => {
  await git.start();
  git.addUser(TOKEN, 'ada').addUser(READ_TOKEN, 'bob');
  git.addRepo('acme', 'website', { private: true, access: { [TOKEN]: 'write', [READ_TOKEN]: 'read' } });
  t = await startTestApp({ PUBLIC_API_URL, APP_ROLES: 'api' });
});
afterAll(async () => {
  await t?.close();
  await git.stop();
});

const body = (over: Record<string, unknown> = {}) => ({ baseUrl: git.url, accessToken: TOKEN, repositoryOwner: 'acme', repositoryName: 'website', ...over });

let repos = 0;
/** A repository of its own for a test (one active integration per repository). */
function newRepo(): string {
  const name = `repo-${++repos}`;
  git.addRepo('acme', name, { access: { [TOKEN]: 'write' } });
  return name;
}

async function board() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId);
  return { owner, workspaceId, project };
}

const row = async (projectId: string) => (await sql(t.databaseUrl, `SELECT * FROM git_integration WHERE project_id = $1 AND type = 'selfgit'`, [projectId]))[0];

/** A server that accepts connections and never answers; `received` counts the requests it got. */
async function silentServer(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server: Server = createServer(() => void received++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('POST /selfgit-integration/verify', () => {
  it('a token with write access: every flag true and the spec message', async () => {
    const { owner } = await board();
    const before = git.requests.length;
    const res = await t.api.post('/selfgit-integration/verify', body(), owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      isInstalled: true,
      hasRequiredPermissions: true,
      repositoryExists: true,
      repositoryPrivate: true,
      missingPermissions: [],
      message: 'Token can access the repository.',
    });
    // Both calls of this verify (not those of other tests, whichever ran before) carried the token the selfgit way.
    const calls = git.requests.slice(before).filter((r) => r.path === '/api/v1/user' || r.path === '/api/v1/repos/acme/website');
    expect(calls.map((c) => c.path).sort()).toEqual(['/api/v1/repos/acme/website', '/api/v1/user']);
    for (const c of calls) expect(c.headers.authorization).toBe(`token ${TOKEN}`);
  });

  it('a read-only token: hasRequiredPermissions false, missing issues (write)', async () => {
    const { owner } = await board();
    const res = await t.api.post('/selfgit-integration/verify', body({ accessToken: READ_TOKEN }), owner.token);
    expect(res.body).toEqual({
      isInstalled: true,
      hasRequiredPermissions: false,
      repositoryExists: true,
      repositoryPrivate: true,
      missingPermissions: ['issues (write)'],
      message: 'Token can read the repository but cannot write to its issues.',
    });
  });

  it('a repository that does not exist (or the token cannot see): not installed, repositoryPrivate null', async () => {
    const { owner } = await board();
    const res = await t.api.post('/selfgit-integration/verify', body({ repositoryName: 'nothing-here' }), owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      isInstalled: false,
      hasRequiredPermissions: false,
      repositoryExists: false,
      repositoryPrivate: null,
      missingPermissions: [],
      message: 'Repository not found, or the token cannot see it.',
    });
  });

  it('a token the server refuses: 401 {message}', async () => {
    const { owner } = await board();
    const res = await t.api.post('/selfgit-integration/verify', body({ accessToken: 'wrong-token' }), owner.token);
    expect([res.status, res.body]).toEqual([401, { message: 'The selfgit server refused the access token' }]);
  });

  it('hosts that are no selfgit server, or cannot be reached, or redirect: 400 with a clear message, never a 500', async () => {
    const { owner } = await board();
    const web = new HttpReceiver();
    const base = await web.start();
    try {
      web.answer({ status: 404, body: '<html>Not found</html>' });
      let res = await t.api.post('/selfgit-integration/verify', body({ baseUrl: base }), owner.token);
      expect([res.status, res.body]).toEqual([400, { message: `No selfgit server answers at ${base} (GET /api/v1/user answered HTTP 404, not JSON)` }]);

      web.answer({ status: 200, body: { hello: 'world' } });
      res = await t.api.post('/selfgit-integration/verify', body({ baseUrl: base }), owner.token);
      expect([res.status, res.body]).toEqual([400, { message: `No selfgit server answers at ${base} (GET /api/v1/user answered HTTP 200)` }]);

      web.answer({ status: 301, headers: { location: 'https://elsewhere.example/' } });
      res = await t.api.post('/selfgit-integration/verify', body({ baseUrl: base }), owner.token);
      expect([res.status, res.body]).toEqual([400, { message: 'The selfgit server answered with a redirect (HTTP 301); give its final address as baseUrl' }]);
      // Not followed: only our one request reached the receiver each time.
      expect(web.requests.map((r) => r.url)).toEqual(['/api/v1/user', '/api/v1/user', '/api/v1/user']);
    } finally {
      await web.stop();
    }
    // Nothing listens there any more.
    const res = await t.api.post('/selfgit-integration/verify', body({ baseUrl: base }), owner.token);
    expect([res.status, res.body]).toEqual([400, { message: 'The selfgit server could not be reached: Connection refused' }]);

    for (const baseUrl of ['ftp://git.example.com', 'not a url']) {
      const bad = await t.api.post('/selfgit-integration/verify', body({ baseUrl }), owner.token);
      expect([baseUrl, bad.status, bad.body]).toEqual([baseUrl, 400, { message: 'baseUrl must be an http(s) URL' }]);
    }
    const creds = await t.api.post('/selfgit-integration/verify', body({ baseUrl: `http://user:pw@127.0.0.1:1/` }), owner.token);
    expect([creds.status, creds.body]).toEqual([400, { message: 'baseUrl must not carry credentials, a query or a fragment' }]);
  });

  it('a server that never answers: 400 when the 10-second deadline runs out', async () => {
    const { owner } = await board();
    const silent = await silentServer();
    // The deadline's timer (armed in src/common/net/outbound-http.ts) is kept by the test, which
    // runs it once the request is at the server: the deadline passes without 10 s being spent.
    const deadlines: (() => void)[] = [];
    const stackHere = () => {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 40;
      try {
        return new Error().stack ?? '';
      } finally {
        Error.stackTraceLimit = limit;
      }
    };
    const realSetTimeout = global.setTimeout;
    const timers = jest.spyOn(global, 'setTimeout').mockImplementation(((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      if (ms === SELFGIT_TIMEOUT_MS && /outbound-http/.test(stackHere())) {
        deadlines.push(fn);
        return realSetTimeout(() => undefined, 2 ** 31 - 1).unref();
      }
      return realSetTimeout(() => fn(...args), ms);
    }) as typeof setTimeout);
    try {
      const answer = t.api.post('/selfgit-integration/verify', body({ baseUrl: silent.url }), owner.token);
      await until('the request at the silent server', () => silent.received() === 1);
      expect(deadlines).toHaveLength(1);
      deadlines[0]();
      const res = await answer;
      expect([res.status, res.body]).toEqual([400, { message: 'The selfgit server could not be reached: No answer within 10 s' }]);
    } finally {
      timers.mockRestore();
      await silent.close();
    }
  });

  it('a server that streams an endless answer: cut after 32 MiB, 400, nothing kept', async () => {
    const { owner } = await board();
    let streamed = 0;
    const chunk = Buffer.alloc(64 * 1024, 'y');
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('error', () => undefined);
      // Writes while the client reads; stops when the client hangs up (or far past the cap).
      const more = () => {
        while (!res.destroyed && streamed < 256 * 1024 * 1024) {
          streamed += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await t.api.post('/selfgit-integration/verify', body({ baseUrl }), owner.token);
      expect([res.status, res.body]).toEqual([400, { message: 'The selfgit server answered with more data than accepted' }]);
      // The client hung up soon after the cap instead of reading the whole stream.
      expect(streamed).toBeLessThan(128 * 1024 * 1024);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 60_000);

  it('needs workspace:manage_settings: of the named project, else of any workspace of the caller', async () => {
    const { owner, workspaceId, project } = await board();
    const member = await userWithRole(t, workspaceId, 'member');
    const admin = await userWithRole(t, workspaceId, 'admin');
    const stranger = await t.api.signUp();
    expect((await t.api.post('/selfgit-integration/verify', body(), member.token)).body).toEqual({ message: 'Insufficient permissions: workspace:manage_settings is needed' });
    expect((await t.api.post('/selfgit-integration/verify', body({ projectId: project.id }), member.token)).body).toEqual({
      message: 'Insufficient permissions: workspace:manage_settings is needed',
    });
    expect((await t.api.post('/selfgit-integration/verify', body({ projectId: project.id }), stranger.token)).body).toEqual({ message: 'Project not found' });
    expect((await t.api.post('/selfgit-integration/verify', body({ projectId: MISSING_ID }), owner.token)).body).toEqual({ message: 'Project not found' });
    expect((await t.api.post('/selfgit-integration/verify', body(), stranger.token)).body).toEqual({ message: 'Insufficient permissions: workspace:manage_settings is needed' });
    expect((await t.api.post('/selfgit-integration/verify', body({ projectId: project.id }), admin.token)).status).toBe(200);
    expect((await t.api.post('/selfgit-integration/verify', { ...body(), extra: 1 }, owner.token)).body).toEqual({ message: 'property extra should not exist' });
  });
});

describe('selfgit integration settings', () => {
  it('GET answers null before any; POST verifies, stores the token encrypted and answers the record', async () => {
    const { owner, project } = await board();
    const none = await t.api.get(`/selfgit-integration/project/${project.id}`, owner.token);
    expect([none.status, none.text]).toEqual([200, 'null']);

    const created = await t.api.post(`/selfgit-integration/project/${project.id}`, body({ baseUrl: `${git.url}/api/v1/` }), owner.token);
    expect(created.status).toBe(200);
    const rec = created.body;
    expect(Object.keys(rec)).toEqual([
      'id',
      'projectId',
      'baseUrl',
      'repositoryOwner',
      'repositoryName',
      'maskedAccessToken',
      'isActive',
      'createdAt',
      'updatedAt',
      'webhookUrl',
      'webhookSecret',
      'branchPattern',
      'commentTaskLinkOnSelfgitIssue',
    ]);
    expect(rec).toMatchObject({
      projectId: project.id,
      baseUrl: git.url,
      repositoryOwner: 'acme',
      repositoryName: 'website',
      maskedAccessToken: 'a1b2\u2022\u2022\u2022\u2022\u2022\u2022a9b0',
      isActive: true,
      webhookUrl: `${PUBLIC_API_URL}/api/selfgit-integration/webhook/${rec.id}`,
      branchPattern: '{slug}-{number}',
      commentTaskLinkOnSelfgitIssue: false,
    });
    expect(rec.webhookSecret).toMatch(/^[0-9a-f]{48}$/);

    const stored = await row(project.id);
    expect(stored.access_token).toMatch(/^v2:/);
    expect(stored.webhook_secret).toMatch(/^v2:/);
    expect(JSON.stringify(stored)).not.toContain(TOKEN);
    expect(JSON.stringify(stored)).not.toContain(rec.webhookSecret);

    expect((await t.api.get(`/selfgit-integration/project/${project.id}`, owner.token)).body).toEqual(rec);
  });

  it('the webhook secret is shown in clear to owners and admins only, and stays the same when the integration is replaced', async () => {
    const { owner, workspaceId, project } = await board();
    const admin = await userWithRole(t, workspaceId, 'admin');
    const member = await userWithRole(t, workspaceId, 'member');
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const first = (await t.api.post(`/selfgit-integration/project/${project.id}`, body({ repositoryName: newRepo() }), owner.token)).body;
    expect((await t.api.get(`/selfgit-integration/project/${project.id}`, admin.token)).body.webhookSecret).toBe(first.webhookSecret);
    for (const u of [member, viewer]) {
      const seen = (await t.api.get(`/selfgit-integration/project/${project.id}`, u.token)).body;
      expect(seen).toEqual({ ...first, webhookSecret: '' });
    }
    // A key of the owner limited to reading sees no secret either.
    const key = (await t.api.post('/auth/api-key/create', { permissions: { workspace: ['read'] } }, owner.token)).body.key;
    expect((await t.api.get(`/selfgit-integration/project/${project.id}`, key)).body.webhookSecret).toBe('');

    await t.api.patch(`/selfgit-integration/project/${project.id}`, { isActive: false, commentTaskLinkOnSelfgitIssue: true, branchPattern: 'task/{number}' }, owner.token);
    const other = newRepo();
    const replaced = await t.api.post(`/selfgit-integration/project/${project.id}`, body({ repositoryName: other }), admin.token);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      id: first.id,
      createdAt: first.createdAt,
      webhookSecret: first.webhookSecret,
      repositoryName: other,
      isActive: true,
      // Omitted fields go back to their defaults.
      branchPattern: '{slug}-{number}',
      commentTaskLinkOnSelfgitIssue: false,
    });
  });

  it('refuses what it cannot verify, and stores nothing', async () => {
    const { owner, project } = await board();
    for (const [over, message] of [
      [{ accessToken: 'wrong-token' }, 'The selfgit server refused the access token'],
      [{ repositoryName: 'nothing-here' }, 'Repository not found, or the token cannot see it.'],
      [{ accessToken: READ_TOKEN }, 'The access token lacks a permission on the repository: issues (write)'],
      [{ repositoryOwner: '..' }, 'repositoryOwner must contain only letters, digits, "-", "_" and "."'],
      [{ accessToken: 'has space' }, 'accessToken must contain only visible ASCII characters, no spaces'],
      [{ accessToken: 'tökén' }, 'accessToken must contain only visible ASCII characters, no spaces'],
      [{ branchPattern: 'no-number' }, 'branchPattern must contain {number} once, may contain {slug} once, and at most 100 characters'],
    ] as const) {
      const res = await t.api.post(`/selfgit-integration/project/${project.id}`, body(over), owner.token);
      expect([over, res.status, res.body]).toEqual([over, 400, { message }]);
    }
    expect(await row(project.id)).toBeUndefined();
  });

  it('PATCH changes the fields sent; unknown fields, null and a missing integration are refused', async () => {
    const { owner, project } = await board();
    expect((await t.api.patch(`/selfgit-integration/project/${project.id}`, { isActive: false }, owner.token)).body).toEqual({ message: 'Integration not found' });
    const rec = (await t.api.post(`/selfgit-integration/project/${project.id}`, body({ repositoryName: newRepo() }), owner.token)).body;
    const patched = await t.api.patch(`/selfgit-integration/project/${project.id}`, { commentTaskLinkOnSelfgitIssue: true, branchPattern: 'feature/{slug}_{number}' }, owner.token);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ ...rec, commentTaskLinkOnSelfgitIssue: true, branchPattern: 'feature/{slug}_{number}', updatedAt: expect.any(String) });
    for (const [b, message] of [
      [{ baseUrl: 'https://x.example' }, 'property baseUrl should not exist'],
      [{ isActive: null }, 'isActive must be a boolean value'],
      [{ branchPattern: '{number}-{number}' }, 'branchPattern must contain {number} once, may contain {slug} once, and at most 100 characters'],
    ] as const) {
      const res = await t.api.patch(`/selfgit-integration/project/${project.id}`, b, owner.token);
      expect([b, res.status, res.body]).toEqual([b, 400, { message }]);
    }
    expect((await t.api.patch(`/selfgit-integration/project/${project.id}`, {}, owner.token)).body).toEqual(patched.body);
  });

  it('a repository already linked by another active project: 409; free again once that one is inactive', async () => {
    const a = await board();
    const b = await board();
    const docs = newRepo();
    expect((await t.api.post(`/selfgit-integration/project/${a.project.id}`, body({ repositoryName: docs }), a.owner.token)).status).toBe(200);
    const taken = await t.api.post(`/selfgit-integration/project/${b.project.id}`, body({ repositoryName: docs.toUpperCase(), baseUrl: `${git.url}/` }), b.owner.token);
    expect([taken.status, taken.body]).toEqual([409, { message: 'This repository is already linked to another active project' }]);
    expect(await row(b.project.id)).toBeUndefined();

    expect((await t.api.patch(`/selfgit-integration/project/${a.project.id}`, { isActive: false }, a.owner.token)).status).toBe(200);
    expect((await t.api.post(`/selfgit-integration/project/${b.project.id}`, body({ repositoryName: docs }), b.owner.token)).status).toBe(200);
    const back = await t.api.patch(`/selfgit-integration/project/${a.project.id}`, { isActive: true }, a.owner.token);
    expect([back.status, back.body]).toEqual([409, { message: 'This repository is already linked to another active project' }]);
    expect((await row(a.project.id)).is_active).toBe(false);
  });

  it('DELETE removes it; members cannot write; other workspaces see nothing', async () => {
    const { owner, workspaceId, project } = await board();
    const member = await userWithRole(t, workspaceId, 'member');
    const stranger = await t.api.signUp();
    expect((await t.api.post(`/selfgit-integration/project/${project.id}`, body(), member.token)).body).toEqual({
      message: 'Insufficient permissions: workspace:manage_settings is needed',
    });
    expect((await t.api.post(`/selfgit-integration/project/${project.id}`, body({ repositoryName: newRepo() }), owner.token)).status).toBe(200);
    expect((await t.api.get(`/selfgit-integration/project/${project.id}`, stranger.token)).body).toEqual({ message: 'Project not found' });
    expect((await t.api.delete(`/selfgit-integration/project/${project.id}`, member.token)).body).toEqual({
      message: 'Insufficient permissions: workspace:manage_settings is needed',
    });
    expect((await t.api.delete(`/selfgit-integration/project/${project.id}`, owner.token)).body).toEqual({ success: true });
    expect((await t.api.delete(`/selfgit-integration/project/${project.id}`, owner.token)).body).toEqual({ message: 'Integration not found' });
    expect(await row(project.id)).toBeUndefined();
  });
});

describe('the destination guard', () => {
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await startTestApp({ APP_ROLES: 'api', ALLOW_PRIVATE_DESTINATIONS: 'false' });
  });
  afterAll(() => guarded?.close());

  it('refuses a base URL on a private address, for verify and create, before any request leaves', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(guarded);
    const project = await createProject(guarded, owner.token, workspaceId);
    const before = git.requests.length;
    for (const path of ['/selfgit-integration/verify', `/selfgit-integration/project/${project.id}`]) {
      const res = await guarded.api.post(path, body(), owner.token);
      expect([path, res.status, res.body]).toEqual([path, 400, { message: 'Webhook destination resolves to a non-routable address' }]);
    }
    expect(git.requests.length).toBe(before);
  });
});
