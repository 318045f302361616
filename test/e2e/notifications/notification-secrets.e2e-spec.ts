import { randomBytes } from 'node:crypto';
import { Api } from '../../support/api';
import { dropRedisKeys, runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { addMember, sql } from '../../support/fixtures';
import { HttpReceiver } from '../../support/http-receiver';
import { launchApi, Launched } from '../../support/launcher';
import { redisEntries } from '../../support/secrets-audit';
import { TestSmtpServer } from '../../support/smtp';
import { until } from '../../support/until';
import { waitForTaskMails } from './notification-support';

/**
 * A user's tokens and signing secrets never appear in an answer, a log line, a queued job or a
 * delivery record (docs/notifications.md, "Secrets"). The service runs as a real process (API and
 * worker, debug logging) so that everything it prints can be searched; a receiver echoes what it
 * was sent into its error answers, which the delivery records must not keep.
 */
const REDIS_URL = runRedisUrl();
const receiver = new HttpReceiver();
const smtp = new TestSmtpServer();
const queuePrefix = `t_secrets_${randomBytes(3).toString('hex')}`;
let db: TestApp;
let service: Launched | null = null;
let api: Api;
/** Every answer the service gave in this test, as text. */
const answers: string[] = [];

beforeAll(async () => {
  await receiver.start();
  const smtpPort = await smtp.start();
  // Only for its migrated database: the service process below uses it.
  db = await startTestApp({ APP_ROLES: 'api' });
  let apiUrl: string;
  ({ service, apiUrl } = await launchApi(db.databaseUrl, queuePrefix, 'debug', {
    ALLOW_PRIVATE_DESTINATIONS: 'true',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtpPort),
    NOTIFICATION_BATCH_WINDOW_MS: '200',
    RATE_LIMIT_AUTH: '0',
    RATE_LIMIT_API: '0',
  }));
  api = new Api(apiUrl);
  const request = api.request.bind(api);
  api.request = async (...args: Parameters<Api['request']>) => {
    const res = await request(...args);
    answers.push(res.text);
    return res;
  };
});
afterAll(async () => {
  await service?.kill('SIGTERM');
  await dropRedisKeys(REDIS_URL, queuePrefix);
  await db?.close();
  await receiver.stop();
  await smtp.stop();
});

/** Everything the service keeps in Redis under its prefix (queued and finished jobs with their data), as text. */
const redisDump = async (): Promise<string> => (await redisEntries(REDIS_URL, queuePrefix)).map((p) => p.text).join('\n');

