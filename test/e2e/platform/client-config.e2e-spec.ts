import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../../support/app';

const VERSION = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')).version;

/** GET /config (docs/compatibility.md, "GET /config"): public, from the service's settings. */
describe('GET /config', () => {
  let t: TestApp;
  afterEach(() => t?.close());

  it('answers without a login, with the defaults', async () => {
    t = await startTestApp({ APP_ROLES: 'api' });
    const res = await t.api.get('/config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      disableRegistration: false,
      requireEmailVerification: false,
      hasSmtp: false,
      hasCustomOAuth: false,
      disableWorkspaceCreation: false,
      isDemoMode: false,
      version: VERSION,
    });
    // With credentials it answers the same.
    const u = await t.api.signUp();
    expect((await t.api.get('/config', u.token)).body).toEqual(res.body);
  });

  it('follows DISABLE_REGISTRATION, REQUIRE_EMAIL_VERIFICATION, SMTP_HOST and the custom OAuth settings, and shows no secret', async () => {
    const secret = 'oauth-client-secret-that-must-not-show';
    t = await startTestApp({
      APP_ROLES: 'api',
      DISABLE_REGISTRATION: 'true',
      REQUIRE_EMAIL_VERIFICATION: 'true',
      SMTP_HOST: '127.0.0.1',
      SMTP_PASSWORD: 'smtp-password-that-must-not-show',
      CUSTOM_OAUTH_ISSUER: 'https://id.example.test',
      CUSTOM_OAUTH_CLIENT_ID: 'tandem',
      CUSTOM_OAUTH_CLIENT_SECRET: secret,
    });
    const res = await t.api.get('/config');
    expect(res.body).toEqual({
      disableRegistration: true,
      requireEmailVerification: true,
      hasSmtp: true,
      hasCustomOAuth: true,
      disableWorkspaceCreation: false,
      isDemoMode: false,
      version: VERSION,
    });
    expect(res.text).not.toContain(secret);
    expect(res.text).not.toContain('smtp-password');
    expect(res.text).not.toContain('127.0.0.1');
  });
});
