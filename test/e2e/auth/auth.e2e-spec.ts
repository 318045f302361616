import { randomBytes } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('sign-up / sign-in / sign-out', () => {
  it('signs up, answers a token in body and header, and the token works', async () => {
    const email = `Mixed.Case${randomBytes(4).toString('hex')}@Example.test`;
    const before = Date.now();
    const res = await t.api.post('/auth/sign-up/email', { name: 'Ada', email, password: 'longenough1' });
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
    expect(res.headers.get('set-auth-token')).toBe(res.body.token);
    expect(res.body.user).toEqual({
      id: expect.any(String),
      name: 'Ada',
      email: email.toLowerCase(),
      emailVerified: false,
      image: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const session = await t.api.get('/auth/get-session', res.body.token);
    expect(session.status).toBe(200);
    expect(session.body.user.id).toBe(res.body.user.id);
    expect(session.body.session).toEqual({
      id: expect.any(String),
      userId: res.body.user.id,
      expiresAt: expect.any(String),
      activeOrganizationId: null,
    });
    // 7 days from the moment of sign-up
    const expiresAt = new Date(session.body.session.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 7 * 24 * 3600e3);
    expect(expiresAt).toBeLessThanOrEqual(after + 7 * 24 * 3600e3);
  });

  it('stores the password with a slow KDF, never in clear', async () => {
    const u = await t.api.signUp({ password: 'my secret password' });
    const [row] = await sql(t.databaseUrl, `SELECT password_hash FROM "user" WHERE id = $1`, [u.user.id]);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain('my secret password');
  });

  it('refuses a duplicate email (case-insensitive) with 409', async () => {
    const u = await t.api.signUp();
    const res = await t.api.post('/auth/sign-up/email', { name: 'B', email: u.user.email.toUpperCase(), password: 'longenough1' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'User already exists' });
  });

  it('validates sign-up input', async () => {
    const short = await t.api.post('/auth/sign-up/email', { name: 'B', email: 'b@example.test', password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ message: 'password must be at least 8 characters' });
    const long = await t.api.post('/auth/sign-up/email', { name: 'B', email: 'b@example.test', password: 'x'.repeat(129) });
    expect(long.status).toBe(400);
    const email = await t.api.post('/auth/sign-up/email', { name: 'B', email: 'not-an-email', password: 'longenough1' });
    expect(email.status).toBe(400);
    expect(email.body.message).toContain('email must be a valid email address');
  });

  it('signs in with the right password only', async () => {
    const u = await t.api.signUp({ password: 'right password' });
    const ok = await t.api.post('/auth/sign-in/email', { email: u.user.email, password: 'right password' });
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(u.user.id);
    expect(ok.headers.get('set-auth-token')).toBe(ok.body.token);
    const bad = await t.api.post('/auth/sign-in/email', { email: u.user.email, password: 'wrong password' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ message: 'Invalid email or password' });
    const unknown = await t.api.post('/auth/sign-in/email', { email: 'nobody@example.test', password: 'whatever1' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: 'Invalid email or password' });
  });

  it('sign-out revokes the token at once, other sessions keep working', async () => {
    const u = await t.api.signUp();
    const second = await t.api.post('/auth/sign-in/email', { email: u.user.email, password: u.password });
    expect((await t.api.get('/auth/get-session', u.token)).status).toBe(200);
    const out = await t.api.post('/auth/sign-out', undefined, u.token);
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    const after = await t.api.get('/auth/get-session', u.token);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: 'Unauthorized' });
    expect((await t.api.get('/auth/get-session', second.body.token)).status).toBe(200);
  });

  it('rejects missing, malformed, forged and expired tokens with 401', async () => {
    const u = await t.api.signUp();
    // No token at all: get-session answers null (signed out); a route that needs one, 401.
    expect((await t.api.get('/auth/get-session')).text).toBe('null');
    expect((await t.api.get('/auth/api-key/list')).status).toBe(401);
    expect((await t.api.get('/auth/get-session', 'garbage')).status).toBe(401);
    const [h, p] = u.token.split('.');
    expect((await t.api.get('/auth/get-session', `${h}.${p}.forgedsignature`)).status).toBe(401);
    // alg=none must never be accepted
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect((await t.api.get('/auth/get-session', `${none}.${p}.`)).status).toBe(401);
    // an expired session row
    await sql(t.databaseUrl, `UPDATE session SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [u.user.id]);
    expect((await t.api.get('/auth/get-session', u.token)).status).toBe(401);
  });

  it('makes the first user the instance admin and nobody after', async () => {
    // An instance of its own: "first" means the first user of an empty database.
    const fresh = await startTestApp();
    try {
      const first = await fresh.api.signUp();
      const second = await fresh.api.signUp();
      const third = await fresh.api.signUp();
      const rows = await sql(fresh.databaseUrl, `SELECT id, is_instance_admin FROM "user" ORDER BY created_at ASC`);
      expect(rows).toEqual([
        { id: first.user.id, is_instance_admin: true },
        { id: second.user.id, is_instance_admin: false },
        { id: third.user.id, is_instance_admin: false },
      ]);
    } finally {
      await fresh.close();
    }
  });
});

describe('API keys', () => {
  it('creates a key shown once, stored hashed, usable as Bearer or x-api-key; delete revokes it', async () => {
    const u = await t.api.signUp();
    const created = await t.api.post('/auth/api-key/create', { name: 'ci' }, u.token);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'ci',
      start: created.body.key.slice(0, 10),
      key: expect.stringMatching(/^tdm_/),
      permissions: null,
      parentKeyId: null,
      createdAt: expect.any(String),
      expiresAt: null,
    });
    const [row] = await sql(t.databaseUrl, `SELECT key_hash FROM api_key WHERE id = $1`, [created.body.id]);
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.key_hash).not.toContain(created.body.key);

    const viaBearer = await t.api.get('/auth/get-session', created.body.key);
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.body.user.id).toBe(u.user.id);
    const viaHeader = await t.api.get('/auth/organization/list', undefined, { headers: { 'x-api-key': created.body.key } });
    expect(viaHeader.status).toBe(200);

    const list = await t.api.get('/auth/api-key/list', u.token);
    expect(list.body).toHaveLength(1);
    expect(list.body[0].key).toBeUndefined();
    expect(list.body[0].id).toBe(created.body.id);

    const other = await t.api.signUp();
    const foreign = await t.api.post('/auth/api-key/delete', { keyId: created.body.id }, other.token);
    expect(foreign.status).toBe(404);

    const del = await t.api.post('/auth/api-key/delete', { keyId: created.body.id }, u.token);
    expect(del.body).toEqual({ success: true });
    expect((await t.api.get('/auth/get-session', created.body.key)).status).toBe(401);
  });

  it('an expired key stops working', async () => {
    const u = await t.api.signUp();
    const before = Date.now();
    const created = await t.api.post('/auth/api-key/create', { expiresIn: 60 }, u.token);
    const after = Date.now();
    expect(created.status).toBe(200);
    const expiresAt = new Date(created.body.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 60_000);
    expect(expiresAt).toBeLessThanOrEqual(after + 60_000);
    expect((await t.api.get('/auth/get-session', created.body.key)).status).toBe(200);
    await sql(t.databaseUrl, `UPDATE api_key SET expires_at = now() - interval '1 second' WHERE id = $1`, [created.body.id]);
    expect((await t.api.get('/auth/get-session', created.body.key)).status).toBe(401);
  });

  it('a scoped key can do no more than its permissions', async () => {
    const u = await t.api.signUp();
    const ws = await t.api.createWorkspace(u.token);
    const key = (await t.api.post('/auth/api-key/create', { permissions: { workspace: ['read'] } }, u.token)).body.key;
    const read = await t.api.get(`/auth/organization/get-full-organization?organizationId=${ws.id}`, key);
    expect(read.status).toBe(200);
    const write = await t.api.post('/auth/organization/update', { organizationId: ws.id, data: { name: 'Renamed' } }, key);
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ message: 'Insufficient API key scope' });
    // creating a workspace is outside every scope, so a scoped key cannot do it; an unscoped key can
    const create = await t.api.post('/auth/organization/create', { name: 'By a scoped key' }, key);
    expect(create.status).toBe(403);
    expect(create.body).toEqual({ message: 'Insufficient API key scope' });
    const full = (await t.api.post('/auth/api-key/create', {}, u.token)).body.key;
    expect((await t.api.post('/auth/organization/create', { name: 'By a full key' }, full)).status).toBe(200);
    const bad = await t.api.post('/auth/api-key/create', { permissions: { spaceship: ['fly'] } }, u.token);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'The provided permission includes an invalid resource' });
  });
});

describe('registration switch and rate limits', () => {
  it('DISABLE_REGISTRATION closes sign-up', async () => {
    const closed = await startTestApp({ DISABLE_REGISTRATION: 'true' });
    try {
      const res = await closed.api.post('/auth/sign-up/email', { name: 'X', email: 'x@example.test', password: 'longenough1' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: 'Registration is disabled' });
      const none = await sql(closed.databaseUrl, `SELECT count(*)::int AS n FROM "user"`);
      expect(none[0].n).toBe(0);
    } finally {
      await closed.close();
    }
  });

  it('limits sign-in attempts per client with 429 and Retry-After', async () => {
    // An instance of its own, so the count starts at zero whatever ran before.
    const limited = await startTestApp({ RATE_LIMIT_AUTH: '3' });
    try {
      const statuses: number[] = [];
      let last: any;
      for (let i = 0; i < 4; i++) {
        last = await limited.api.post('/auth/sign-in/email', { email: 'x@example.test', password: 'whatever1' });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      expect(last.body).toEqual({ message: 'Too many requests' });
      const retry = Number(last.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
    } finally {
      await limited.close();
    }
  });
});
