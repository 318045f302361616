import { startPeerApp, startTestApp, TestApp } from '../../support/app';

/**
 * Rate limits are counted in Redis (src/redis/rate-limit.service.ts), so two API processes of one
 * installation share them (docs/decisions-local.md, "Rate limits"): requests alternated between
 * the two count as one sum.
 */
const API = 10;
const INVITES = 3;
const SIGN_IN_FAILURES = 4;
const env = { APP_ROLES: 'api', RATE_LIMIT_API: String(API), RATE_LIMIT_INVITES: String(INVITES), RATE_LIMIT_SIGN_IN_FAILURES: String(SIGN_IN_FAILURES) };

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await startTestApp(env);
  b = await startPeerApp(a, env);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** The i-th request goes to the first app when i is even, to the second when odd. */
const alternate = (i: number) => (i % 2 === 0 ? a : b);

it('the per-token API limit counts the requests of both processes together, for sessions and API keys', async () => {
  const user = await a.api.signUp();
  const key = (await a.api.post('/auth/api-key/create', { name: 'k' }, user.token)).body.key as string;
  for (const token of [user.token, key]) {
    // The session already made one request (the key's creation).
    const first = token === user.token ? 1 : 0;
    const statuses: number[] = [];
    for (let i = first; i < API + 2; i++) statuses.push((await alternate(i).api.get('/auth/get-session', token)).status);
    expect(statuses).toEqual([...Array(API - first).fill(200), 429, 429]);
  }
  // Each process alone would still have had room: the 429 came from the shared count.
  const blocked = await b.api.get('/auth/get-session', user.token);
  expect([blocked.status, blocked.body]).toEqual([429, { message: 'Too many requests' }]);
  expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
});

it('the invitation limit counts the invitations sent through both processes together', async () => {
  const owner = await a.api.signUp();
  const ws = await b.api.createWorkspace(owner.token);
  const answers: [number, unknown][] = [];
  for (let i = 0; i < INVITES + 2; i++) {
    const res = await alternate(i).api.post('/auth/organization/invite-member', { email: `guest${i}@example.test`, role: 'member', organizationId: ws.id }, owner.token);
    answers.push([res.status, res.status === 200 ? 'ok' : res.body]);
  }
  expect(answers).toEqual([...Array(INVITES).fill([200, 'ok']), ...Array(2).fill([429, { message: 'Too many invitations, try again later' }])]);
  const pending = await a.api.get(`/auth/organization/list-invitations?organizationId=${ws.id}`, owner.token);
  expect(pending.body).toHaveLength(INVITES);
});

it('the failed sign-ins of one email address are counted across both processes: the lock holds on both', async () => {
  const user = await a.api.signUp();
  const statuses: number[] = [];
  for (let i = 0; i < SIGN_IN_FAILURES; i++) statuses.push((await alternate(i).api.post('/auth/sign-in/email', { email: user.user.email, password: `wrong ${i}` })).status);
  expect(statuses).toEqual(Array(SIGN_IN_FAILURES).fill(401));
  for (const app of [a, b]) {
    const locked = await app.api.post('/auth/sign-in/email', { email: user.user.email, password: user.password });
    expect([locked.status, locked.body]).toEqual([429, { message: 'Too many requests' }]);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }
});
