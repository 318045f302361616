import { randomBytes } from 'node:crypto';
import { Job, Queue } from 'bullmq';
import { ParsedMail, simpleParser } from 'mailparser';
import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { QueueName } from '../../../src/queue/queues';
import { redisOptionsFromUrl } from '../../../src/redis/redis-options';
import { Api } from '../../support/api';
import { dropRedisKeys, runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { launchApi, Launched } from '../../support/launcher';
import { findLeaks, logLines, redisEntries, Secret } from '../../support/secrets-audit';
import { until } from '../../support/until';

/**
 * Email jobs name nothing they send (docs/decisions-local.md, "Queued emails"): the queue, which
 * instance admins see on the dashboard, holds for each email its kind and the random id of its
 * request, never the invitation id, the address or a token; and a refusal by the SMTP server is
 * recorded and logged by its reply code, without the server's text, which quotes the address.
 * The service runs as one process (API and worker) at LOG_LEVEL=trace, its output captured.
 */

const REDIS_URL = runRedisUrl();
const CLIENT_URL = 'https://app.tandem.test';
const PUBLIC_API_URL = 'https://api.tandem.test';
const queuePrefix = `t_mailjobs_${randomBytes(3).toString('hex')}`;
const address = (name: string) => `${name}.${randomBytes(5).toString('hex')}@example.test`;

/**
 * A real SMTP server on loopback that refuses some recipients at RCPT TO, quoting the address in
 * its reply as real servers do (`550 <a@b>: Recipient address rejected: User unknown`), and
 * records what it accepts.
 */
class RefusingSmtp {
  readonly mails: { to: string[]; parsed: ParsedMail }[] = [];
  /** address → the reply code to refuse it with, and how many more times. */
  readonly refuse = new Map<string, { code: number; times: number }>();
  private server: SMTPServer | null = null;

  async start(): Promise<number> {
    this.server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onRcptTo: (rcpt, _session, cb) => {
        const rule = this.refuse.get(rcpt.address);
        if (!rule || rule.times <= 0) return cb();
        rule.times--;
        const why = rule.code >= 500 ? 'User unknown' : 'Mailbox busy, try again later';
        return cb(Object.assign(new Error(`<${rcpt.address}>: Recipient address rejected: ${why}`), { responseCode: rule.code }));
      },
      onData: (stream, session, cb) => {
        simpleParser(stream)
          .then((parsed) => {
            this.mails.push({ to: session.envelope.rcptTo.map((r) => r.address), parsed });
            cb();
          })
          .catch((err) => cb(err));
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve());
    });
    return (this.server.server.address() as AddressInfo).port;
  }

  /** The mails to `to` once there are `n`. */
  waitFor(to: string, n = 1, timeoutMs = 15_000) {
    return until(
      `${n} mail(s) to ${to}`,
      () => {
        const got = this.mails.filter((m) => m.to.includes(to));
        return got.length >= n ? got : null;
      },
      timeoutMs,
    );
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

const smtp = new RefusingSmtp();
let db: TestApp;
let service: Launched | null = null;
let api: Api;
let queue: Queue;

beforeAll(async () => {
  const smtpPort = await smtp.start();
  // Only for its migrated database: the service process below uses it.
  db = await startTestApp({ APP_ROLES: 'api' });
  let apiUrl: string;
  ({ service, apiUrl } = await launchApi(db.databaseUrl, queuePrefix, 'trace', {
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtpPort),
    CLIENT_URL,
    PUBLIC_API_URL,
    RATE_LIMIT_AUTH: '0',
    RATE_LIMIT_API: '0',
    RATE_LIMIT_INVITES: '0',
  }));
  api = new Api(apiUrl);
  queue = new Queue(QueueName.Email, { connection: redisOptionsFromUrl(REDIS_URL), prefix: `${queuePrefix}:bull` });
}, 60_000);
afterAll(async () => {
  await queue?.close();
  await service?.kill('SIGTERM');
  await dropRedisKeys(REDIS_URL, queuePrefix);
  await db?.close();
  await smtp.stop();
});

/** The ids of the email queue's jobs now, to tell the jobs of a test from those before it. */
const jobIds = async () => new Set((await queue.getJobs(['completed', 'failed', 'delayed', 'waiting', 'active'])).map((j) => j.id));

/** The one invitation email job queued since `before` (each test below invites once). */
async function invitationJob(before: Set<string | undefined>): Promise<Job> {
  return until('the invitation email job', async () => {
    const jobs = (await queue.getJobs(['completed', 'failed', 'delayed', 'waiting', 'active'])).filter((j) => j.name === 'invitation' && !before.has(j.id));
    expect(jobs.length).toBeLessThanOrEqual(1);
    return jobs[0] ?? null;
  });
}

/** The token of the one link in an email. */
const tokenOf = (mail: ParsedMail): string => new URL(/https?:\/\/\S*[?&]token=\S+/.exec(mail.text ?? '')![0]).searchParams.get('token')!;

/** Where each of `secrets` is found in every Redis key of the prefix and every log line so far. */
async function leaksOf(secrets: Secret[]) {
  const places = [...(await redisEntries(REDIS_URL, queuePrefix)), ...logLines(service!.output())];
  expect(places.some((p) => p.kind === 'redis' && p.where.includes(':bull:email:'))).toBe(true);
  return findLeaks(secrets, places);
}

