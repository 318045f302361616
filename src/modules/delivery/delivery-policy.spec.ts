import { OutboundError } from '../../common/net/outbound-http';
import { classifyStatus, parseRetryAfter, scrub, statusAfter, UnusableTargetError, urlSecrets, Verdict, verdictOfError } from './delivery-policy';

describe('classifyStatus', () => {
  it.each([200, 201, 204, 299])('%i is delivered', (s) => expect(classifyStatus(s)).toEqual({ outcome: 'delivered' }));
  it.each([500, 502, 503, 504, 408])('%i is transient', (s) => expect(classifyStatus(s)).toEqual({ outcome: 'transient', error: `HTTP ${s}`, retryAfterMs: null }));
  it.each([400, 401, 403, 404, 410, 413, 422])('%i is permanent', (s) => expect(classifyStatus(s)).toEqual({ outcome: 'permanent', error: `HTTP ${s}` }));
  it('3xx is permanent: redirects are not followed', () => {
    expect(classifyStatus(302)).toEqual({ outcome: 'permanent', error: 'HTTP 302 (redirects are not followed)' });
  });
  it('the edges of each range', () => {
    expect([199, 300, 399, 400, 499, 407, 409, 428, 430].map((s) => classifyStatus(s).outcome)).toEqual(Array(9).fill('permanent'));
    expect(classifyStatus(199)).toEqual({ outcome: 'permanent', error: 'HTTP 199' });
    expect(classifyStatus(300)).toEqual({ outcome: 'permanent', error: 'HTTP 300 (redirects are not followed)' });
    expect(classifyStatus(399)).toEqual({ outcome: 'permanent', error: 'HTTP 399 (redirects are not followed)' });
    expect(classifyStatus(400)).toEqual({ outcome: 'permanent', error: 'HTTP 400' });
    expect(classifyStatus(599)).toMatchObject({ outcome: 'transient' });
    expect(classifyStatus(404, { detail: 'no such hook' })).toEqual({ outcome: 'permanent', error: 'HTTP 404: no such hook' });
    expect(classifyStatus(429)).toEqual({ outcome: 'transient', error: 'HTTP 429', retryAfterMs: null });
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
    expect(parseRetryAfter('1.5', now)).toBeNull();
    expect(parseRetryAfter('Mon, 99 Foo 2030 nonsense', now)).toBeNull();
    // A date without the day's name is not read, even one Date.parse would take.
    expect(parseRetryAfter('2030-01-01T00:00:30Z', now)).toBeNull();
    // Nor one with something before the day's name (Date.parse would skip it).
    expect(parseRetryAfter('x Tue, 01 Jan 2030 00:00:30 GMT', now)).toBeNull();
  });
  it('several values: the first counts', () => {
    expect(parseRetryAfter(['3', '9'], now)).toBe(3000);
  });
  it('without a clock given, a date counts from now', () => {
    const nowSpy = jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      expect(parseRetryAfter('Tue, 01 Jan 2030 00:01:00 GMT')).toBe(60_000);
    } finally {
      nowSpy.mockRestore();
    }
  });
});

describe('urlSecrets', () => {
  it('lists the URL and its path with its query, but not a bare /', () => {
    expect(urlSecrets('https://hooks.example.test/services/T0/B0/KEY')).toEqual(['https://hooks.example.test/services/T0/B0/KEY', '/services/T0/B0/KEY']);
    expect(urlSecrets('https://me.example.test/?token=s3cr3t')).toEqual(['https://me.example.test/?token=s3cr3t', '/?token=s3cr3t']);
    expect(urlSecrets('https://me.example.test/')).toEqual(['https://me.example.test/']);
    expect(urlSecrets('not a url')).toEqual(['not a url']);
    // What a receiver quoting it leaves in the record.
    expect(scrub('bad token in /?token=s3cr3t', urlSecrets('https://me.example.test/?token=s3cr3t'))).toBe('bad token in [redacted]');
  });
});

describe('scrub', () => {
  it('cuts out every secret, the longest first, and shortens to one line', () => {
    const url = 'https://hooks.example.test/services/T000/B000/XXXXSECRET';
    const out = scrub(`invalid token for ${url}\n (path /services/T000/B000/XXXXSECRET)`, [url, '/services/T000/B000/XXXXSECRET']);
    expect(out).toBe('invalid token for [redacted] (path [redacted])');
    expect(scrub('x'.repeat(500), [])).toHaveLength(201);
    expect(scrub('x'.repeat(500), [])).toBe(`${'x'.repeat(200)}\u2026`);
    expect(scrub('x'.repeat(200), [])).toBe('x'.repeat(200));
  });

  it('the longest secret first: a secret inside another one does not leave the rest of the longer behind', () => {
    expect(scrub('at https://h.test/abcd/efgh now', ['abcd', 'https://h.test/abcd/efgh'])).toBe('at [redacted] now');
  });

  it('leaves alone secrets too short to cut out safely (under 4 characters) and empty ones', () => {
    expect(scrub('a b abc', ['abc', '', 'b'])).toBe('a b abc');
    expect(scrub('the abcd here', ['abcd'])).toBe('the [redacted] here');
  });

  it('joins lines and runs of blanks into single spaces, trimmed', () => {
    expect(scrub('  one\n\ttwo   three \r\n', [])).toBe('one two three');
  });
});

describe('verdictOfError', () => {
  it("the outbound client's errors say whether a retry may work; an unusable target never will", () => {
    const fault = jest.fn();
    expect(verdictOfError(new OutboundError('Connection refused', false), fault)).toEqual({ outcome: 'transient', error: 'Connection refused', retryAfterMs: null });
    expect(verdictOfError(new OutboundError('Webhook destination resolves to a non-routable address', true), fault)).toEqual({
      outcome: 'permanent',
      error: 'Webhook destination resolves to a non-routable address',
    });
    expect(verdictOfError(new UnusableTargetError('The integration has no webhook URL'), fault)).toEqual({ outcome: 'permanent', error: 'The integration has no webhook URL' });
    expect(fault).not.toHaveBeenCalled();
  });

  it('anything else is a fault of ours: retried, named by its kind only (its message may hold a secret)', () => {
    const fault = jest.fn();
    expect(verdictOfError(new TypeError('cannot read secret-value'), fault)).toEqual({ outcome: 'transient', error: 'Internal error while sending', retryAfterMs: null });
    expect(verdictOfError(undefined, fault)).toEqual({ outcome: 'transient', error: 'Internal error while sending', retryAfterMs: null });
    expect(fault.mock.calls).toEqual([['TypeError'], ['error']]);
  });
});

describe('statusAfter', () => {
  const transient: Verdict = { outcome: 'transient', error: 'HTTP 503', retryAfterMs: null };
  const permanent: Verdict = { outcome: 'permanent', error: 'HTTP 404' };
  it('delivered is delivered; permanent fails at once; transient stays pending until the last attempt', () => {
    expect([statusAfter({ outcome: 'delivered' }, false), statusAfter({ outcome: 'delivered' }, true)]).toEqual(['delivered', 'delivered']);
    expect([statusAfter(permanent, false), statusAfter(permanent, true)]).toEqual(['failed', 'failed']);
    expect([statusAfter(transient, false), statusAfter(transient, true)]).toEqual(['pending', 'failed']);
  });
});
