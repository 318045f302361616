import { isAllowedProviderUrl, isLoopbackHost, resolveCallbackUrl } from './oauth-urls';

describe('isLoopbackHost', () => {
  it.each(['localhost', '127.0.0.1', '127.10.0.254', '[::1]', '::1', 'LOCALHOST'])('%s is loopback', (h) => {
    expect(isLoopbackHost(h)).toBe(true);
  });
  it.each(['example.com', '10.0.0.1', '192.168.1.1', '128.0.0.1', '127.0.0.256', 'localhost.example.com', '0.0.0.0'])('%s is not loopback', (h) =>
    expect(isLoopbackHost(h)).toBe(false),
  );
});

describe('isAllowedProviderUrl', () => {
  it('accepts https anywhere', () => {
    expect(isAllowedProviderUrl('https://id.example.com', false)).toBe(true);
    expect(isAllowedProviderUrl('https://127.0.0.1:8443/realms/x', false)).toBe(true);
  });
  it('accepts plain http only on loopback and only when private destinations are allowed', () => {
    expect(isAllowedProviderUrl('http://127.0.0.1:4000', true)).toBe(true);
    expect(isAllowedProviderUrl('http://localhost:4000/oidc', true)).toBe(true);
    expect(isAllowedProviderUrl('http://127.0.0.1:4000', false)).toBe(false);
    expect(isAllowedProviderUrl('http://id.example.com', true)).toBe(false);
    expect(isAllowedProviderUrl('http://10.0.0.5', true)).toBe(false);
  });
  it('refuses other schemes, credentials in the URL and garbage', () => {
    expect(isAllowedProviderUrl('ftp://id.example.com', true)).toBe(false);
    expect(isAllowedProviderUrl('https://user:pw@id.example.com', true)).toBe(false);
    expect(isAllowedProviderUrl('not a url', true)).toBe(false);
  });
});

describe('resolveCallbackUrl', () => {
  const client = 'https://app.example.com';
  const origins = ['https://app.example.com', 'https://api.example.com'];
  it('keeps URLs on the allowed origins, without any fragment', () => {
    expect(resolveCallbackUrl('https://app.example.com/done?x=1#old', client, origins)).toBe('https://app.example.com/done?x=1');
    expect(resolveCallbackUrl('https://api.example.com/after', client, origins)).toBe('https://api.example.com/after');
  });
  it('resolves a path against CLIENT_URL', () => {
    expect(resolveCallbackUrl('/welcome', client, origins)).toBe('https://app.example.com/welcome');
  });
  it.each([
    'https://evil.example.com/',
    '//evil.example.com/x',
    'https://app.example.com.evil.com/',
    'http://app.example.com/',
    'https://app.example.com:444/',
    'javascript:alert(1)',
    'https://user@app.example.com/',
    '/\\evil.example.com',
    'https://app.example.com/ x',
    // Near misses of an allowed origin: a check by prefix, by host alone or on the raw text lets one through.
    'https://app.example.com:8443/done',
    'https://app.example.comevil.com/done',
    'https://app.example.com@evil.example.com/done',
    'https://app.example.com:@evil.example.com/done',
    'https://app.example.com./done',
    'https://api.example.com.evil.com/done',
    'https://evil.example.com/https://app.example.com/done',
    '//evil.example.com/https://app.example.com/done',
    'https://evil.example.com/done?next=https://app.example.com/done',
  ])('refuses %s', (v) => expect(resolveCallbackUrl(v, client, origins)).toBeNull());
});
