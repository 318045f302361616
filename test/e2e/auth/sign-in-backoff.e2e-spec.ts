import { createHash, randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { Res } from '../../support/api';
import { sql } from '../../support/fixtures';
import { RateLimitService } from '../../../src/redis/rate-limit.service';

/**
 * Failed sign-ins are also counted per email address, known or not, across client addresses
 * (docs/decisions-local.md, "Rate limits"; docs/accounts.md, "Failed sign-ins"), and the token
 * routes count per client address (docs/accounts.md, "Tokens").
 */
/** Failed sign-ins of one address before it is locked (10 by default; fewer here, for time: each is a password hash). */
const LIMIT = 4;

let t: TestApp;
let redis: Redis;
beforeAll(async () => {
  // Behind a proxy on loopback, so that each request can come from a client address of its own;
  // the per-address limit high enough to stay out of the way.
  t = await startTestApp({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_AUTH: '1000', RATE_LIMIT_SIGN_IN_FAILURES: String(LIMIT), APP_ROLES: 'api' });
  redis = new Redis(runRedisUrl());
});
afterAll(async () => {
  await redis?.quit();
  await t?.close();
});

let nextAddress = 0;
/** A client address never used before in this file. */
const freshAddress = () => {
  nextAddress += 1;
  return `198.18.${Math.floor(nextAddress / 250)}.${(nextAddress % 250) + 1}`;
};

const signIn = (email: string, password: string, from = freshAddress()): Promise<Res> =>
  t.api.post('/auth/sign-in/email', { email, password }, undefined, { headers: { 'x-forwarded-for': from } });

const unknownEmail = () => `ghost${randomBytes(6).toString('hex')}@example.test`;

/** `n` wrong passwords for `email`, each from another client address; their statuses. */
async function fail(email: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await signIn(email, `wrong password ${i}`)).status);
  return statuses;
}

const retryAfter = (res: Res) => Number(res.headers.get('retry-after'));

