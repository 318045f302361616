import { createHash, randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { CryptoService } from '../../../src/common/crypto/crypto.service';
import { AppConfig } from '../../../src/config/app-config';
import { runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { nearMissUrls } from '../../support/near-misses';
import { freePort, loginAtProvider, ProviderUser, startOidcProvider, TestOidcProvider } from '../../support/oidc-provider';

// The app's public address as the provider and the browser know it. The test plays the browser
// (and the reverse proxy in front of the app): it stops at the provider's redirect to this address
// and replays that request to the app's real port.
const PUBLIC_API_URL = 'https://api.tandem.test';
const CLIENT_URL = 'https://app.tandem.test';
const REDIRECT_URI = `${PUBLIC_API_URL}/api/auth/oauth2/callback/custom`;

let provider: TestOidcProvider;
let t: TestApp;
let redis: Redis;

const ENCRYPTION_KEY = randomBytes(32).toString('hex');
// The app's cipher, so the test can read what the app stored.
const crypto = new CryptoService({ encryptionKey: Buffer.from(ENCRYPTION_KEY, 'hex') } as AppConfig);

const oauthEnv = (p: TestOidcProvider, extra: Record<string, string> = {}) => ({
  ENCRYPTION_KEY,
  CUSTOM_OAUTH_ISSUER: p.issuer,
  CUSTOM_OAUTH_CLIENT_ID: p.clientId,
  CUSTOM_OAUTH_CLIENT_SECRET: p.clientSecret,
  CUSTOM_OAUTH_SCOPES: 'openid email profile offline_access',
  PUBLIC_API_URL,
  CLIENT_URL,
  ...extra,
});

beforeAll(async () => {
  provider = await startOidcProvider({ redirectUri: REDIRECT_URI });
  t = await startTestApp(oauthEnv(provider));
  redis = new Redis(runRedisUrl());
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
  redis?.disconnect();
});

/** A provider account (login = sub) with a fresh email. */
function providerUser(fields: Partial<ProviderUser> = {}, users = provider.users): { login: string } & ProviderUser {
  const login = `p${randomBytes(5).toString('hex')}`;
  const u = { email: `${login}@idp.test`, emailVerified: true, name: 'Provider Person', ...fields };
  users.set(login, u);
  return { login, ...u };
}

/**
 * One browser's cookies for the app: the flows' binding cookies (set at authorize, cleared at
 * callback). Each test makes its own browsers, so no test sees another's cookies.
 */
class Browser {
  readonly cookies = new Map<string, string>();

  keep(headers: Headers): void {
    for (const c of headers.getSetCookie()) {
      const pair = c.split(';')[0];
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      if (/;\s*Max-Age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(i + 1).trim());
    }
  }

  headers(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }
}

async function authorize(app: TestApp, browser: Browser, opts: { token?: string; callbackURL?: string } = {}) {
  const q = opts.callbackURL !== undefined ? `?callbackURL=${encodeURIComponent(opts.callbackURL)}` : '';
  const res = await app.api.get(`/auth/oauth2/authorize/custom${q}`, opts.token);
  if (res.status !== 302) throw new Error(`authorize: ${res.status} ${res.text}`);
  browser.keep(res.headers);
  return new URL(res.headers.get('location')!);
}

/** The app's callback, as `browser` would call it after the provider's redirect, with its cookies. */
async function callback(app: TestApp, redirect: URL | string, browser: Browser) {
  const res = await app.api.get(`/auth/oauth2/callback/custom${typeof redirect === 'string' ? redirect : redirect.search}`, undefined, { headers: browser.headers() });
  browser.keep(res.headers);
  return res;
}

/** The whole flow in one fresh browser: authorize → login at the provider → callback. */
async function signInWithProvider(app: TestApp, login: string, opts: { token?: string; callbackURL?: string } = {}) {
  const browser = new Browser();
  const authUrl = await authorize(app, browser, opts);
  const redirect = await loginAtProvider(authUrl.href, login, REDIRECT_URI);
  return { authUrl, redirect, res: await callback(app, redirect, browser) };
}

/** OpenID Connect Core §3.1.3.6: the left half of the SHA-256 of the access token, base64url (RS256). */
const atHash = (accessToken: string) => createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');

const jwks = () => createRemoteJWKSet(new URL(`${provider.issuer}/jwks`));

describe('custom OAuth sign-in', () => {
  it('redirects to the provider with state, nonce and PKCE (S256), and keeps the state in Redis for a while', async () => {
    const before = Date.now();
    const url = await authorize(t, new Browser());
    expect(url.origin).toBe(provider.issuer);
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(provider.clientId);
    expect(q.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(q.get('scope')).toBe('openid email profile offline_access');
    expect(q.get('prompt')).toBe('consent'); // offline_access needs it (OIDC Core §11)
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')).toMatch(/^[\w-]{40,}$/);
    expect(q.get('nonce')).toMatch(/^[\w-]{40,}$/);
    const key = `${t.queuePrefix}:oauth:state:${q.get('state')}`;
    const ttl = await redis.pttl(key);
    const elapsed = Date.now() - before;
    // 10 minutes from when it was stored, somewhere in the last `elapsed` ms
    expect(ttl).toBeGreaterThanOrEqual(10 * 60_000 - elapsed);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
    const stored = JSON.parse((await redis.get(key))!);
    expect(stored).toEqual({
      codeVerifier: expect.any(String),
      nonce: q.get('nonce'),
      callbackURL: null,
      linkUserId: null,
      linkSessionId: null,
      browserBinding: expect.any(String),
    });
  });

  it('signs a new user in, stores the provider account encrypted, and serves a verifiable id token', async () => {
    const p = providerUser({ name: 'Grace Hopper' });
    const before = Math.floor(Date.now() / 1000);
    const { authUrl, res } = await signInWithProvider(t, p.login);
    const after = Math.ceil(Date.now() / 1000);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      token: expect.any(String),
      user: { id: expect.any(String), name: 'Grace Hopper', email: p.email, emailVerified: true, image: null, createdAt: expect.any(String), updatedAt: expect.any(String) },
    });
    expect(res.headers.get('set-auth-token')).toBe(res.body.token);
    // The browser's session cookie holds the same session.
    expect(res.headers.getSetCookie().find((c) => c.startsWith('tandem_session='))).toMatch(
      new RegExp(`^tandem_session=${res.body.token}; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Lax`),
    );
    const session = await t.api.get('/auth/get-session', res.body.token);
    expect(session.status).toBe(200);
    expect(session.body.user.id).toBe(res.body.user.id);

    const [user] = await sql(t.databaseUrl, `SELECT email_verified, password_hash FROM "user" WHERE id = $1`, [res.body.user.id]);
    expect(user).toEqual({ email_verified: true, password_hash: null });
    const accounts = await sql(t.databaseUrl, `SELECT * FROM account WHERE user_id = $1`, [res.body.user.id]);
    expect(accounts).toHaveLength(1);
    const a = accounts[0];
    expect(a.provider_id).toBe('custom');
    expect(a.account_id).toBe(p.login);
    expect(a.scope).toContain('openid');
    // The id token's own expiry; the access token's from its expires_in (the provider's TTL, 1 h).
    const stored = decodeJwt(crypto.decrypt(a.id_token));
    expect(a.id_token_expires_at.getTime()).toBe(stored.exp! * 1000);
    expect(stored.exp! - stored.iat!).toBe(3600);
    expect(a.access_token_expires_at.getTime() / 1000).toBeGreaterThanOrEqual(before + 3600);
    expect(a.access_token_expires_at.getTime() / 1000).toBeLessThanOrEqual(after + 3600);
    for (const col of ['id_token', 'access_token', 'refresh_token']) {
      expect(a[col]).toMatch(/^v2:[0-9a-f]{8}:/); // CryptoService ciphertext, never the token itself
      expect(a[col]).not.toMatch(/^ey/);
    }

    const id = await t.api.get('/oauth/id-token', res.body.token);
    expect(id.status).toBe(200);
    expect(id.body).toEqual({ idToken: expect.any(String) });
    const { payload } = await jwtVerify(id.body.idToken, jwks(), { issuer: provider.issuer, audience: provider.clientId });
    expect(payload.sub).toBe(p.login);
    expect(payload.nonce).toBe(authUrl.searchParams.get('nonce'));
    // This provider keeps profile claims out of the id token (OIDC Core §5.4): the email and name
    // above came from its userinfo endpoint.
    expect(payload.email).toBeUndefined();
  });

  it('signs the same provider account in as the same user the second time', async () => {
    const p = providerUser();
    const first = await signInWithProvider(t, p.login);
    const second = await signInWithProvider(t, p.login);
    expect(second.res.status).toBe(200);
    expect(second.res.body.user.id).toBe(first.res.body.user.id);
    expect(second.res.body.token).not.toBe(first.res.body.token);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM "user" WHERE email = $1`, [p.email])).toHaveLength(1);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM account WHERE account_id = $1`, [p.login])).toHaveLength(1);
  });

  it('links to an existing user with the same email when the provider has verified it, and drops the unproven credentials', async () => {
    // Someone registered this address with a password without ever proving they own it.
    const local = await t.api.signUp();
    const key = (await t.api.post('/auth/api-key/create', { name: 'pre-registered' }, local.token)).body.key;
    const p = providerUser({ email: local.user.email.toUpperCase() });
    const { res } = await signInWithProvider(t, p.login);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(local.user.id);
    const [row] = await sql(t.databaseUrl, `SELECT email_verified, password_hash FROM "user" WHERE id = $1`, [local.user.id]);
    expect(row).toEqual({ email_verified: true, password_hash: null });
    // the password, the old session and the old API key stop working; the provider's sign-in works
    const pw = await t.api.post('/auth/sign-in/email', { email: local.user.email, password: local.password });
    expect(pw.status).toBe(401);
    expect((await t.api.get('/auth/get-session', local.token)).status).toBe(401);
    expect((await t.api.get('/auth/get-session', key)).status).toBe(401);
    expect((await t.api.get('/auth/get-session', res.body.token)).status).toBe(200);
  });

  it('links to a password user who verified the email, keeping the password, sessions and API keys', async () => {
    const local = await t.api.signUp();
    const key = (await t.api.post('/auth/api-key/create', { name: 'kept' }, local.token)).body.key;
    // What GET /auth/verify-email sets (test/e2e/auth/accounts.e2e-spec.ts follows the real email there).
    await sql(t.databaseUrl, `UPDATE "user" SET email_verified = true WHERE id = $1`, [local.user.id]);
    const p = providerUser({ email: local.user.email });
    const { res } = await signInWithProvider(t, p.login);
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual(expect.objectContaining({ id: local.user.id, emailVerified: true }));
    expect(await sql(t.databaseUrl, `SELECT account_id FROM account WHERE user_id = $1`, [local.user.id])).toEqual([{ account_id: p.login }]);
    expect((await t.api.post('/auth/sign-in/email', { email: local.user.email, password: local.password })).status).toBe(200);
    expect((await t.api.get('/auth/get-session', local.token)).status).toBe(200);
    expect((await t.api.get('/auth/get-session', key)).status).toBe(200);
  });

  it('refuses an email the provider has not verified, for a new user and for an existing one (403)', async () => {
    const fresh = providerUser({ emailVerified: false });
    const a = await signInWithProvider(t, fresh.login);
    expect(a.res.status).toBe(403);
    expect(a.res.body).toEqual({ message: 'The OAuth provider has not verified this email address' });
    expect(await sql(t.databaseUrl, `SELECT 1 FROM "user" WHERE email = $1`, [fresh.email])).toHaveLength(0);

    const local = await t.api.signUp();
    const claimer = providerUser({ email: local.user.email, emailVerified: false });
    const b = await signInWithProvider(t, claimer.login);
    expect(b.res.status).toBe(403);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM account WHERE user_id = $1`, [local.user.id])).toHaveLength(0);
  });

  it('refuses a tampered, unknown or used state with 400, and a tampered state does not spend the real one', async () => {
    const p = providerUser();
    const browser = new Browser();
    const authUrl = await authorize(t, browser);
    const redirect = await loginAtProvider(authUrl.href, p.login, REDIRECT_URI);
    const state = redirect.searchParams.get('state')!;
    const tampered = new URL(redirect);
    tampered.searchParams.set('state', (state[0] === 'A' ? 'B' : 'A') + state.slice(1));
    const bad = await callback(t, tampered, browser);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'Invalid or expired OAuth state' });
    const none = await callback(t, `?code=${redirect.searchParams.get('code')}`, browser);
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ message: 'Invalid or expired OAuth state' });

    const ok = await callback(t, redirect, browser);
    expect(ok.status).toBe(200);
    const replay = await callback(t, redirect, browser);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ message: 'Invalid or expired OAuth state' });
  });

  it('refuses an id token whose nonce is not the one stored for the state', async () => {
    const p = providerUser();
    const browser = new Browser();
    const authUrl = await authorize(t, browser);
    const key = `${t.queuePrefix}:oauth:state:${authUrl.searchParams.get('state')}`;
    const stored = JSON.parse((await redis.get(key))!);
    await redis.set(key, JSON.stringify({ ...stored, nonce: 'some-other-nonce' }), 'PX', 60_000);
    const redirect = await loginAtProvider(authUrl.href, p.login, REDIRECT_URI);
    const res = await callback(t, redirect, browser);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Invalid ID token' });
    expect(await sql(t.databaseUrl, `SELECT 1 FROM "user" WHERE email = $1`, [p.email])).toHaveLength(0);
  });

  it("refuses a code replayed against another flow's state (its PKCE verifier and nonce do not match)", async () => {
    const p = providerUser();
    const browser = new Browser(); // both flows in one browser, so B's cookie comes with the callback
    const flowA = await authorize(t, browser);
    const flowB = await authorize(t, browser);
    const redirectA = await loginAtProvider(flowA.href, p.login, REDIRECT_URI);
    const crossed = new URL(redirectA);
    crossed.searchParams.set('state', flowB.searchParams.get('state')!);
    const res = await callback(t, crossed, browser);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'OAuth code exchange failed: invalid_grant' });
    expect(await sql(t.databaseUrl, `SELECT 1 FROM "user" WHERE email = $1`, [p.email])).toHaveLength(0);
  });

  it('ties the flow to the browser that started it with an HttpOnly cookie, cleared by the callback', async () => {
    const p = providerUser();
    const res = await t.api.get('/auth/oauth2/authorize/custom');
    expect(res.status).toBe(302);
    const [cookie] = res.headers.getSetCookie();
    expect(cookie).toMatch(/^tandem_oauth_[0-9a-f]{16}=[\w-]{43}; /);
    expect(cookie).toContain('Path=/api/auth/oauth2/callback/custom');
    expect(cookie).toContain('Max-Age=600');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    const state = new URL(res.headers.get('location')!).searchParams.get('state')!;
    // Only a hash of the browser's secret is kept with the state.
    const stored = JSON.parse((await redis.get(`${t.queuePrefix}:oauth:state:${state}`))!);
    const secret = cookie.split(';')[0].split('=')[1];
    expect(stored.browserBinding).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(secret);

    const browser = new Browser();
    browser.keep(res.headers);
    const redirect = await loginAtProvider(res.headers.get('location')!, p.login, REDIRECT_URI);
    const done = await callback(t, redirect, browser);
    expect(done.status).toBe(200);
    // The flow's cookie is cleared; the other is the new session's (cookie-sessions.e2e-spec.ts).
    expect(done.headers.getSetCookie()).toEqual([expect.stringMatching(new RegExp(`^${cookie.split('=')[0]}=; .*Max-Age=0`)), expect.stringMatching(/^tandem_session=/)]);
  });

  it("refuses a callback from a browser without the flow's cookie (login CSRF) and creates nobody", async () => {
    const p = providerUser();
    const authUrl = await authorize(t, new Browser()); // the attacker's browser
    const redirect = await loginAtProvider(authUrl.href, p.login, REDIRECT_URI);
    const res = await callback(t, redirect, new Browser()); // the victim's browser, lured to the callback URL
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'OAuth state was not issued to this browser' });
    expect(res.headers.get('set-auth-token')).toBeNull();
    expect(await sql(t.databaseUrl, `SELECT 1 FROM "user" WHERE email = $1`, [p.email])).toHaveLength(0);
    // A wrong secret under the right cookie name is refused too.
    const browser = new Browser();
    const again = await authorize(t, browser);
    const redirect2 = await loginAtProvider(again.href, p.login, REDIRECT_URI);
    const [name] = [...browser.cookies.keys()];
    const forged = await t.api.get(`/auth/oauth2/callback/custom${redirect2.search}`, undefined, { headers: { cookie: `${name}=${'x'.repeat(43)}` } });
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ message: 'OAuth state was not issued to this browser' });
  });

  it("cannot be used to link a victim's provider account to an attacker's user", async () => {
    const attacker = await t.api.signUp();
    const victim = providerUser();
    const authUrl = await authorize(t, new Browser(), { token: attacker.token }); // the attacker starts a link flow
    const redirect = await loginAtProvider(authUrl.href, victim.login, REDIRECT_URI); // the victim signs in at the provider
    const res = await callback(t, redirect, new Browser());
    expect(res.status).toBe(400);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM account WHERE user_id = $1`, [attacker.user.id])).toHaveLength(0);
    expect((await t.api.get('/oauth/id-token', attacker.token)).body).toEqual({ idToken: null });
  });

  it("reports the provider's refusal (e.g. the user cancelled) as 400", async () => {
    const browser = new Browser();
    const authUrl = await authorize(t, browser);
    const res = await callback(t, `?error=access_denied&state=${authUrl.searchParams.get('state')}`, browser);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'OAuth provider refused the sign-in: access_denied' });
  });

  it('redirects to an allowed callbackURL with the token in the fragment, and refuses other origins at authorize', async () => {
    const p = providerUser();
    const { res } = await signInWithProvider(t, p.login, { callbackURL: `${CLIENT_URL}/signed-in?from=oauth` });
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get('location')!);
    expect(`${loc.origin}${loc.pathname}${loc.search}`).toBe(`${CLIENT_URL}/signed-in?from=oauth`);
    const token = new URLSearchParams(loc.hash.slice(1)).get('token')!;
    expect(res.headers.get('set-auth-token')).toBe(token);
    expect(
      res.headers
        .getSetCookie()
        .find((c) => c.startsWith('tandem_session='))
        ?.split(';')[0],
    ).toBe(`tandem_session=${token}`);
    const me = await t.api.get('/auth/get-session', token);
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(p.email);

    const onApi = await authorize(t, new Browser(), { callbackURL: `${PUBLIC_API_URL}/done` });
    expect(onApi.origin).toBe(provider.issuer);
    const path = await authorize(t, new Browser(), { callbackURL: '/welcome' });
    expect(JSON.parse((await redis.get(`${t.queuePrefix}:oauth:state:${path.searchParams.get('state')}`))!).callbackURL).toBe(`${CLIENT_URL}/welcome`);
    for (const bad of ['https://evil.test/steal', '//evil.test/x', 'http://app.tandem.test/', `${CLIENT_URL}.evil.test/`, 'javascript:alert(1)']) {
      const r = await t.api.get(`/auth/oauth2/authorize/custom?callbackURL=${encodeURIComponent(bad)}`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ message: 'callbackURL must be on the origin of CLIENT_URL or PUBLIC_API_URL' });
    }
  });

  it('refuses near misses of both allowed origins as the callbackURL at authorize, and starts no flow', async () => {
    const states = () => redis.keys(`${t.queuePrefix}:oauth:state:*`);
    const before = new Set(await states());
    for (const allowed of [CLIENT_URL, PUBLIC_API_URL]) {
      for (const [what, url] of nearMissUrls(allowed)) {
        const r = await t.api.get(`/auth/oauth2/authorize/custom?callbackURL=${encodeURIComponent(url)}`);
        expect([what, url, r.status, r.body, r.headers.get('location')]).toEqual([
          what,
          url,
          400,
          { message: 'callbackURL must be on the origin of CLIENT_URL or PUBLIC_API_URL' },
          null,
        ]);
      }
    }
    // No state was stored for a flow (keys of earlier tests may expire meanwhile, none is added).
    expect((await states()).filter((k) => !before.has(k))).toEqual([]);
  });
});

