import { classifyStatus, parseRetryAfter, scrub } from './delivery-policy';

describe('classifyStatus', () => {
  it.each([200, 201, 204, 299])('%i is delivered', (s) => expect(classifyStatus(s)).toEqual({ outcome: 'delivered' }));
  it.each([500, 502, 503, 504, 408])('%i is transient', (s) => expect(classifyStatus(s)).toEqual({ outcome: 'transient', error: `HTTP ${s}`, retryAfterMs: null }));
  it.each([400, 401, 403, 404, 410, 413, 422])('%i is permanent', (s) => expect(classifyStatus(s)).toEqual({ outcome: 'permanent', error: `HTTP ${s}` }));
  it('3xx is permanent: redirects are not followed', () => {
    expect(classifyStatus(302)).toEqual({ outcome: 'permanent', error: 'HTTP 302 (redirects are not followed)' });
  });
  it('429 carries its Retry-After; other codes do not', () => {
    expect(classifyStatus(429, { retryAfterMs: 2000, detail: 'slow down' })).toEqual({ outcome: 'transient', error: 'HTTP 429: slow down', retryAfterMs: 2000 });
    expect(classifyStatus(503, { retryAfterMs: 2000 })).toMatchObject({ retryAfterMs: null });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', now)).toBe(0);
  });
  it('answers null for nothing or nonsense', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });
});

describe('scrub', () => {
  it('cuts out every secret, the longest first, and shortens to one line', () => {
    const url = 'https://hooks.example.test/services/T000/B000/XXXXSECRET';
    const out = scrub(`invalid token for ${url}\n (path /services/T000/B000/XXXXSECRET)`, [url, '/services/T000/B000/XXXXSECRET']);
    expect(out).toBe('invalid token for [redacted] (path [redacted])');
    expect(scrub('x'.repeat(500), [])).toHaveLength(201);
  });
});
