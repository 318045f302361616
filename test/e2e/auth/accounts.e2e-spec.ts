import { createHash, randomBytes } from 'node:crypto';
import { Job, Queue } from 'bullmq';
import { Client } from 'pg';
import { QueueName } from '../../../src/queue/queues';
import { redisOptionsFromUrl } from '../../../src/redis/redis-options';
import { Auth, Res } from '../../support/api';
import { runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { nearMissUrls } from '../../support/near-misses';
import { ReceivedMail, TestSmtpServer } from '../../support/smtp';
import { until } from '../../support/until';

/**
 * Account upkeep (docs/accounts.md) against a real SMTP server on loopback: every email below went
 * through the outbox, the worker and SMTP, and every link is followed as a browser would.
 */

const REDIS_URL = runRedisUrl();
// The app's public addresses as the emails show them; the test calls the app on its real port.
const PUBLIC_API_URL = 'https://api.tandem.test';
const CLIENT_URL = 'https://app.tandem.test';
const VERIFY_SUBJECT = 'Verify your email address on Tandem';
const RESET_SUBJECT = 'Reset your Tandem password';

const smtp = new TestSmtpServer();
let smtpPort: number;
let t: TestApp;

beforeAll(async () => {
  smtpPort = await smtp.start();
  t = await startTestApp({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtpPort), PUBLIC_API_URL, CLIENT_URL });
});
afterAll(async () => {
  await t?.close();
  await smtp.stop();
});

const address = (name = 'user') => `${name}.${randomBytes(5).toString('hex')}@example.test`;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The n-th mail (1-based) with `subject` to `to`, once it has arrived. */
async function mail(to: string, subject: string, n = 1): Promise<ReceivedMail> {
  const got = await until(`${n} mail(s) "${subject}" to ${to}`, () => {
    const matching = smtp.to(to).filter((m) => m.parsed.subject === subject);
    return matching.length >= n ? matching : null;
  });
  return got[n - 1];
}

/** The one link of an email that carries a token, checked to be the same in the text and HTML parts. */
function tokenLink(m: ReceivedMail): URL {
  const links = (m.parsed.text ?? '').match(/https?:\/\/\S*[?&]token=\S+/g) ?? [];
  expect(links).toHaveLength(1);
  const link = links[0]!;
  expect(m.parsed.html as string).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
  return new URL(link);
}

/** The link as the app itself serves it (the emails name the public address). */
const local = (link: URL) => link.pathname.replace(/^\/api/, '') + link.search;

/**
 * A user who signed up, followed the verification email's link and signed in again (the proof
 * ended the sign-up's session): `token` is the session made after the proof.
 */
async function verifiedUser(name = 'verified'): Promise<Auth & { password: string }> {
  const u = await t.api.signUp({ email: address(name) });
  const verify = await t.api.get(local(tokenLink(await mail(u.user.email, VERIFY_SUBJECT))));
  expect(verify.status).toBe(200);
  const signIn = await t.api.post('/auth/sign-in/email', { email: u.user.email, password: u.password });
  expect(signIn.status).toBe(200);
  return { ...u, token: signIn.body.token, user: signIn.body.user };
}

/** Requests a reset for the user and answers the token of its email. */
async function resetToken(email: string, n = 1): Promise<string> {
  const res = await t.api.post('/auth/request-password-reset', { email });
  expect([res.status, res.body]).toEqual([200, { status: true }]);
  return tokenLink(await mail(email, RESET_SUBJECT, n)).searchParams.get('token')!;
}

function emailQueue(app: TestApp): Queue {
  return new Queue(QueueName.Email, { connection: redisOptionsFromUrl(REDIS_URL), prefix: `${app.queuePrefix}:bull` });
}

/** The ids of the email jobs of kind `name` for `email` (the jobs carry only the id of their email_job row). */
async function emailJobIds(app: TestApp, name: string, email: string): Promise<Set<string>> {
  const rows = await sql(app.databaseUrl, `SELECT id FROM email_job WHERE kind = $1 AND reference->>'email' = $2`, [name, email]);
  return new Set(rows.map((r) => r.id));
}

/** The finished email job named `name` for `email`. */
function finishedJobFor(queue: Queue, name: string, email: string): Promise<Job> {
  return until(`the ${name} job for ${email} to finish`, async () => {
    const ids = await emailJobIds(t, name, email);
    const jobs = await queue.getJobs(['completed', 'failed']);
    return jobs.find((j) => j.name === name && ids.has(j.id!) && j.finishedOn) ?? null;
  });
}