describe('linking the provider to a signed-in account', () => {
  it('links the provider account to the user who started the flow, whatever the email', async () => {
    const local = await t.api.signUp();
    const p = providerUser({ emailVerified: false }); // linking needs no email match
    const { authUrl, res } = await signInWithProvider(t, p.login, { token: local.token });
    const stored = await redis.exists(`${t.queuePrefix}:oauth:state:${authUrl.searchParams.get('state')}`);
    expect(stored).toBe(0); // spent
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(local.user.id);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM "user" WHERE email = $1`, [p.email])).toHaveLength(0);

    const id = await t.api.get('/oauth/id-token', local.token);
    const { payload } = await jwtVerify(id.body.idToken, jwks(), { issuer: provider.issuer, audience: provider.clientId });
    expect(payload.sub).toBe(p.login);

    // afterwards the provider signs in as that user
    const again = await signInWithProvider(t, p.login);
    expect(again.res.status).toBe(200);
    expect(again.res.body.user.id).toBe(local.user.id);
  });

  it('lists linked accounts without tokens, and unlinks one unless it is the only way to sign in', async () => {
    const p = providerUser();
    const oauthOnly = await signInWithProvider(t, p.login);
    const token = oauthOnly.res.body.token;
    const listed = await t.api.get('/auth/list-accounts', token);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([{ id: expect.any(String), providerId: 'custom', accountId: p.login, scope: expect.any(String), createdAt: expect.any(String) }]);
    const refused = await t.api.post('/auth/unlink-account', { providerId: 'custom' }, token);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: 'Cannot unlink the only way to sign in' });
    expect((await t.api.get('/auth/list-accounts', token)).body).toHaveLength(1);

    const local = await t.api.signUp();
    const q = providerUser({ emailVerified: false });
    expect((await signInWithProvider(t, q.login, { token: local.token })).res.status).toBe(200);
    expect((await t.api.post('/auth/unlink-account', {}, local.token)).status).toBe(400);
    const scoped = (await t.api.post('/auth/api-key/create', { permissions: { task: ['read'] } }, local.token)).body.key;
    expect((await t.api.post('/auth/unlink-account', { providerId: 'custom' }, scoped)).status).toBe(403);
    const done = await t.api.post('/auth/unlink-account', { providerId: 'custom' }, local.token);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ success: true });
    expect((await t.api.get('/auth/list-accounts', local.token)).body).toEqual([]);
    expect((await t.api.get('/oauth/id-token', local.token)).body).toEqual({ idToken: null });
    expect(await sql(t.databaseUrl, `SELECT 1 FROM account WHERE user_id = $1`, [local.user.id])).toHaveLength(0);
    const again = await t.api.post('/auth/unlink-account', { providerId: 'custom' }, local.token);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'Account not found' });
    // The provider account is free again: signing in with it now makes a user of its own.
    const fresh = await signInWithProvider(t, q.login);
    expect(fresh.res.status).toBe(403); // its email is not verified, so no new user either
    expect((await t.api.get('/auth/list-accounts')).status).toBe(401);
  });

  it('refuses with 409 a provider account already linked to another user', async () => {
    const p = providerUser();
    const owner = await signInWithProvider(t, p.login);
    expect(owner.res.status).toBe(200);
    const other = await t.api.signUp();
    const { res } = await signInWithProvider(t, p.login, { token: other.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'This OAuth account is already linked to another user' });
    const id = await t.api.get('/oauth/id-token', other.token);
    expect(id.body).toEqual({ idToken: null });
  });

  it('refuses with 409 a second provider account for a user who already has one', async () => {
    const local = await t.api.signUp();
    const first = providerUser();
    expect((await signInWithProvider(t, first.login, { token: local.token })).res.status).toBe(200);
    const second = providerUser();
    const { res } = await signInWithProvider(t, second.login, { token: local.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Another OAuth account is already linked to this user' });
  });

  it("a pre-registered account: the address's owner signing in through the provider ends the squatter's key and linked identity", async () => {
    // Someone signs up with an address they do not own, makes a key and links their own provider account.
    const squatter = await t.api.signUp();
    const key = (await t.api.post('/auth/api-key/create', { name: 'planted' }, squatter.token)).body.key as string;
    const theirs = providerUser();
    expect((await signInWithProvider(t, theirs.login, { token: squatter.token })).res.status).toBe(200);

    // The owner of the address signs in with a provider account that proves it.
    const owner = providerUser({ email: squatter.user.email });
    const { res } = await signInWithProvider(t, owner.login);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(squatter.user.id);
    expect((await t.api.get('/auth/get-session', key)).status).toBe(401);
    expect(await sql(t.databaseUrl, `SELECT account_id FROM account WHERE user_id = $1`, [squatter.user.id])).toEqual([{ account_id: owner.login }]);
    // The squatter's provider account no longer signs in as the owner.
    const again = await signInWithProvider(t, theirs.login);
    expect(again.res.status).toBe(200);
    expect(again.res.body.user.id).not.toBe(squatter.user.id);
  });

  it('links nothing when the session that started the flow ended before the callback', async () => {
    const local = await t.api.signUp();
    const p = providerUser();
    const browser = new Browser();
    const authUrl = await authorize(t, browser, { token: local.token });
    const redirect = await loginAtProvider(authUrl.href, p.login, REDIRECT_URI);
    // Meanwhile the session ends (a sign-out here; a password reset or a first verification does the same).
    expect((await t.api.post('/auth/sign-out', {}, local.token)).status).toBe(200);
    const res = await callback(t, redirect, browser);
    expect([res.status, res.body]).toEqual([401, { message: 'Unauthorized' }]);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM account WHERE user_id = $1`, [local.user.id])).toHaveLength(0);
  });

  it('answers 401 at authorize when the bearer token is not a valid session', async () => {
    const local = await t.api.signUp();
    await t.api.post('/auth/sign-out', {}, local.token);
    for (const token of [local.token, 'not-a-token', `${local.token.slice(0, -2)}xx`]) {
      const res = await t.api.get('/auth/oauth2/authorize/custom', token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Unauthorized' });
    }
  });
});

