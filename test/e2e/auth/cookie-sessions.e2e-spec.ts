import { randomBytes } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';
import { nearMissOrigins } from '../../support/near-misses';

const SERVICE = 'https://tandem.example.test';
const CROSS_ORIGIN = 'Cross-origin request refused: a change signed in with the session cookie must come from this service or CLIENT_URL';
const CLIENT = 'https://app.example.test';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ PUBLIC_API_URL: SERVICE, CLIENT_URL: CLIENT });
});
afterAll(() => t?.close());

/** The session cookie's Set-Cookie of an answer, or undefined. */
const sessionSetCookie = (headers: Headers): string | undefined => headers.getSetCookie().find((c) => c.startsWith('tandem_session='));
/** The Cookie header a browser would send back. */
const cookieOf = (setCookie: string | undefined): string => setCookie!.split(';')[0];

async function signIn(): Promise<{ token: string; cookie: string; setCookie: string; userId: string }> {
  const email = `c${randomBytes(5).toString('hex')}@example.test`;
  await t.api.post('/auth/sign-up/email', { name: 'Cookie', email, password: 'longenough1' });
  const res = await t.api.post('/auth/sign-in/email', { email, password: 'longenough1' });
  expect(res.status).toBe(200);
  const setCookie = sessionSetCookie(res.headers)!;
  return { token: res.body.token, cookie: cookieOf(setCookie), setCookie, userId: res.body.user.id };
}