describe('email verification', () => {
  it('sign-up emails a verification link; following it verifies the email, once', async () => {
    const email = address('ada');
    const signUp = await t.api.post('/auth/sign-up/email', { name: 'Ada <Lovelace>', email, password: 'correct horse' });
    expect(signUp.status).toBe(200);
    expect(signUp.body.user.emailVerified).toBe(false);

    const m = await mail(email, VERIFY_SUBJECT);
    expect(m.parsed.text).toContain('Hello Ada <Lovelace>,');
    expect(m.parsed.html).toContain('Hello Ada &lt;Lovelace&gt;,');
    const link = tokenLink(m);
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_API_URL}/api/auth/verify-email`);
    const token = link.searchParams.get('token')!;
    expect([...link.searchParams.keys()]).toEqual(['token']);
    // At least 128 random bits; only the hash is stored.
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const rows = await sql(t.databaseUrl, `SELECT token_hash, purpose, email, expires_at FROM user_token WHERE user_id = $1`, [signUp.body.user.id]);
    expect(rows).toEqual([{ token_hash: sha256(token), purpose: 'verify-email', email, expires_at: expect.any(Date) }]);
    const ttl = rows[0].expires_at.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(23.9 * 3600e3);
    expect(ttl).toBeLessThanOrEqual(24 * 3600e3);

    const verify = await t.api.get(local(link));
    expect(verify.status).toBe(200);
    expect(verify.body).toEqual({ status: true, user: { ...signUp.body.user, emailVerified: true, updatedAt: expect.any(String) } });
    // The first proof of the address ends the session made before it (docs/accounts.md, "When an
    // address is proven"); signing in again shows the address verified.
    expect((await t.api.get('/auth/get-session', signUp.body.token)).status).toBe(401);
    const signIn = await t.api.post('/auth/sign-in/email', { email, password: 'correct horse' });
    expect(signIn.body.user.emailVerified).toBe(true);

    const again = await t.api.get(local(link));
    expect([again.status, again.body]).toEqual([400, { message: 'Invalid or expired token' }]);
  });

  it('send-verification-email mails a fresh link with the callbackURL; verify-email then redirects there', async () => {
    const u = await t.api.signUp({ email: address('cb') });
    const first = tokenLink(await mail(u.user.email, VERIFY_SUBJECT));
    const res = await t.api.post('/auth/send-verification-email', { email: u.user.email.toUpperCase(), callbackURL: '/welcome?from=mail' });
    expect([res.status, res.body]).toEqual([200, { status: true }]);
    const second = tokenLink(await mail(u.user.email, VERIFY_SUBJECT, 2));
    expect(second.searchParams.get('callbackURL')).toBe(`${CLIENT_URL}/welcome?from=mail`);

    // A new link replaces the previous one.
    const old = await t.api.get(local(first));
    expect([old.status, old.body]).toEqual([400, { message: 'Invalid or expired token' }]);

    // A callbackURL on another origin is refused, and the token is not spent by the refusal.
    const token = second.searchParams.get('token')!;
    const foreign = await t.api.get(`/auth/verify-email?token=${token}&callbackURL=${encodeURIComponent('https://evil.test/x')}`);
    expect([foreign.status, foreign.body]).toEqual([400, { message: 'callbackURL must be on the origin of CLIENT_URL or PUBLIC_API_URL' }]);

    const redirected = await t.api.get(local(second));
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('location')).toBe(`${CLIENT_URL}/welcome?from=mail`);
    const [row] = await sql(t.databaseUrl, `SELECT email_verified FROM "user" WHERE id = $1`, [u.user.id]);
    expect(row.email_verified).toBe(true);
  });

  it("sign-up's callbackURL goes into its verification link; one on another origin is 400 and makes no account", async () => {
    const email = address();
    const res = await t.api.post('/auth/sign-up/email', { name: 'Cal Back', email, password: 'correct horse battery', callbackURL: '/verify-email?verified=1' });
    expect(res.status).toBe(200);
    const mail = await until('the verification email', () => smtp.to(email).find((x) => x.parsed.subject?.startsWith('Verify your email address')));
    const link = new URL((mail.parsed.text ?? '').match(/https?:\/\/\S*verify-email\S*/)![0]);
    expect(link.origin + link.pathname).toBe(`${PUBLIC_API_URL}/api/auth/verify-email`);
    expect(link.searchParams.get('callbackURL')).toBe(`${CLIENT_URL}/verify-email?verified=1`);

    const refused = address();
    const bad = await t.api.post('/auth/sign-up/email', { name: 'Eve', email: refused, password: 'correct horse battery', callbackURL: 'https://evil.test/x' });
    expect([bad.status, bad.body]).toEqual([400, { message: 'callbackURL must be on the origin of CLIENT_URL or PUBLIC_API_URL' }]);
    expect(await sql(t.databaseUrl, `SELECT id FROM "user" WHERE email = $1`, [refused])).toEqual([]);
  });

  it('refuses a callbackURL on another origin when the email is requested', async () => {
    for (const callbackURL of ['https://evil.test/welcome', '//evil.test/x', 'javascript:alert(1)']) {
      const res = await t.api.post('/auth/send-verification-email', { email: address(), callbackURL });
      expect([callbackURL, res.status, res.body]).toEqual([callbackURL, 400, { message: 'callbackURL must be on the origin of CLIENT_URL or PUBLIC_API_URL' }]);
    }
    // null means "none", as an absent field.
    for (const [path, field] of [
      ['/auth/send-verification-email', 'callbackURL'],
      ['/auth/request-password-reset', 'redirectTo'],
    ]) {
      const none = await t.api.post(path, { email: address(), [field]: null });
      expect([path, none.status, none.body]).toEqual([path, 200, { status: true }]);
    }
    const bad = await t.api.post('/auth/send-verification-email', { email: 'not-an-email' });
    expect([bad.status, bad.body]).toEqual([400, { message: 'email must be a valid email address' }]);
  });

  it('every callbackURL and redirectTo refuses near misses of both allowed origins, and a refusal does nothing', async () => {
    const u = await t.api.signUp({ email: address('near') });
    const link = tokenLink(await mail(u.user.email, VERIFY_SUBJECT));
    const token = link.searchParams.get('token')!;
    const tokens = () => sql(t.databaseUrl, `SELECT purpose, token_hash FROM user_token WHERE user_id = $1 ORDER BY purpose`, [u.user.id]);
    const before = await tokens();
    expect(before).toEqual([{ purpose: 'verify-email', token_hash: sha256(token) }]);
    const refused = (field: string) => [400, { message: `${field} must be on the origin of CLIENT_URL or PUBLIC_API_URL` }];
    const newcomers: string[] = [];
    for (const allowed of [CLIENT_URL, PUBLIC_API_URL]) {
      for (const [what, url] of nearMissUrls(allowed)) {
        const newcomer = address('nearmiss');
        newcomers.push(newcomer);
        const answers = {
          signUp: await t.api.post('/auth/sign-up/email', { name: 'Eve', email: newcomer, password: 'correct horse battery', callbackURL: url }),
          sendVerification: await t.api.post('/auth/send-verification-email', { email: u.user.email, callbackURL: url }),
          verify: await t.api.get(`/auth/verify-email?token=${token}&callbackURL=${encodeURIComponent(url)}`),
          requestReset: await t.api.post('/auth/request-password-reset', { email: u.user.email, redirectTo: url }),
        };
        expect([what, url, Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, [r.status, r.body]]))]).toEqual([
          what,
          url,
          { signUp: refused('callbackURL'), sendVerification: refused('callbackURL'), verify: refused('callbackURL'), requestReset: refused('redirectTo') },
        ]);
      }
    }
    // No account was made, no token spent, replaced or added.
    expect(await sql(t.databaseUrl, `SELECT email FROM "user" WHERE email = ANY($1)`, [newcomers])).toEqual([]);
    expect(await tokens()).toEqual(before);
    const verified = await t.api.get(local(link));
    expect([verified.status, verified.body.user?.emailVerified]).toEqual([200, true]);
  });

  it('refuses an unknown or expired token with 400', async () => {
    const unknown = await t.api.get(`/auth/verify-email?token=${randomBytes(32).toString('base64url')}`);
    expect([unknown.status, unknown.body]).toEqual([400, { message: 'Invalid or expired token' }]);
    const missing = await t.api.get('/auth/verify-email');
    expect(missing.status).toBe(400);

    const u = await t.api.signUp({ email: address('late') });
    const link = tokenLink(await mail(u.user.email, VERIFY_SUBJECT));
    await sql(t.databaseUrl, `UPDATE user_token SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [u.user.id]);
    const expired = await t.api.get(local(link));
    expect([expired.status, expired.body]).toEqual([400, { message: 'Invalid or expired token' }]);
    expect((await t.api.get('/auth/get-session', u.token)).body.user.emailVerified).toBe(false);
  });

  it('sends nothing to an address that is already verified', async () => {
    const queue = emailQueue(t);
    try {
      const u = await verifiedUser();
      const res = await t.api.post('/auth/send-verification-email', { email: u.user.email });
      expect([res.status, res.body]).toEqual([200, { status: true }]);
      const jobs = await until('both verify-email jobs to finish', async () => {
        const ids = await emailJobIds(t, 'verify-email', u.user.email);
        const done = (await queue.getJobs(['completed', 'failed'])).filter((j) => j.name === 'verify-email' && ids.has(j.id!) && j.finishedOn);
        return done.length === 2 ? done : null;
      });
      expect(jobs.map((j) => j.returnvalue).filter((r) => 'skipped' in r)).toEqual([{ skipped: 'obsolete' }]);
      expect(smtp.to(u.user.email).filter((m) => m.parsed.subject === VERIFY_SUBJECT)).toHaveLength(1);
    } finally {
      await queue.close();
    }
  });
});