describe('GET /oauth/id-token', () => {
  it('answers {idToken: null} for a user without a provider account, and 401 without credentials', async () => {
    const u = await t.api.signUp();
    const res = await t.api.get('/oauth/id-token', u.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ idToken: null });
    expect((await t.api.get('/oauth/id-token')).status).toBe(401);
  });

  it('refreshes an expired id token through the refresh token, stores the new tokens encrypted, and again next time', async () => {
    const p = providerUser();
    const { res } = await signInWithProvider(t, p.login);
    const token = res.body.token;
    const first = (await t.api.get('/oauth/id-token', token)).body.idToken;
    const before = (await sql(t.databaseUrl, `SELECT * FROM account WHERE account_id = $1`, [p.login]))[0];
    expect(decodeJwt(first).at_hash).toBe(atHash(crypto.decrypt(before.access_token)));

    // Forcing expiry in the database: the stored token is served until then, and refreshed after.
    expect((await t.api.get('/oauth/id-token', token)).body.idToken).toBe(first);
    await sql(t.databaseUrl, `UPDATE account SET id_token_expires_at = now() - interval '1 minute' WHERE account_id = $1`, [p.login]);
    const refreshed = await t.api.get('/oauth/id-token', token);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.idToken).not.toBe(first);
    const { payload } = await jwtVerify(refreshed.body.idToken, jwks(), { issuer: provider.issuer, audience: provider.clientId });
    expect(payload.sub).toBe(p.login);
    expect(payload.iat!).toBeGreaterThanOrEqual(decodeJwt(first).iat!);

    const after = (await sql(t.databaseUrl, `SELECT * FROM account WHERE account_id = $1`, [p.login]))[0];
    // What is served is what was stored, and it was issued with the new access token (its at_hash):
    // a token of this refresh, not the first one re-served, even within the same second.
    expect(crypto.decrypt(after.id_token)).toBe(refreshed.body.idToken);
    expect(after.access_token).not.toBe(before.access_token);
    expect(payload.at_hash).toBe(atHash(crypto.decrypt(after.access_token)));
    expect(after.refresh_token).not.toBe(before.refresh_token); // the provider rotates refresh tokens
    expect(after.refresh_token).toMatch(/^v2:[0-9a-f]{8}:/);
    expect(after.id_token_expires_at.getTime()).toBe(payload.exp! * 1000);

    // the rotated refresh token was stored: a second forced expiry refreshes again
    await sql(t.databaseUrl, `UPDATE account SET id_token_expires_at = now() - interval '1 minute' WHERE account_id = $1`, [p.login]);
    const again = await t.api.get('/oauth/id-token', token);
    expect(again.status).toBe(200);
    expect(again.body.idToken).not.toBe(refreshed.body.idToken);
    const third = await jwtVerify(again.body.idToken, jwks(), { issuer: provider.issuer, audience: provider.clientId });
    const latest = (await sql(t.databaseUrl, `SELECT access_token, refresh_token FROM account WHERE account_id = $1`, [p.login]))[0];
    expect(third.payload.at_hash).toBe(atHash(crypto.decrypt(latest.access_token)));
    expect(latest.refresh_token).not.toBe(after.refresh_token);
  });

  it('keeps serving the stored token and stops refreshing when the provider refuses the refresh token', async () => {
    const p = providerUser();
    const { res } = await signInWithProvider(t, p.login);
    const [row] = await sql(t.databaseUrl, `SELECT id_token, refresh_token FROM account WHERE account_id = $1`, [p.login]);
    const first = (await t.api.get('/oauth/id-token', res.body.token)).body.idToken;
    expect(crypto.decrypt(row.id_token)).toBe(first);
    // The user revokes the grant at the provider.
    const revoke = await fetch(`${provider.issuer}/token/revocation`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${provider.clientId}:${provider.clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ token: crypto.decrypt(row.refresh_token), token_type_hint: 'refresh_token' }),
    });
    expect(revoke.status).toBe(200);
    await sql(t.databaseUrl, `UPDATE account SET id_token_expires_at = now() - interval '1 minute' WHERE account_id = $1`, [p.login]);
    const out = await t.api.get('/oauth/id-token', res.body.token);
    expect(out.status).toBe(200);
    expect(out.body.idToken).toBe(first);
    const [after] = await sql(t.databaseUrl, `SELECT refresh_token FROM account WHERE account_id = $1`, [p.login]);
    expect(after.refresh_token).toBeNull();
  });

  it('refuses an API key limited to some resources, serves an unrestricted one', async () => {
    const p = providerUser();
    const { res } = await signInWithProvider(t, p.login);
    const scoped = await t.api.post('/auth/api-key/create', { permissions: { task: ['read'] } }, res.body.token);
    const full = await t.api.post('/auth/api-key/create', {}, res.body.token);
    const a = await t.api.get('/oauth/id-token', scoped.body.key);
    expect(a.status).toBe(403);
    expect(a.body).toEqual({ message: 'Insufficient API key scope' });
    const b = await t.api.get('/oauth/id-token', full.body.key);
    expect(b.status).toBe(200);
    expect(b.body.idToken).toEqual(expect.any(String));
  });
});

