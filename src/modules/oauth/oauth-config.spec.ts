import { ConfigError, loadConfig } from '../../config/app-config';

const full = { CUSTOM_OAUTH_ISSUER: 'https://id.example.com', CUSTOM_OAUTH_CLIENT_ID: 'tandem', CUSTOM_OAUTH_CLIENT_SECRET: 's3cret' };

describe('custom OAuth configuration', () => {
  it('is off when unset, with the default scopes', () => {
    const c = loadConfig({});
    expect(c.customOAuth).toEqual({ issuer: undefined, clientId: undefined, clientSecret: undefined, scopes: 'openid email profile' });
  });

  it('accepts an https issuer with client id and secret', () => {
    expect(loadConfig(full).customOAuth.issuer).toBe('https://id.example.com');
  });

  it('needs issuer, client id and secret together, naming what is missing', () => {
    expect(() => loadConfig({ CUSTOM_OAUTH_ISSUER: 'https://id.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ CUSTOM_OAUTH_ISSUER: 'https://id.example.com', CUSTOM_OAUTH_CLIENT_ID: 'x' })).toThrow(
      /CUSTOM_OAUTH_CLIENT_SECRET: is required when CUSTOM_OAUTH_ISSUER is set/,
    );
    expect(() => loadConfig({ CUSTOM_OAUTH_CLIENT_ID: 'x' })).toThrow(/CUSTOM_OAUTH_ISSUER: is required when CUSTOM_OAUTH_CLIENT_ID is set/);
  });

  it('refuses a plain-http issuer unless it is on loopback and private destinations are allowed', () => {
    expect(() => loadConfig({ ...full, CUSTOM_OAUTH_ISSUER: 'http://id.example.com' })).toThrow(/CUSTOM_OAUTH_ISSUER: must be an https URL/);
    expect(() => loadConfig({ ...full, CUSTOM_OAUTH_ISSUER: 'http://127.0.0.1:4000' })).toThrow(/CUSTOM_OAUTH_ISSUER/);
    expect(() => loadConfig({ ...full, CUSTOM_OAUTH_ISSUER: 'http://10.1.2.3', ALLOW_PRIVATE_DESTINATIONS: 'true' })).toThrow(/CUSTOM_OAUTH_ISSUER/);
    expect(loadConfig({ ...full, CUSTOM_OAUTH_ISSUER: 'http://127.0.0.1:4000', ALLOW_PRIVATE_DESTINATIONS: 'true' }).customOAuth.issuer).toBe('http://127.0.0.1:4000');
  });
});
