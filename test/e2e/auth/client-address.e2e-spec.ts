import { randomBytes } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';

/**
 * The client address that the rate limits count and sessions record is the TCP peer, unless the
 * peer is a proxy TRUST_PROXY names: only then is its X-Forwarded-For believed (docs/decisions-local.md,
 * "Access rules that close escalation paths" 6).
 */
const email = () => `nobody${randomBytes(6).toString('hex')}@example.test`;

/** A failed sign-in (each with an address of its own, so the per-account limit stays out of it). */
const guess = (app: TestApp, forwardedFor: string) =>
  app.api.post('/auth/sign-in/email', { email: email(), password: 'wrong password' }, undefined, { headers: { 'x-forwarded-for': forwardedFor } });

/** The address the session of a sign-in sent with `forwardedFor` recorded. */
async function recordedAddress(app: TestApp, forwardedFor: string): Promise<string> {
  const user = await app.api.signUp();
  const signIn = await app.api.post('/auth/sign-in/email', { email: user.user.email, password: user.password }, undefined, { headers: { 'x-forwarded-for': forwardedFor } });
  expect(signIn.status).toBe(200);
  const sessions = await app.api.get('/auth/list-sessions', signIn.body.token);
  return sessions.body.find((s: { current: boolean }) => s.current).ipAddress;
}

describe('default configuration: no proxy is believed', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The default per-address limit; TRUST_PROXY left unset.
    t = await startTestApp({ RATE_LIMIT_AUTH: '20', APP_ROLES: 'api' });
  });
  afterAll(() => t?.close());

  it('sign-in guesses from loopback with a rotating X-Forwarded-For reach 429', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof guess>> | undefined;
    for (let i = 0; i < 25; i++) {
      last = await guess(t, `203.0.113.${i + 1}`);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(20).fill(401), ...Array(5).fill(429)]);
    expect(last!.body).toEqual({ message: 'Too many requests' });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('a session records the TCP peer, not the forwarded address', async () => {
    const fresh = await startTestApp({ APP_ROLES: 'api' });
    try {
      expect(await recordedAddress(fresh, '198.51.100.7')).toBe('127.0.0.1');
    } finally {
      await fresh.close();
    }
  });
});

describe('TRUST_PROXY=127.0.0.1: the named proxy’s X-Forwarded-For is the client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_AUTH: '3', APP_ROLES: 'api' });
  });
  afterAll(() => t?.close());

  it('two forwarded addresses have separate budgets', async () => {
    const first: number[] = [];
    for (let i = 0; i < 4; i++) first.push((await guess(t, '203.0.113.10')).status);
    expect(first).toEqual([401, 401, 401, 429]);
    // The proxy appends the peer it saw: the address on the right is the client.
    const second: number[] = [];
    for (let i = 0; i < 4; i++) second.push((await guess(t, '203.0.113.10, 203.0.113.20')).status);
    expect(second).toEqual([401, 401, 401, 429]);
  });

  it('a session records the forwarded address', async () => {
    expect(await recordedAddress(t, '198.51.100.7')).toBe('198.51.100.7');
  });
});