describe('when custom OAuth is not configured', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await startTestApp();
  });
  afterAll(() => plain?.close());

  it('answers 404 on the OAuth routes and {idToken: null}', async () => {
    const a = await plain.api.get('/auth/oauth2/authorize/custom');
    expect(a.status).toBe(404);
    expect(a.body).toEqual({ message: 'Custom OAuth is not configured' });
    const c = await plain.api.get('/auth/oauth2/callback/custom?code=x&state=y');
    expect(c.status).toBe(404);
    expect(c.body).toEqual({ message: 'Custom OAuth is not configured' });
    const u = await plain.api.signUp();
    const id = await plain.api.get('/oauth/id-token', u.token);
    expect(id.status).toBe(200);
    expect(id.body).toEqual({ idToken: null });
  });
});

describe('a provider that is down at boot', () => {
  let late: TestOidcProvider | undefined;
  let app: TestApp;
  let port: number;
  const secret = randomBytes(16).toString('hex');
  beforeAll(async () => {
    port = await freePort();
    app = await startTestApp({ ...oauthEnv(provider), CUSTOM_OAUTH_ISSUER: `http://127.0.0.1:${port}`, CUSTOM_OAUTH_CLIENT_SECRET: secret });
  });
  afterAll(async () => {
    await app?.close();
    await late?.close();
  });

  it('boots without the provider, answers 503 until it is up, then works', async () => {
    expect((await app.api.get('/health')).status).toBe(200);
    const down = await app.api.get('/auth/oauth2/authorize/custom');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ message: 'OAuth provider unavailable' });

    late = await startOidcProvider({ redirectUri: REDIRECT_URI, port, clientSecret: secret });
    const up = await app.api.get('/auth/oauth2/authorize/custom');
    expect(up.status).toBe(302);
    expect(up.headers.get('location')!.startsWith(`${late.issuer}/`)).toBe(true);
    const stranger = providerUser({}, late.users);
    const signedIn = await signInWithProvider(app, stranger.login);
    expect(signedIn.res.status).toBe(200);
    expect(signedIn.res.body.user.email).toBe(stranger.email);
  });
});