/** Stores an API key for the user straight in the table (as a key made before a rule existed); answers the key. */
async function plantApiKey(userId: string): Promise<string> {
  const key = `tdm_${randomBytes(32).toString('base64url')}`;
  await sql(t.databaseUrl, `INSERT INTO api_key (user_id, name, start, key_hash) VALUES ($1, 'planted', $2, $3)`, [userId, key.slice(0, 10), sha256(key)]);
  return key;
}

/** Links an outside sign-in identity to the user straight in the table (this app has no OpenID provider). */
async function plantIdentity(userId: string): Promise<void> {
  await sql(t.databaseUrl, `INSERT INTO account (user_id, provider_id, account_id) VALUES ($1, 'custom', $2)`, [userId, `sub-${randomBytes(6).toString('hex')}`]);
}

describe('proving an address ends what was made before the proof', () => {
  it('an unverified address gets no API key and no linked identity while mail is configured; a verified one does', async () => {
    const u = await t.api.signUp({ email: address('squatter') });
    const refused = await t.api.post('/auth/api-key/create', { name: 'planted' }, u.token);
    expect([refused.status, refused.body]).toEqual([403, { message: 'Email not verified' }]);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM api_key WHERE user_id = $1`, [u.user.id])).toHaveLength(0);

    const owner = await verifiedUser('owner');
    const created = await t.api.post('/auth/api-key/create', { name: 'mine' }, owner.token);
    expect(created.status).toBe(200);
  });

  it('the first verification ends the sessions, API keys (and keys minted from them) and linked identities made before it', async () => {
    const u = await t.api.signUp({ email: address('early'), password: 'early password' });
    const second = (await t.api.post('/auth/sign-in/email', { email: u.user.email, password: 'early password' })).body.token as string;
    const key = await plantApiKey(u.user.id);
    await plantIdentity(u.user.id);
    expect((await t.api.get('/auth/get-session', key)).status).toBe(200);

    const verify = await t.api.get(local(tokenLink(await mail(u.user.email, VERIFY_SUBJECT))));
    expect(verify.status).toBe(200);
    for (const old of [u.token, second, key]) expect((await t.api.get('/auth/get-session', old)).status).toBe(401);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM account WHERE user_id = $1`, [u.user.id])).toHaveLength(0);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM api_key WHERE user_id = $1`, [u.user.id])).toHaveLength(0);

    // What is made after the proof stays when the address is verified again (nothing new is proven).
    const after = (await t.api.post('/auth/sign-in/email', { email: u.user.email, password: 'early password' })).body.token as string;
    const kept = (await t.api.post('/auth/api-key/create', { name: 'after' }, after)).body.key as string;
    await sql(t.databaseUrl, `INSERT INTO user_token (user_id, purpose, token_hash, email, expires_at) VALUES ($1, 'verify-email', $2, $3, now() + interval '1 hour')`, [
      u.user.id,
      sha256('second-proof-token'),
      u.user.email,
    ]);
    expect((await t.api.get('/auth/verify-email?token=second-proof-token')).status).toBe(200);
    expect((await t.api.get('/auth/get-session', after)).status).toBe(200);
    expect((await t.api.get('/auth/get-session', kept)).status).toBe(200);
  });
});

describe('password reset', () => {
  it('a reset sets the new password, ends every session, API key and linked identity made before it, and works once', async () => {
    const u = await verifiedUser('forgetful');
    const first = u.token;
    const second = await t.api.post('/auth/sign-in/email', { email: u.user.email, password: u.password });
    const key = (await t.api.post('/auth/api-key/create', { name: 'ci' }, first)).body.key as string;
    const minted = (await t.api.post('/auth/api-key/create', { name: 'minted' }, key)).body.key as string;
    await plantIdentity(u.user.id);
    expect((await t.api.get('/auth/get-session', minted)).status).toBe(200);

    const token = await resetToken(u.user.email);
    const link = tokenLink(await mail(u.user.email, RESET_SUBJECT));
    expect(`${link.origin}${link.pathname}`).toBe(`${CLIENT_URL}/reset-password`);
    const [row] = await sql(t.databaseUrl, `SELECT token_hash, expires_at FROM user_token WHERE user_id = $1 AND purpose = 'reset-password'`, [u.user.id]);
    expect(row.token_hash).toBe(sha256(token));
    const ttl = row.expires_at.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(0.9 * 3600e3);
    expect(ttl).toBeLessThanOrEqual(3600e3);

    const reset = await t.api.post('/auth/reset-password', { newPassword: 'new password 2', token });
    expect([reset.status, reset.body]).toEqual([200, { status: true }]);

    for (const old of [first, second.body.token, key, minted]) {
      const res = await t.api.get('/auth/get-session', old);
      expect([res.status, res.body]).toEqual([401, { message: 'Unauthorized' }]);
    }
    expect(await sql(t.databaseUrl, `SELECT 1 FROM account WHERE user_id = $1`, [u.user.id])).toHaveLength(0);
    expect((await t.api.post('/auth/sign-in/email', { email: u.user.email, password: u.password })).status).toBe(401);
    const signIn = await t.api.post('/auth/sign-in/email', { email: u.user.email, password: 'new password 2' });
    expect(signIn.status).toBe(200);
    // The link came to the address: it counts as verified.
    expect(signIn.body.user.emailVerified).toBe(true);

    const twice = await t.api.post('/auth/reset-password', { newPassword: 'third password', token });
    expect([twice.status, twice.body]).toEqual([400, { message: 'Invalid or expired token' }]);
    expect((await t.api.post('/auth/sign-in/email', { email: u.user.email, password: 'new password 2' })).status).toBe(200);
  });

  it('refuses an expired token, a made-up one and a verification token', async () => {
    const u = await t.api.signUp({ email: address('slow') });
    const verifyToken = tokenLink(await mail(u.user.email, VERIFY_SUBJECT)).searchParams.get('token')!;
    const token = await resetToken(u.user.email);
    await sql(t.databaseUrl, `UPDATE user_token SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND purpose = 'reset-password'`, [u.user.id]);
    for (const tok of [token, verifyToken, randomBytes(32).toString('base64url')]) {
      const res = await t.api.post('/auth/reset-password', { newPassword: 'new password 2', token: tok });
      expect([res.status, res.body]).toEqual([400, { message: 'Invalid or expired token' }]);
    }
    expect((await t.api.get('/auth/get-session', u.token)).status).toBe(200);
    expect((await t.api.post('/auth/sign-in/email', { email: u.user.email, password: u.password })).status).toBe(200);
    const short = await t.api.post('/auth/reset-password', { newPassword: 'short', token });
    expect([short.status, short.body]).toEqual([400, { message: 'newPassword must be at least 8 characters' }]);
  });

  it('builds the link on redirectTo when it is on an allowed origin, refuses it elsewhere', async () => {
    const u = await t.api.signUp({ email: address('redirect') });
    const res = await t.api.post('/auth/request-password-reset', { email: u.user.email, redirectTo: `${CLIENT_URL}/account/new-password?lang=en` });
    expect(res.status).toBe(200);
    const link = tokenLink(await mail(u.user.email, RESET_SUBJECT));
    expect(`${link.origin}${link.pathname}`).toBe(`${CLIENT_URL}/account/new-password`);
    expect(link.searchParams.get('lang')).toBe('en');
    const foreign = await t.api.post('/auth/request-password-reset', { email: u.user.email, redirectTo: 'https://evil.test/reset' });
    expect([foreign.status, foreign.body]).toEqual([400, { message: 'redirectTo must be on the origin of CLIENT_URL or PUBLIC_API_URL' }]);
  });
});

/**
 * Runs `use` twice at once while the test holds the user's row (FOR UPDATE), which a token's use
 * locks right after taking the token: the first use waits there with the token taken and not yet
 * committed, and the second has read what it reads of the token and waits for the first's
 * uncommitted delete of it (both seen in pg_stat_activity, no time given). Then the row is let go
 * and both answers are returned, in the order they were sent.
 */
async function twoUsesAtOnce(userId: string, use: (n: number) => Promise<Res>): Promise<Res[]> {
  const holder = new Client({ connectionString: t.databaseUrl });
  await holder.connect();
  let uses: Promise<Res[]> | undefined;
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM "user" WHERE id = $1 FOR UPDATE', [userId]);
    uses = Promise.all([use(1), use(2)]);
    const waiting = (like: string) =>
      sql(t.databaseUrl, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`, [like]);
    await until('one use waiting for the user row and one for the token', async () => {
      const [[onUser], [onToken]] = await Promise.all([waiting('%FROM "user" WHERE id = $1 FOR UPDATE%'), waiting('%user_token%')]);
      return onUser.n === 1 && onToken.n === 1;
    });
  } finally {
    await holder.query('ROLLBACK');
    await holder.end();
  }
  return uses;
}