async function inviteTo(owner: { token: string }, workspaceId: string, email: string): Promise<string> {
  const res = await api.post('/auth/organization/invite-member', { email, role: 'admin', organizationId: workspaceId }, owner.token);
  expect(res.status).toBe(200);
  return res.body.id;
}

describe('email jobs in Redis', () => {
  it('after an invitation, a verification and a reset email: no job name, id, data or event names the invitation, the address or the token', async () => {
    const before = await jobIds();
    const ownerEmail = address('owner');
    const inviteeEmail = address('invitee');
    const owner = await api.signUp({ name: 'Olga Owner', email: ownerEmail }); // the verification email
    const ws = await api.createWorkspace(owner.token, 'Studio Private');
    const invitationId = await inviteTo(owner, ws.id, inviteeEmail);
    expect((await api.post('/auth/request-password-reset', { email: ownerEmail })).status).toBe(200);
    // A reset for an address nobody has: a job runs for it too, and sends nothing.
    const strangerEmail = address('stranger');
    expect((await api.post('/auth/request-password-reset', { email: strangerEmail })).status).toBe(200);

    const [invitation] = await smtp.waitFor(inviteeEmail);
    expect(invitation.parsed.text).toContain(`${CLIENT_URL}/invitation/accept/${invitationId}`);
    await smtp.waitFor(ownerEmail, 2);
    const ownerMails = smtp.mails.filter((m) => m.to.includes(ownerEmail));
    const verifyToken = tokenOf(ownerMails.find((m) => m.parsed.subject === 'Verify your email address on Tandem')!.parsed);
    const resetToken = tokenOf(ownerMails.find((m) => m.parsed.subject === 'Reset your Tandem password')!.parsed);

    const jobs = await until('the four email jobs to complete', async () => {
      const done = (await queue.getJobs(['completed'])).filter((j) => !before.has(j.id));
      return done.length === 4 ? done : null;
    });
    // Each job: the kind as its name, the request's random id as its id and its only data.
    expect(jobs.map((j) => j.name).sort()).toEqual(['invitation', 'reset-password', 'reset-password', 'verify-email']);
    for (const j of jobs) {
      expect(j.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(j.data).toEqual({ emailJobId: j.id });
    }
    expect(jobs.map((j) => j.returnvalue).filter((r) => 'skipped' in r)).toEqual([{ skipped: 'obsolete' }]);

    const secrets: Secret[] = [
      { purpose: 'invitation id', value: invitationId },
      { purpose: 'invitee address', value: inviteeEmail },
      { purpose: 'owner address', value: ownerEmail },
      { purpose: 'unknown address', value: strangerEmail },
      { purpose: 'verification token', value: verifyToken },
      { purpose: 'reset token', value: resetToken },
    ];
    expect(await leaksOf(secrets)).toEqual([]);
  }, 60_000);
});

describe('an SMTP server that refuses the recipient', () => {
  it('a permanent refusal (550) fails the job at once; its failure reason, stack trace and the logs name the code, not the address', async () => {
    const owner = await api.signUp({ name: 'Rita Refused' });
    const ws = await api.createWorkspace(owner.token);
    const refused = address('refused');
    smtp.refuse.set(refused, { code: 550, times: 1 });
    const before = await jobIds();
    const invitationId = await inviteTo(owner, ws.id, refused);

    const job = await until('the job to fail', async () => {
      const j = await invitationJob(before);
      return j.finishedOn ? j : null;
    });
    expect(await job.getState()).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe('SMTP refused the recipient (550)');
    expect((job.stacktrace ?? []).join('\n')).not.toContain('@');
    expect(smtp.mails.filter((m) => m.to.includes(refused))).toHaveLength(0);
    await until('the warning to be logged', () => service!.output().includes(`email ${job.id} (invitation) refused by the SMTP server: SMTP refused the recipient (550)`));

    expect(
      await leaksOf([
        { purpose: 'refused address', value: refused },
        { purpose: 'invitation id', value: invitationId },
      ]),
    ).toEqual([]);
  }, 30_000);

  it('a temporary refusal (450) is retried with backoff and delivered; the failed attempt is recorded by its code', async () => {
    const owner = await api.signUp({ name: 'Tom Temporary' });
    const ws = await api.createWorkspace(owner.token);
    const busy = address('busy');
    smtp.refuse.set(busy, { code: 450, times: 1 });
    const before = await jobIds();
    const invitationId = await inviteTo(owner, ws.id, busy);

    const retrying = await until('a failed first attempt', async () => {
      const j = await invitationJob(before);
      return j.attemptsMade >= 1 ? j : null;
    });
    expect(retrying.failedReason).toBe('SMTP refused the recipient (450)');
    expect((retrying.stacktrace ?? []).join('\n')).not.toContain('@');

    const [mail] = await smtp.waitFor(busy, 1, 30_000);
    expect(mail.parsed.text).toContain(`${CLIENT_URL}/invitation/accept/${invitationId}`);
    const done = await until('the job to complete', async () => {
      const j = await invitationJob(before);
      return j.finishedOn ? j : null;
    });
    expect(await done.getState()).toBe('completed');
    expect(done.attemptsMade).toBe(2);
    expect(service!.output()).toContain(`email ${done.id} (invitation) attempt 1 failed, will retry: SMTP refused the recipient (450)`);

    expect(
      await leaksOf([
        { purpose: 'refused address', value: busy },
        { purpose: 'invitation id', value: invitationId },
      ]),
    ).toEqual([]);
  }, 45_000);
});