describe('with mail configured (an address can be proven)', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: the emails are never sent, which this test does not need.
    app = await startTestApp({ ...oauthEnv(provider), SMTP_HOST: '127.0.0.1', SMTP_PORT: '1' });
  });
  afterAll(() => app?.close());

  it('an unverified address may not link a provider account or make an API key', async () => {
    const u = await app.api.signUp();
    const res = await app.api.get('/auth/oauth2/authorize/custom', u.token);
    expect([res.status, res.body]).toEqual([403, { message: 'Email not verified' }]);
    const key = await app.api.post('/auth/api-key/create', { name: 'planted' }, u.token);
    expect([key.status, key.body]).toEqual([403, { message: 'Email not verified' }]);
    expect(await sql(app.databaseUrl, `SELECT 1 FROM api_key WHERE user_id = $1`, [u.user.id])).toHaveLength(0);
  });
});

describe('closed registration', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ ...oauthEnv(provider), DISABLE_REGISTRATION: 'true' });
  });
  afterAll(() => app?.close());

  it('refuses to create a user while registration is closed, unless the email is invited', async () => {
    const stranger = providerUser();
    const refused = await signInWithProvider(app, stranger.login);
    expect(refused.res.status).toBe(403);
    expect(refused.res.body).toEqual({ message: 'Registration is disabled' });
    expect(await sql(app.databaseUrl, `SELECT 1 FROM "user" WHERE email = $1`, [stranger.email])).toHaveLength(0);

    const invited = providerUser();
    const [ws] = await sql(app.databaseUrl, `INSERT INTO workspace (name, slug) VALUES ('Closed', $1) RETURNING id`, [`closed-${invited.login}`]);
    await sql(app.databaseUrl, `INSERT INTO invitation (organization_id, email, role, expires_at) VALUES ($1, $2, 'member', now() + interval '1 day')`, [ws.id, invited.email]);
    const ok = await signInWithProvider(app, invited.login);
    expect(ok.res.status).toBe(200);
    expect(ok.res.body.user.email).toBe(invited.email);
  });
});