describe('one token used twice at once', () => {
  it('two resets with one reset token: exactly one succeeds, the other is 400 and changes nothing', async () => {
    const u = await verifiedUser('racer');
    const token = await resetToken(u.user.email);
    const answers = await twoUsesAtOnce(u.user.id, (n) => t.api.post('/auth/reset-password', { newPassword: `new password ${n}`, token }));
    const outcome = answers.map((r) => [r.status, r.body]);
    expect(outcome).toContainEqual([200, { status: true }]);
    expect(outcome).toContainEqual([400, { message: 'Invalid or expired token' }]);
    // The password is the one of the use that succeeded; the other's never worked.
    const won = answers.findIndex((r) => r.status === 200) + 1;
    const lost = 3 - won;
    expect((await t.api.post('/auth/sign-in/email', { email: u.user.email, password: `new password ${won}` })).status).toBe(200);
    expect((await t.api.post('/auth/sign-in/email', { email: u.user.email, password: `new password ${lost}` })).status).toBe(401);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM user_token WHERE user_id = $1`, [u.user.id])).toEqual([]);
  });

  it('two verifications with one verification token: exactly one succeeds, the other is 400', async () => {
    const u = await t.api.signUp({ email: address('twice') });
    const link = local(tokenLink(await mail(u.user.email, VERIFY_SUBJECT)));
    const answers = await twoUsesAtOnce(u.user.id, () => t.api.get(link));
    const outcome = answers.map((r) => [r.status, r.body]);
    expect(outcome).toContainEqual([200, { status: true, user: { ...u.user, emailVerified: true, updatedAt: expect.any(String) } }]);
    expect(outcome).toContainEqual([400, { message: 'Invalid or expired token' }]);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM user_token WHERE user_id = $1`, [u.user.id])).toEqual([]);
  });
});