describe('cookie sessions', () => {
  it('sign-up and sign-in set an HttpOnly, SameSite=Lax session cookie for the whole service, Secure over https, as long as the session', async () => {
    const up = await t.api.post('/auth/sign-up/email', { name: 'Ada', email: `a${randomBytes(5).toString('hex')}@example.test`, password: 'longenough1' });
    const upCookie = sessionSetCookie(up.headers);
    expect(upCookie).toBe(`tandem_session=${up.body.token}; Path=/; Max-Age=${7 * 24 * 3600}; HttpOnly; SameSite=Lax; Secure`);
    const { token, setCookie } = await signIn();
    expect(setCookie).toBe(`tandem_session=${token}; Path=/; Max-Age=${7 * 24 * 3600}; HttpOnly; SameSite=Lax; Secure`);
  });

  it('the cookie alone authenticates a read', async () => {
    const { cookie, userId } = await signIn();
    const res = await t.api.get('/auth/get-session', undefined, { headers: { cookie } });
    expect([res.status, res.body.user?.id]).toEqual([200, userId]);
    // A cookie that names no session: signed out. get-session says so with null (and clears it); other routes refuse it.
    const stale = await t.api.get('/auth/get-session', undefined, { headers: { cookie: 'tandem_session=not-a-token' } });
    expect([stale.status, stale.text, sessionSetCookie(stale.headers)]).toEqual([200, 'null', 'tandem_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure']);
    expect((await t.api.get('/auth/api-key/list', undefined, { headers: { cookie: 'tandem_session=not-a-token' } })).status).toBe(401);
  });

  it('signed out, get-session answers null; a bearer token or API key that is not valid is still 401', async () => {
    const none = await t.api.get('/auth/get-session');
    expect([none.status, none.headers.get('content-type'), none.text]).toEqual([200, 'application/json; charset=utf-8', 'null']);
    expect(sessionSetCookie(none.headers)).toBeUndefined();
    for (const token of ['not-a-token', 'tdm_not-a-key', 'eyJhbGciOiJIUzI1NiJ9.e30.x']) {
      const res = await t.api.get('/auth/get-session', token);
      expect([token, res.status, res.body]).toEqual([token, 401, { message: 'Unauthorized' }]);
    }
    const key = await t.api.get('/auth/get-session', undefined, { headers: { 'x-api-key': 'tdm_not-a-key' } });
    expect([key.status, key.body]).toEqual([401, { message: 'Unauthorized' }]);
  });

  it("a change signed in with the cookie must come from the service's origin or CLIENT_URL", async () => {
    const { cookie } = await signIn();
    const create = (headers: Record<string, string>) =>
      t.api.post('/auth/organization/create', { name: `WS ${randomBytes(3).toString('hex')}` }, undefined, { headers: { cookie, ...headers } });

    for (const headers of <Record<string, string>[]>[
      {},
      { origin: 'https://evil.example.test' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ]) {
      const refused = await create(headers);
      expect([JSON.stringify(headers), refused.status, refused.body]).toEqual([JSON.stringify(headers), 403, { message: CROSS_ORIGIN }]);
    }
    // Nothing was created by the refused requests.
    const list = await t.api.get('/auth/organization/list', undefined, { headers: { cookie } });
    expect([list.status, list.body]).toEqual([200, []]);

    for (const headers of <Record<string, string>[]>[{ origin: SERVICE }, { origin: CLIENT }, { 'sec-fetch-site': 'same-origin' }]) {
      expect([JSON.stringify(headers), (await create(headers)).status]).toEqual([JSON.stringify(headers), 200]);
    }
    expect((await t.api.get('/auth/organization/list', undefined, { headers: { cookie } })).body).toHaveLength(3);
    // The origin the request was sent to (the web app the service serves, by whatever name it is reached), not a neighbour's.
    const own = new URL(t.url).origin;
    expect((await create({ origin: own })).status).toBe(200);
    expect((await create({ origin: own.replace(/:(\d+)$/, (_m, p: string) => `:${Number(p) + 1}`) })).status).toBe(403);
  });

  it('a near miss of an allowed origin is refused like any other origin, and the change is not made', async () => {
    const { cookie } = await signIn();
    // The request is sent to the service's real address: its origin is the third one allowed.
    const own = new URL(t.url).origin;
    for (const allowed of [SERVICE, CLIENT, own]) {
      for (const [what, origin] of nearMissOrigins(allowed)) {
        const res = await t.api.post('/auth/organization/create', { name: `WS ${randomBytes(3).toString('hex')}` }, undefined, { headers: { cookie, origin } });
        expect([allowed, what, origin, res.status, res.body]).toEqual([allowed, what, origin, 403, { message: CROSS_ORIGIN }]);
      }
    }
    const list = await t.api.get('/auth/organization/list', undefined, { headers: { cookie } });
    expect([list.status, list.body]).toEqual([200, []]);
    // Sign-out is a change too: a near miss does not end the session.
    const out = await t.api.post('/auth/sign-out', undefined, undefined, { headers: { cookie, origin: `${CLIENT}.evil.test` } });
    expect([out.status, out.body]).toEqual([403, { message: CROSS_ORIGIN }]);
    expect((await t.api.get('/auth/get-session', undefined, { headers: { cookie } })).status).toBe(200);
  });

  it('a bearer token or an API key needs no origin, and wins over a cookie', async () => {
    const a = await signIn();
    const b = await signIn();
    const created = await t.api.post('/auth/organization/create', { name: 'Bearer WS' }, a.token, { headers: { cookie: b.cookie, origin: 'https://evil.example.test' } });
    expect(created.status).toBe(200);
    const session = await t.api.get('/auth/get-session', a.token, { headers: { cookie: b.cookie } });
    expect(session.body.user.id).toBe(a.userId);

    const key = await t.api.post('/auth/api-key/create', { name: 'cli' }, a.token);
    expect(key.status).toBe(200);
    // An API key never becomes a cookie.
    expect(sessionSetCookie(key.headers)).toBeUndefined();
    const withKey = await t.api.post('/auth/organization/create', { name: 'Key WS' }, undefined, { headers: { 'x-api-key': key.body.key, origin: 'https://evil.example.test' } });
    expect(withKey.status).toBe(200);
  });

  it('sign-out ends the session and clears the cookie; a cookie whose session ended is refused and cleared', async () => {
    const { cookie } = await signIn();
    const out = await t.api.post('/auth/sign-out', undefined, undefined, { headers: { cookie, origin: CLIENT } });
    expect(out.status).toBe(200);
    expect(sessionSetCookie(out.headers)).toBe('tandem_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure');
    const after = await t.api.get('/auth/api-key/list', undefined, { headers: { cookie } });
    expect(after.status).toBe(401);
    expect(sessionSetCookie(after.headers)).toBe('tandem_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure');
    const session = await t.api.get('/auth/get-session', undefined, { headers: { cookie } });
    expect([session.status, session.text, sessionSetCookie(session.headers)]).toEqual([200, 'null', 'tandem_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure']);
  });

  it('revoking the session from another one ends the cookie too', async () => {
    const browser = await signIn();
    const sessions = await t.api.get('/auth/list-sessions', browser.token);
    expect(sessions.status).toBe(200);
    const other = await t.api.post('/auth/sign-in/email', { email: (await t.api.get('/auth/get-session', browser.token)).body.user.email, password: 'longenough1' });
    const ownId = (await t.api.get('/auth/get-session', undefined, { headers: { cookie: browser.cookie } })).body.session.id;
    const revoked = await t.api.post('/auth/revoke-session', { id: ownId }, other.body.token);
    expect(revoked.status).toBe(200);
    expect((await t.api.get('/auth/list-sessions', undefined, { headers: { cookie: browser.cookie } })).status).toBe(401);
    expect((await t.api.get('/auth/get-session', undefined, { headers: { cookie: browser.cookie } })).text).toBe('null');
  });
});

describe('over plain http', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await startTestApp({ PUBLIC_API_URL: 'http://localhost:3000' });
  });
  afterAll(() => plain?.close());

  it('the cookie is not marked Secure', async () => {
    const res = await plain.api.post('/auth/sign-up/email', { name: 'Ada', email: `p${randomBytes(5).toString('hex')}@example.test`, password: 'longenough1' });
    expect(sessionSetCookie(res.headers)).toBe(`tandem_session=${res.body.token}; Path=/; Max-Age=${7 * 24 * 3600}; HttpOnly; SameSite=Lax`);
  });
});
