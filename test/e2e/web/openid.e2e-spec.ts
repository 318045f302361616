import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { startTestApp, TestApp } from '../../support/app';
import { launchBrowser } from '../../support/browser';
import { freePort, startOidcProvider, TestOidcProvider } from '../../support/oidc-provider';
import { TcpProxy } from '../../support/tcp-proxy';
import { axeViolations, newPage } from '../../support/web-page';

/**
 * The sign-in page's OpenID button, in a real Chromium, through a real OpenID provider on loopback
 * (its own login and consent pages). The provider knows the service's callback address before the
 * service starts, so the browser reaches the service through a proxy on a port chosen first.
 */
// A browser journey takes several seconds, and more on a loaded machine.
jest.setTimeout(90_000);

let provider: TestOidcProvider;
let t: TestApp;
let proxy: TcpProxy;
let browser: Browser;
let origin: string;
let plain: TestApp | undefined;

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider({ redirectUri: `${origin}/api/auth/oauth2/callback/custom` });
  t = await startTestApp({
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    CUSTOM_OAUTH_ISSUER: provider.issuer,
    CUSTOM_OAUTH_CLIENT_ID: provider.clientId,
    CUSTOM_OAUTH_CLIENT_SECRET: provider.clientSecret,
    CUSTOM_OAUTH_SCOPES: 'openid email profile',
    PUBLIC_API_URL: origin,
  });
  proxy = new TcpProxy('127.0.0.1', Number(new URL(t.url).port));
  proxy.port = port;
  await proxy.start();
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await proxy?.stop();
  await t?.close();
  await plain?.close();
  await provider?.close();
});

describe('signing in with OpenID in the browser', () => {
  it('the button goes to the provider and back signed in, with no token left in the address', async () => {
    provider.users.set('olive', { email: `olive.${randomBytes(4).toString('hex')}@idp.test`, emailVerified: true, name: 'Olive Openid' });
    const { page, problems, close } = await newPage(browser, origin);
    try {
      await page.goto('/sign-in');
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.getByRole('link', { name: 'Sign in with OpenID' }).click();
      // The provider's own pages: its login form, then its consent.
      await page.waitForURL((u) => u.origin === provider.issuer);
      await page.locator('input[name="login"]').fill('olive');
      await page.locator('input[name="password"]').fill('anything');
      await page.locator('button[type="submit"]').click();
      await page.locator('button[type="submit"]', { hasText: /continue/i }).click();
      // Back on the app, signed in, its cookie set; the token the redirect carried is not in the address.
      await page.waitForURL((u) => u.origin === origin && u.pathname === '/');
      // (The provider's test pages ask for web fonts that this closed network cannot reach: not the app's problems.)
      const back = problems.length;
      await page.getByLabel('New workspace').waitFor();
      expect(page.url()).not.toContain('token=');
      const me = (await page.evaluate(`fetch('/api/auth/get-session').then((r) => r.json())`)) as { user: { name: string } };
      expect(me.user.name).toBe('Olive Openid');
      expect(problems.slice(back)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('an instance without a provider shows no OpenID button', async () => {
    plain = await startTestApp();
    const { page, problems, close } = await newPage(browser, plain.url.replace(/\/api$/, ''));
    try {
      // The button would show once /api/config answers: that answer, then the render after it.
      const config = page.waitForResponse((r) => r.url().endsWith('/api/config'));
      await page.goto('/sign-in');
      expect(await (await config).json()).toMatchObject({ hasCustomOAuth: false });
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => setTimeout(r)))');
      expect(await page.getByRole('link', { name: /OpenID/ }).count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