it('tokens and secrets are used to deliver, and appear in no answer, log line, job or delivery record', async () => {
  const owner = await api.signUp({ name: 'Olivia' });
  const bob = await api.signUp({ name: 'Bob' });
  const workspaceId = (await api.post('/auth/organization/create', { name: 'Secrets' }, owner.token)).body.id;
  await addMember(db.databaseUrl, workspaceId, bob.user.id, 'member');
  const project = (await api.post('/project', { name: 'Vault', workspaceId }, owner.token)).body;

  const id = randomBytes(4).toString('hex');
  const secrets = {
    topicpushToken: `tk_TOPIC${randomBytes(12).toString('hex')}`,
    serverpushToken: `SERVER${randomBytes(12).toString('hex')}`,
    oldWebhookSecret: `old-HOOK-${randomBytes(12).toString('hex')}`,
    webhookSecret: `whsec_${randomBytes(24).toString('base64')}`,
  };
  const paths = { topicpush: `/ntfy/t${id}`, serverpush: `/gotify${id}/message`, webhook: `/hook${id}` };
  // The topicpush server answers 401 quoting the Authorization header; the serverpush server 404 quoting the URL with its token.
  receiver.answer((req) => {
    if (req.url.startsWith(paths.topicpush)) return { status: 401, body: `bad credentials: ${req.headers.authorization}` };
    if (req.url.startsWith(paths.serverpush)) return { status: 404, body: `no application for ${req.url}` };
    return { status: 200, body: { ok: true } };
  });
  const saved = await api.put(
    '/notification-preferences',
    {
      emailEnabled: true,
      topicpushEnabled: true,
      topicpushServerUrl: `${receiver.url}/ntfy`,
      topicpushTopic: `t${id}`,
      topicpushToken: secrets.topicpushToken,
      serverpushEnabled: true,
      serverpushServerUrl: `${receiver.url}/gotify${id}`,
      serverpushToken: secrets.serverpushToken,
      webhookEnabled: true,
      webhookUrl: `${receiver.url}${paths.webhook}`,
      webhookSecret: secrets.oldWebhookSecret,
    },
    bob.token,
  );
  expect(saved.status).toBe(200);
  // Replaced: the old one keeps signing for 24 h, so both are in use.
  expect((await api.put('/notification-preferences', { webhookSecret: secrets.webhookSecret }, bob.token)).status).toBe(200);
  expect((await api.put(`/notification-preferences/workspaces/${workspaceId}`, { isActive: true }, bob.token)).status).toBe(200);
  expect((await api.get('/notification-preferences', bob.token)).status).toBe(200);

  const task = (await api.post(`/task/${project.id}`, { title: 'Guarded', userId: bob.user.id }, owner.token)).body;
  expect((await api.put(`/task/status/${task.id}`, { status: 'done' }, owner.token)).status).toBe(200);

  // Two events, four channels: every delivery tried and settled.
  const rows = await until('settled deliveries', async () => {
    const r = await sql(db.databaseUrl, `SELECT * FROM delivery WHERE target_id = $1`, [bob.user.id]);
    return r.length === 8 && r.every((d: any) => d.status !== 'pending') && r;
  });
  expect(rows.filter((d: any) => d.target_type === 'webhook').map((d: any) => d.status)).toEqual(['delivered', 'delivered']);
  expect(rows.filter((d: any) => d.target_type !== 'webhook' && d.target_type !== 'email').every((d: any) => d.status === 'failed')).toBe(true);
  await waitForTaskMails(smtp, bob.user.email, 1);
  expect((await api.get('/notification', bob.token)).status).toBe(200);

  // The secrets were really sent to the receivers (so their absence below means something).
  const sent = JSON.stringify(receiver.requests);
  expect(sent).toContain(secrets.topicpushToken);
  expect(sent).toContain(secrets.serverpushToken);
  // The receivers' answers quoted them; the recorded errors have them cut out.
  const topicpush = rows.find((d: any) => d.target_type === 'topicpush');
  expect(topicpush.attempts[0].error).toBe('HTTP 401: bad credentials: Bearer [redacted]');
  const serverpush = rows.find((d: any) => d.target_type === 'serverpush');
  expect(serverpush.attempts[0].error).toContain('[redacted]');

  const haystacks: Record<string, string> = {
    answers: answers.join('\n'),
    'log lines': service!.output(),
    'jobs in Redis': await redisDump(),
    'delivery records': JSON.stringify(await sql(db.databaseUrl, `SELECT * FROM delivery`)),
    'in-app notifications': JSON.stringify(await sql(db.databaseUrl, `SELECT * FROM notification`)),
    outbox: JSON.stringify(await sql(db.databaseUrl, `SELECT * FROM outbox`)),
  };
  expect(haystacks['log lines']).toContain('delivered');
  expect(haystacks['jobs in Redis']).toContain('deliveryId');
  const found: string[] = [];
  for (const [where, text] of Object.entries(haystacks)) {
    for (const [name, secret] of Object.entries(secrets)) {
      for (const form of new Set([secret, encodeURIComponent(secret), secret.slice(6, 30)])) if (text.includes(form)) found.push(`${name} in ${where}`);
    }
  }
  expect(found).toEqual([]);
}, 90_000);