describe('per-account back-off on failed sign-ins', () => {
  it('a rotating client address still hits the per-account limit: 429 with Retry-After, even with the right password', async () => {
    const user = await t.api.signUp();
    expect(await fail(user.user.email, LIMIT)).toEqual(Array(LIMIT).fill(401));
    const locked = await signIn(user.user.email, user.password);
    expect([locked.status, locked.body]).toEqual([429, { message: 'Too many requests' }]);
    expect(retryAfter(locked)).toBeGreaterThanOrEqual(1);
    expect(retryAfter(locked)).toBeLessThanOrEqual(60);
    expect(locked.headers.get('set-auth-token')).toBeNull();
    // The lock is the account's, under any spelling of its address; other accounts sign in.
    expect((await signIn(user.user.email.toUpperCase(), 'wrong password')).status).toBe(429);
    const other = await t.api.signUp();
    expect((await signIn(other.user.email, other.password)).status).toBe(200);
  });

  it('an unknown address is counted and locked alike: the answers do not tell whether an account exists', async () => {
    const known = await t.api.signUp();
    const ghost = unknownEmail();
    const answers = async (email: string) => {
      const statuses = await fail(email, LIMIT + 1);
      const last = await signIn(email, 'another wrong one');
      return { statuses: [...statuses, last.status], body: last.body, retryAfter: retryAfter(last) > 0 };
    };
    const forKnown = await answers(known.user.email);
    const forGhost = await answers(ghost);
    expect(forKnown).toEqual({ statuses: [...Array(LIMIT).fill(401), 429, 429], body: { message: 'Too many requests' }, retryAfter: true });
    expect(forGhost).toEqual(forKnown);
  });

  it('a successful sign-in clears the count', async () => {
    const user = await t.api.signUp();
    expect(await fail(user.user.email, LIMIT - 1)).toEqual(Array(LIMIT - 1).fill(401));
    expect((await signIn(user.user.email, user.password)).status).toBe(200);
    // A fresh count: LIMIT - 1 more failures do not lock; LIMIT do.
    expect(await fail(user.user.email, LIMIT - 1)).toEqual(Array(LIMIT - 1).fill(401));
    expect((await signIn(user.user.email, user.password)).status).toBe(200);
    expect(await fail(user.user.email, LIMIT)).toEqual(Array(LIMIT).fill(401));
    expect((await signIn(user.user.email, user.password)).status).toBe(429);
  });

  it("a password reset through the emailed link ends the address's lock at once", async () => {
    const user = await t.api.signUp();
    expect(await fail(user.user.email, LIMIT)).toEqual(Array(LIMIT).fill(401));
    expect((await signIn(user.user.email, user.password)).status).toBe(429);
    // The token the reset email would carry (stored by its SHA-256, as the service stores it).
    const token = randomBytes(32).toString('base64url');
    const tokenHash = createHash('sha256').update(token).digest('hex');
    await sql(t.databaseUrl, `INSERT INTO user_token (user_id, purpose, token_hash, email, expires_at) VALUES ($1, 'reset-password', $2, $3, now() + interval '1 hour')`, [
      user.user.id,
      tokenHash,
      user.user.email,
    ]);
    // A refused reset (a wrong token) leaves the lock.
    expect((await t.api.post('/auth/reset-password', { token: 'not the token', newPassword: 'a new password' })).status).toBe(400);
    expect((await signIn(user.user.email, user.password)).status).toBe(429);
    const reset = await t.api.post('/auth/reset-password', { token, newPassword: 'a new password' });
    expect([reset.status, reset.body]).toEqual([200, { status: true }]);
    expect((await signIn(user.user.email, 'a new password')).status).toBe(200);
    // And the count starts again from nothing.
    expect(await fail(user.user.email, LIMIT - 1)).toEqual(Array(LIMIT - 1).fill(401));
    expect((await signIn(user.user.email, 'a new password')).status).toBe(200);
  });

  it('each failure after a lock ends locks twice as long as the last', async () => {
    const user = await t.api.signUp();
    expect(await fail(user.user.email, LIMIT)).toEqual(Array(LIMIT).fill(401));
    const first = await signIn(user.user.email, user.password);
    expect(first.status).toBe(429);
    expect(retryAfter(first)).toBeLessThanOrEqual(60);
    // The first lock runs out (its key is removed, in Redis and in the process's own counts,
    // instead of waiting a minute): the next guess is answered, fails, and locks for two minutes.
    const lockKey = `${t.queuePrefix}:rl:sign-in-lock:${createHash('sha256').update(user.user.email).digest('base64url')}`;
    expect(await redis.del(lockKey)).toBe(1);
    const local = t.running.app.get(RateLimitService).local;
    expect(local.get(lockKey)).not.toBeNull();
    local.delete(lockKey);
    expect(await fail(user.user.email, 1)).toEqual([401]);
    const second = await signIn(user.user.email, user.password);
    expect(second.status).toBe(429);
    expect(retryAfter(second)).toBeGreaterThan(60);
    expect(retryAfter(second)).toBeLessThanOrEqual(120);
  });
});

describe('token routes count per client address', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_AUTH: '3', APP_ROLES: 'api' });
  });
  afterAll(() => limited?.close());

  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

  it('reset-password with a token answers 429 past RATE_LIMIT_AUTH', async () => {
    const statuses: number[] = [];
    let last: Res | undefined;
    for (let i = 0; i < 5; i++) {
      last = await limited.api.post('/auth/reset-password', { token: randomBytes(32).toString('base64url'), newPassword: 'new password 1' }, undefined, from('203.0.113.51'));
      statuses.push(last.status);
    }
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    expect(last!.body).toEqual({ message: 'Too many requests' });
    expect(retryAfter(last!)).toBeGreaterThanOrEqual(1);
    // Another client address has its own budget.
    const other = await limited.api.post('/auth/reset-password', { token: 'x', newPassword: 'new password 1' }, undefined, from('203.0.113.52'));
    expect([other.status, other.body]).toEqual([400, { message: 'Invalid or expired token' }]);
  });

  it('verify-email with a token answers 429 past RATE_LIMIT_AUTH', async () => {
    const statuses: number[] = [];
    let last: Res | undefined;
    for (let i = 0; i < 5; i++) {
      last = await limited.api.get(`/auth/verify-email?token=${randomBytes(32).toString('base64url')}`, undefined, from('203.0.113.61'));
      statuses.push(last.status);
    }
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    expect(last!.body).toEqual({ message: 'Too many requests' });
    expect(retryAfter(last!)).toBeGreaterThanOrEqual(1);
  });
});