describe('no account enumeration', () => {
  it('known and unknown addresses get the same answer, and only the known one gets an email', async () => {
    const queue = emailQueue(t);
    try {
      const known = await verifiedUser('known');
      const unknown = address('nobody');
      const shape = (r: Res) => ({ status: r.status, body: r.body, type: r.headers.get('content-type'), length: r.headers.get('content-length') });
      for (const path of ['/auth/request-password-reset', '/auth/send-verification-email']) {
        const a = await t.api.post(path, { email: unknown });
        const b = await t.api.post(path, { email: known.user.email });
        expect(shape(a)).toEqual(shape(b));
        expect(shape(a)).toEqual(expect.objectContaining({ status: 200, body: { status: true } }));
      }
      // The known address gets its reset email; the unknown one's jobs ran and sent nothing.
      await mail(known.user.email, RESET_SUBJECT);
      for (const name of ['reset-password', 'verify-email']) {
        const job = await finishedJobFor(queue, name, unknown);
        expect([name, job.returnvalue]).toEqual([name, { skipped: 'obsolete' }]);
      }
      expect(smtp.to(unknown)).toHaveLength(0);
    } finally {
      await queue.close();
    }
  });
});

describe('change password', () => {
  it('refuses a wrong current password with 400 and changes nothing', async () => {
    const u = await t.api.signUp({ password: 'first password' });
    const wrong = await t.api.post('/auth/change-password', { currentPassword: 'not it at all', newPassword: 'second password' }, u.token);
    expect([wrong.status, wrong.body]).toEqual([400, { message: 'Invalid password' }]);
    const short = await t.api.post('/auth/change-password', { currentPassword: 'first password', newPassword: 'short' }, u.token);
    expect([short.status, short.body]).toEqual([400, { message: 'newPassword must be at least 8 characters' }]);
    expect((await t.api.post('/auth/sign-in/email', { email: u.user.email, password: 'first password' })).status).toBe(200);
    expect((await t.api.post('/auth/change-password', { currentPassword: 'first password', newPassword: 'x'.repeat(8) })).status).toBe(401);
  });

  it('changes the password; other sessions end unless revokeOtherSessions is false, the calling one always stays', async () => {
    const u = await t.api.signUp({ password: 'first password' });
    const other = (await t.api.post('/auth/sign-in/email', { email: u.user.email, password: 'first password' })).body.token;

    const keep = await t.api.post('/auth/change-password', { currentPassword: 'first password', newPassword: 'second password', revokeOtherSessions: false }, u.token);
    expect(keep.status).toBe(200);
    expect(keep.body).toEqual({ token: u.token, user: { ...u.user, emailVerified: false, updatedAt: expect.any(String) } });
    expect((await t.api.get('/auth/get-session', other)).status).toBe(200);

    const revoke = await t.api.post('/auth/change-password', { currentPassword: 'second password', newPassword: 'third password' }, u.token);
    expect(revoke.status).toBe(200);
    expect(revoke.body.token).toBe(u.token);
    expect((await t.api.get('/auth/get-session', other)).status).toBe(401);
    expect((await t.api.get('/auth/get-session', u.token)).status).toBe(200);

    for (const [password, status] of [
      ['first password', 401],
      ['second password', 401],
      ['third password', 200],
    ] as const) {
      expect([password, (await t.api.post('/auth/sign-in/email', { email: u.user.email, password })).status]).toEqual([password, status]);
    }
  });
});

