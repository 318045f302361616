import type { Browser } from 'playwright-core';
import { startTestApp, TestApp } from '../../support/app';
import { launchBrowser } from '../../support/browser';
import { newPage, signIn } from '../../support/web-page';

/** SECURITY.md, "Headers": HSTS only over https, nothing upgraded, no answer kept by a cache. */

let plain: TestApp;
let viaProxy: TestApp;
let httpsInstance: TestApp;
beforeAll(async () => {
  plain = await startTestApp();
  viaProxy = await startTestApp({ TRUST_PROXY: 'loopback' });
  httpsInstance = await startTestApp({ PUBLIC_API_URL: 'https://tandem.example.test' });
});
afterAll(async () => {
  await plain?.close();
  await viaProxy?.close();
  await httpsInstance?.close();
});

const origin = (t: TestApp) => t.url.replace(/\/api$/, '');
const hsts = async (url: string, headers: Record<string, string> = {}) => (await fetch(url, { headers })).headers.get('strict-transport-security');

describe('Strict-Transport-Security and the content security policy', () => {
  it('over plain http: no HSTS on the API or the app, and the app CSP upgrades nothing', async () => {
    expect(await hsts(`${plain.url}/health`)).toBeNull();
    const page = await fetch(`${origin(plain)}/`);
    expect(page.headers.get('strict-transport-security')).toBeNull();
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    // A peer TRUST_PROXY does not name cannot claim https.
    expect(await hsts(`${plain.url}/health`, { 'x-forwarded-proto': 'https' })).toBeNull();
  });

  it('over https: HSTS when a trusted proxy says the request came over https, or when PUBLIC_API_URL is https', async () => {
    expect(await hsts(`${viaProxy.url}/health`)).toBeNull();
    expect(await hsts(`${viaProxy.url}/health`, { 'x-forwarded-proto': 'https' })).toBe('max-age=31536000; includeSubDomains');
    expect(await hsts(`${origin(viaProxy)}/`, { 'x-forwarded-proto': 'https' })).toBe('max-age=31536000; includeSubDomains');
    expect(await hsts(`${httpsInstance.url}/health`)).toBe('max-age=31536000; includeSubDomains');
    // Cross-Origin-Opener-Policy likewise: over plain http the browser ignores it and logs so.
    expect((await fetch(`${origin(httpsInstance)}/`)).headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect((await fetch(`${origin(plain)}/`)).headers.get('cross-origin-opener-policy')).toBeNull();
  });
});

describe('Cache-Control: no-store on API answers', () => {
  it('every answer that carries a token or a key, and the others of the API, are no-store; the app keeps its own caching', async () => {
    const password = 'correct horse battery';
    const email = `h${Date.now()}@example.test`;
    const up = await plain.api.post('/auth/sign-up/email', { name: 'Ada', email, password });
    const inn = await plain.api.post('/auth/sign-in/email', { email, password });
    const key = await plain.api.post('/auth/api-key/create', { name: 'cli' }, inn.body.token);
    const changed = await plain.api.post('/auth/change-password', { currentPassword: password, newPassword: `${password}!`, revokeOtherSessions: false }, inn.body.token);
    const session = await plain.api.get('/auth/get-session', inn.body.token);
    const list = await plain.api.get('/auth/organization/list', inn.body.token);
    const refused = await plain.api.get('/auth/organization/list', 'not-a-token');
    const answers = { up, inn, key, changed, session, list, refused };
    expect(Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, [r.status, r.headers.get('cache-control')]]))).toEqual({
      up: [200, 'no-store'],
      inn: [200, 'no-store'],
      key: [200, 'no-store'],
      changed: [200, 'no-store'],
      session: [200, 'no-store'],
      list: [200, 'no-store'],
      refused: [401, 'no-store'],
    });
    expect([up.body.token, inn.body.token, key.body.key].every((v) => typeof v === 'string' && v.length > 10)).toBe(true);
    expect((await fetch(`${origin(plain)}/`)).headers.get('cache-control')).toBe('no-cache');
  });
});

describe('the app on a LAN name over plain http', () => {
  let browser: Browser;
  beforeAll(async () => {
    // tandem.lan resolves to this machine for the browser only: the address a self-hoster first opens.
    browser = await launchBrowser(['--host-resolver-rules=MAP tandem.lan 127.0.0.1']);
  });
  afterAll(() => browser?.close());

  it('opens at http://tandem.lan:<port>/: the sign-in renders, signing in works, no console error', async () => {
    const port = new URL(plain.url).port;
    const lan = `http://tandem.lan:${port}`;
    const user = await plain.api.signUp();
    const { page, problems, close } = await newPage(browser, lan);
    try {
      await page.goto('/');
      await page.waitForURL(`${lan}/sign-in`);
      await page.getByRole('heading', { name: 'Sign in to Tandem' }).waitFor();
      await signIn(page, user.user.email, user.password);
      await page.getByLabel('New workspace').waitFor();
      expect(page.url()).toBe(`${lan}/`);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
