import { connect } from 'node:net';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';

const CLIENT_ORIGIN = 'https://app.example';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({ CLIENT_URL: `${CLIENT_ORIGIN}/` });
  token = (await t.api.signUp()).token;
});
afterAll(() => t?.close());

/** Workspaces in the database; the file's tests run one at a time, so a difference is theirs. */
const workspaces = async () => (await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM workspace`))[0].n as number;

describe('the error contract (decisions §1)', () => {
  it('malformed JSON → 400 Invalid JSON body, nothing created', async () => {
    const before = await workspaces();
    const res = await t.api.request('POST', '/auth/organization/create', undefined, { token, raw: '{"name": "x",' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Invalid JSON body' });
    expect(await workspaces()).toBe(before);
  });

  it("requests Node's parser refuses get {message} too: header fields over 16 KiB → 431, a malformed request line → 400", async () => {
    const { port } = new URL(t.url);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
        let got = '';
        socket.on('data', (d) => (got += d.toString('utf8')));
        socket.on('end', () => resolve(got));
        socket.on('error', reject);
      });
    const big = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4))).toEqual({ message: 'Request header fields too large' });
    const bad = await raw('NOT A REQUEST\r\n\r\n');
    expect(bad.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(bad.slice(bad.indexOf('\r\n\r\n') + 4))).toEqual({ message: 'Malformed HTTP request' });
  });

  it('a body over 1 MiB → 413 {message}', async () => {
    const big = JSON.stringify({ name: 'x', description: 'y'.repeat(1024 * 1024 + 10) });
    const res = await t.api.request('POST', '/auth/organization/create', undefined, { token, raw: big });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Request body too large' });
  });

  it('unknown properties are rejected with 400 and nothing changes', async () => {
    const before = await workspaces();
    const res = await t.api.post('/auth/organization/create', { name: 'x', isAdmin: true, id: 'mine' }, token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'property isAdmin should not exist, property id should not exist' });
    expect(await workspaces()).toBe(before);
  });

  it('validation messages name the field; nested fields get their path', async () => {
    const res = await t.api.post('/auth/organization/create', { name: 42 }, token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'name must be longer than or equal to 1 and shorter than or equal to 100 characters, name must be a string' });
    const ws = await t.api.createWorkspace(token);
    const nested = await t.api.post('/auth/organization/update', { organizationId: ws.id, data: { slug: 'Not A Slug' } }, token);
    expect(nested.status).toBe(400);
    expect(nested.body).toEqual({ message: 'data.slug must contain only lower-case letters, digits and dashes' });
    const extra = await t.api.post('/auth/organization/update', { organizationId: ws.id, data: { owner: 'me' } }, token);
    expect(extra.status).toBe(400);
    expect(extra.body).toEqual({ message: 'property owner should not exist' });
  });

  it('malformed and unknown ids are 404, never a database cast error', async () => {
    for (const id of ['not-a-uuid', "1' OR '1'='1", '00000000-0000-0000-0000-000000000000']) {
      const res = await t.api.get(`/auth/organization/get-full-organization?organizationId=${encodeURIComponent(id)}`, token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Workspace not found' });
    }
  });

  it('an unknown route is a JSON 404', async () => {
    const res = await t.api.get('/no/such/route', token);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ message: 'Cannot GET /api/no/such/route' });
  });

  it('every error body has exactly one key, message', async () => {
    const cases = await Promise.all([t.api.get('/auth/api-key/list'), t.api.post('/auth/sign-in/email', {}), t.api.post('/auth/organization/delete', {}, token)]);
    expect(cases.map((res) => [res.status, res.body])).toEqual([
      [401, { message: 'Unauthorized' }],
      [
        400,
        {
          message:
            'email must be shorter than or equal to 254 characters, email must be a string, password must be shorter than or equal to 128 characters, password must be a string',
        },
      ],
      [400, { message: 'organizationId is required' }],
    ]);
  });

  it('a server fault answers only Internal server error, with a request id, and leaks no SQL', async () => {
    // Break the table behind the route in this test's own database.
    await sql(t.databaseUrl, `ALTER TABLE workspace RENAME TO workspace_broken`);
    try {
      const res = await t.api.get('/auth/organization/list', token, { headers: { 'x-request-id': 'trace-me-123' } });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ message: 'Internal server error' });
      expect(res.headers.get('x-request-id')).toBe('trace-me-123');
      expect(res.text).not.toMatch(/relation|workspace|SELECT/i);
    } finally {
      await sql(t.databaseUrl, `ALTER TABLE workspace_broken RENAME TO workspace`);
    }
  });

  it('sets security headers and a request id on every response', async () => {
    const res = await t.api.get('/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers CORS preflights from the client's origin", async () => {
    const res = await fetch(`${t.url}/auth/organization/list`, {
      method: 'OPTIONS',
      headers: { origin: CLIENT_ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe(CLIENT_ORIGIN);
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization');
  });
});