describe('sessions', () => {
  it('lists the live sessions with the address and user agent of their sign-in; one is revoked from another', async () => {
    const u = await t.api.signUp();
    const signIn = (agent: string) => t.api.request('POST', '/auth/sign-in/email', { email: u.user.email, password: u.password }, { headers: { 'user-agent': agent } });
    const laptop = (await signIn('Laptop Browser/1.0')).body.token as string;
    const phone = (await signIn('Phone App/2.0')).body.token as string;
    await t.api.post('/auth/sign-out', undefined, u.token);

    const list = await t.api.get('/auth/list-sessions', laptop);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        id: expect.any(String),
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        ipAddress: expect.stringContaining('127.0.0.1'),
        userAgent: 'Phone App/2.0',
        current: false,
      },
      {
        id: expect.any(String),
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        ipAddress: expect.stringContaining('127.0.0.1'),
        userAgent: 'Laptop Browser/1.0',
        current: true,
      },
    ]);
    const phoneId = list.body[0].id;
    expect((await t.api.get('/auth/list-sessions', phone)).body.map((s: any) => s.current)).toEqual([true, false]);

    // Someone else cannot revoke it, nor see it.
    const stranger = await t.api.signUp();
    const foreign = await t.api.post('/auth/revoke-session', { id: phoneId }, stranger.token);
    expect([foreign.status, foreign.body]).toEqual([404, { message: 'Session not found' }]);
    expect((await t.api.get('/auth/list-sessions', stranger.token)).body).toHaveLength(1);
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const res = await t.api.post('/auth/revoke-session', { id }, laptop);
      expect([res.status, res.body]).toEqual([404, { message: 'Session not found' }]);
    }

    const revoked = await t.api.post('/auth/revoke-session', { id: phoneId }, laptop);
    expect([revoked.status, revoked.body]).toEqual([200, { status: true }]);
    expect((await t.api.get('/auth/get-session', phone)).status).toBe(401);
    expect((await t.api.get('/auth/get-session', laptop)).status).toBe(200);
    expect((await t.api.get('/auth/list-sessions', laptop)).body.map((s: any) => s.userAgent)).toEqual(['Laptop Browser/1.0']);
    // Already revoked: no longer one of the caller's sessions.
    expect((await t.api.post('/auth/revoke-session', { id: phoneId }, laptop)).status).toBe(404);
  });

  it('revoke-other-sessions keeps only the calling session', async () => {
    const u = await t.api.signUp();
    const others = await Promise.all([1, 2].map(async () => (await t.api.post('/auth/sign-in/email', { email: u.user.email, password: u.password })).body.token as string));
    const res = await t.api.post('/auth/revoke-other-sessions', undefined, u.token);
    expect([res.status, res.body]).toEqual([200, { status: true }]);
    for (const token of others) expect((await t.api.get('/auth/get-session', token)).status).toBe(401);
    expect((await t.api.get('/auth/get-session', u.token)).status).toBe(200);
    expect((await t.api.get('/auth/list-sessions', u.token)).body).toEqual([expect.objectContaining({ current: true })]);
  });

  it('an API key limited by permissions may not touch sessions or the password', async () => {
    const u = await verifiedUser('scoped');
    const key = (await t.api.post('/auth/api-key/create', { permissions: { task: ['read'] } }, u.token)).body.key;
    const calls: [string, string, unknown][] = [
      ['GET', '/auth/list-sessions', undefined],
      ['POST', '/auth/revoke-other-sessions', undefined],
      ['POST', '/auth/revoke-session', { id: '00000000-0000-4000-8000-000000000000' }],
      ['POST', '/auth/change-password', { currentPassword: u.password, newPassword: 'another password' }],
      ['GET', '/auth/organization/list-user-invitations', undefined],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.api.request(method, path, body, { token: key });
      expect([path, res.status, res.body]).toEqual([path, 403, { message: 'Insufficient API key scope' }]);
    }
    expect((await t.api.get('/auth/get-session', u.token)).status).toBe(200);
  });
});

describe('invitations addressed to me', () => {
  it('lists a pending invitation for its invitee only, with the workspace and inviter names', async () => {
    const owner = await t.api.signUp({ name: 'Olga Owner' });
    const ws = await t.api.createWorkspace(owner.token, 'Studio North');
    const invitee = await verifiedUser('invitee');
    const other = await verifiedUser('other');
    const inv = await t.api.post('/auth/organization/invite-member', { email: invitee.user.email, role: 'admin', organizationId: ws.id }, owner.token);
    expect(inv.status).toBe(200);
    // A canceled and an expired invitation to the same address are not listed.
    const ws2 = await t.api.createWorkspace(owner.token, 'Studio South');
    const canceled = await t.api.post('/auth/organization/invite-member', { email: invitee.user.email, role: 'member', organizationId: ws2.id }, owner.token);
    await t.api.post('/auth/organization/cancel-invitation', { invitationId: canceled.body.id }, owner.token);
    const ws3 = await t.api.createWorkspace(owner.token, 'Studio East');
    const expired = await t.api.post('/auth/organization/invite-member', { email: invitee.user.email, role: 'member', organizationId: ws3.id }, owner.token);
    await sql(t.databaseUrl, `UPDATE invitation SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.body.id]);

    const mine = await t.api.get('/auth/organization/list-user-invitations', invitee.token);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([
      { id: inv.body.id, organizationId: ws.id, organizationName: 'Studio North', role: 'admin', inviterName: 'Olga Owner', expiresAt: inv.body.expiresAt },
    ]);
    const theirs = await t.api.get('/auth/organization/list-user-invitations', other.token);
    expect([theirs.status, theirs.body]).toEqual([200, []]);
    const inviter = await t.api.get('/auth/organization/list-user-invitations', owner.token);
    // The owner never verified an address: an invitation's id is not shown to an unproven address.
    expect([inviter.status, inviter.body]).toEqual([403, { message: 'Email not verified' }]);

    // Accepted, it is no longer listed.
    expect((await t.api.post('/auth/organization/accept-invitation', { invitationId: inv.body.id }, invitee.token)).status).toBe(200);
    expect((await t.api.get('/auth/organization/list-user-invitations', invitee.token)).body).toEqual([]);
  });

  it('does not show invitations to someone who registered the invited address without proving it', async () => {
    const owner = await t.api.signUp();
    const ws = await t.api.createWorkspace(owner.token);
    const target = address('target');
    expect((await t.api.post('/auth/organization/invite-member', { email: target, role: 'admin', organizationId: ws.id }, owner.token)).status).toBe(200);
    const squatter = await t.api.signUp({ email: target });
    const res = await t.api.get('/auth/organization/list-user-invitations', squatter.token);
    expect([res.status, res.body]).toEqual([403, { message: 'Email not verified' }]);
  });
});

describe('API role alone: the same work for known and unknown addresses, counted by RATE_LIMIT_AUTH', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ APP_ROLES: 'api', SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtpPort), RATE_LIMIT_AUTH: '5' });
  });
  afterAll(() => api?.close());

  it('writes one identical email job whether or not the address is known, and nothing else; the sixth request is 429', async () => {
    const known = await api.api.signUp(); // sign-in/up count too: 1
    await sql(api.databaseUrl, `DELETE FROM outbox`);
    const unknown = address('ghost');
    const answers: Res[] = [];
    answers.push(await api.api.post('/auth/request-password-reset', { email: known.user.email }));
    answers.push(await api.api.post('/auth/request-password-reset', { email: unknown }));
    answers.push(await api.api.post('/auth/send-verification-email', { email: known.user.email }));
    answers.push(await api.api.post('/auth/send-verification-email', { email: unknown }));
    expect(answers.map((r) => [r.status, r.body])).toEqual(Array(4).fill([200, { status: true }]));
    // Each job carries only the random id of its email request, which holds the address.
    const jobs = await sql(
      api.databaseUrl,
      `SELECT o.queue, o.name, o.payload = jsonb_build_object('emailJobId', j.id) AS "onlyId", j.kind, j.reference
         FROM outbox o LEFT JOIN email_job j ON j.id::text = o.id ORDER BY o.created_at, o.name`,
    );
    const job = (name: string, reference: object) => ({ queue: 'email', name, onlyId: true, kind: name, reference });
    expect(jobs).toEqual([
      job('reset-password', { email: known.user.email, redirectTo: null }),
      job('reset-password', { email: unknown, redirectTo: null }),
      job('verify-email', { email: known.user.email, callbackURL: null }),
      job('verify-email', { email: unknown, callbackURL: null }),
    ]);
    // No token exists before the worker sends an email.
    expect(await sql(api.databaseUrl, `SELECT 1 FROM user_token`)).toEqual([]);

    for (const [path, email] of [
      ['/auth/request-password-reset', unknown],
      ['/auth/send-verification-email', known.user.email],
    ]) {
      const limited = await api.api.post(path, { email });
      expect([path, limited.status, limited.body]).toEqual([path, 429, { message: 'Too many requests' }]);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('REQUIRE_EMAIL_VERIFICATION=true', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await startTestApp({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtpPort), PUBLIC_API_URL, CLIENT_URL, REQUIRE_EMAIL_VERIFICATION: 'true' });
  });
  afterAll(() => strict?.close());

  it('sign-up gives no session and password sign-in is refused until the email is verified', async () => {
    const email = address('strict');
    const signUp = await strict.api.post('/auth/sign-up/email', { name: 'Strict', email, password: 'correct horse' });
    expect(signUp.status).toBe(200);
    expect(signUp.body).toEqual({ token: null, user: expect.objectContaining({ email, emailVerified: false }) });
    expect(signUp.headers.get('set-auth-token')).toBeNull();
    expect(await sql(strict.databaseUrl, `SELECT 1 FROM session WHERE user_id = $1`, [signUp.body.user.id])).toEqual([]);

    const refused = await strict.api.post('/auth/sign-in/email', { email, password: 'correct horse' });
    expect([refused.status, refused.body]).toEqual([403, { message: 'Email not verified' }]);
    // A wrong password still answers as for anyone: nothing is learned without the password.
    const wrong = await strict.api.post('/auth/sign-in/email', { email, password: 'wrong horse' });
    expect([wrong.status, wrong.body]).toEqual([401, { message: 'Invalid email or password' }]);

    const link = tokenLink(await mail(email, VERIFY_SUBJECT));
    expect((await strict.api.get(local(link))).status).toBe(200);
    const signIn = await strict.api.post('/auth/sign-in/email', { email, password: 'correct horse' });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.emailVerified).toBe(true);
  });
});
