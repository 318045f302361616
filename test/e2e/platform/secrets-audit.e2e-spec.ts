import { createHash, randomBytes } from 'node:crypto';
import { CryptoService } from '../../../src/common/crypto/crypto.service';
import { AppConfig } from '../../../src/config/app-config';
import { Auth } from '../../support/api';
import { dropRedisKeys, runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { addMember, sql } from '../../support/fixtures';
import { appKeyPair, FakeHostedgit, FakeSelfgit, linkHostedgit, sendHostedgitWebhook, sendSelfgitWebhook } from '../../support/git-hosts';
import { launchApi, Launched } from '../../support/launcher';
import { loginAtProvider, startOidcProvider, TestOidcProvider } from '../../support/oidc-provider';
import { registeredRoutes } from '../../support/routes';
import { findLeaks, logLines, marker, Place, RecordingApi, redisEntries, Secret, tableRows } from '../../support/secrets-audit';
import { TestSmtpServer } from '../../support/smtp';
import { until } from '../../support/until';
import { ALL_EVENTS, ScriptedReceiver } from '../integrations/delivery-support';
import { signers } from '../notifications/notification-support';

/**
 * The secrets audit (docs/decisions-local.md, "Secrets"): the service runs as a real process (API
 * and worker, trace logging, everything it prints captured) with every secret-bearing setting given
 * a recognisable value; a workload makes it use them all; then every table row, every Redis key of
 * its prefix, every answer of the run and every log line is searched for each secret, as is and
 * base64, base64url, hex and URL-encoded. What receivers are sent (a bot token in a URL, a
 * signature) is delivery, not storage, and is not searched.
 */
const REDIS_URL = runRedisUrl();
const PUBLIC_API_URL = 'https://api.tandem.test';
const CLIENT_URL = 'https://app.tandem.test';
const REDIRECT_URI = `${PUBLIC_API_URL}/api/auth/oauth2/callback/custom`;
const INSTALLATION = 4242;
const APP_ID = '31337';
const ENCRYPTION_KEY = randomBytes(32).toString('hex');
const cipher = new CryptoService({ encryptionKey: Buffer.from(ENCRYPTION_KEY, 'hex') } as AppConfig);
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** A bot token of the accepted shape (`^\d{8,10}:[A-Za-z0-9_-]{35}$`) carrying a marker. */
const botMarker = () => `123456789:${`${marker('bot')}${randomBytes(24).toString('hex')}`.slice(0, 35)}`;

const S = {
  smtpPassword: marker('smtpPassword'),
  jwtSecret: `${marker('jwtSecret')}-${randomBytes(16).toString('hex')}`,
  hostedgitWebhookSecret: marker('hostedgitWebhookSecret'),
  hostedgitClientSecret: marker('hostedgitClientSecret'),
  oauthClientSecret: marker('oauthClientSecret'),
  botToken: botMarker(),
  teamchatPath: `/teamchat/${marker('teamchatUrl')}`,
  communitychatPath: `/communitychat/${marker('communitychatUrl')}`,
  genericPath: `/generic/${marker('genericUrl')}`,
  failingPath: `/failing/${marker('failingUrl')}`,
  genericSecret: marker('genericSecret'),
  genericSecret2: marker('genericSecretRotated'),
  selfgitToken: marker('selfgitToken'),
  topicpushToken: marker('topicpushToken'),
  serverpushToken: marker('serverpushToken'),
  notifyWebhookSecret: marker('notifyWebhookSecret'),
  notifyWebhookSecret2: marker('notifyWebhookSecretRotated'),
  newOwnerPassword: marker('changedPassword'),
  resetPassword: marker('resetPassword'),
  // Sent in refused requests: a refusal must not echo, keep or log them either.
  refusedBotToken: marker('refusedBotToken'),
  refusedApiKey: `tdm_${marker('refusedApiKey')}`,
  refusedJson: marker('refusedJson'),
  refusedOAuthCode: marker('refusedOAuthCode'),
};
const appKeys = appKeyPair();

const receiver = new ScriptedReceiver();
const smtp = new TestSmtpServer({ user: 'mailer', password: S.smtpPassword });
const selfgit = new FakeSelfgit();
const hostedgit = new FakeHostedgit(APP_ID, appKeys.publicKey);
const queuePrefix = `t_audit_${randomBytes(3).toString('hex')}`;
let provider: TestOidcProvider;
let db: TestApp;
let service: Launched | null = null;
let api: RecordingApi;

/** Who is who: the users of the run by name, and every token (session, API key) to its holder's name. */
const users: Record<string, Auth & { password: string }> = {};
const holders = new Map<string, string>();
/** Secrets handed out by the service during the run, with where they may be seen. */
const issued: Secret[] = [];
/** Tokens that must be kept only as their SHA-256 (hex): value, table and column. */
const hashed: { purpose: string; value: string; table: string; column: string }[] = [];
let selfgitWebhookSecret = '';
let projectId = '';

beforeAll(async () => {
  await Promise.all([receiver.start(), selfgit.start(), hostedgit.start()]);
  hostedgit.installations.add(INSTALLATION);
  hostedgit.clientSecret = S.hostedgitClientSecret;
  hostedgit.addRepo('Octo', 'apollo', INSTALLATION, { 'octo-admin': 'admin' });
  const smtpPort = await smtp.start();
  provider = await startOidcProvider({ redirectUri: REDIRECT_URI, clientSecret: S.oauthClientSecret });
  // Only for its migrated database (and its route list): the service process below uses it.
  db = await startTestApp({ APP_ROLES: 'api' });
  // The most verbose level: every line the code writes is captured.
  let apiUrl: string;
  ({ service, apiUrl } = await launchApi(db.databaseUrl, queuePrefix, 'trace', {
    JWT_SECRET: S.jwtSecret,
    ENCRYPTION_KEY,
    PUBLIC_API_URL,
    CLIENT_URL,
    ALLOW_PRIVATE_DESTINATIONS: 'true',
    // Rate limits on (generously), so their Redis keys exist and are searched too.
    RATE_LIMIT_AUTH: '100000',
    RATE_LIMIT_API: '100000',
    RATE_LIMIT_INVITES: '1000',
    NOTIFICATION_BATCH_WINDOW_MS: '0',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtpPort),
    SMTP_USER: 'mailer',
    SMTP_PASSWORD: S.smtpPassword,
    MESSENGER_API_BASE_URL: `${receiver.url}/messenger`,
    HOSTEDGIT_APP_ID: APP_ID,
    HOSTEDGIT_APP_PRIVATE_KEY: appKeys.privateKey.replace(/\n/g, '\\n'),
    HOSTEDGIT_WEBHOOK_SECRET: S.hostedgitWebhookSecret,
    HOSTEDGIT_API_BASE_URL: hostedgit.url,
    HOSTEDGIT_WEB_BASE_URL: hostedgit.url,
    HOSTEDGIT_APP_CLIENT_ID: hostedgit.clientId,
    HOSTEDGIT_APP_CLIENT_SECRET: S.hostedgitClientSecret,
    CUSTOM_OAUTH_ISSUER: provider.issuer,
    CUSTOM_OAUTH_CLIENT_ID: provider.clientId,
    CUSTOM_OAUTH_CLIENT_SECRET: S.oauthClientSecret,
    CUSTOM_OAUTH_SCOPES: 'openid email profile offline_access',
  }));
  api = new RecordingApi(apiUrl);
}, 60_000);
afterAll(async () => {
  await service?.kill('SIGTERM');
  await dropRedisKeys(REDIS_URL, queuePrefix);
  await db?.close();
  await Promise.all([receiver.stop(), smtp.stop(), selfgit.stop(), hostedgit.stop(), provider?.close()]);
});

function must<T = any>(res: { status: number; text: string; body: T }, what: string): T {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
}

/** The token of the newest email of `purpose` to `address` (the link's `token` query value). */
async function mailedToken(address: string, subject: string, n: number): Promise<string> {
  const mails = await smtp.waitFor(address, n);
  const mail = mails.filter((m) => m.parsed.subject === subject).at(-1)!;
  return /[?&]token=([\w-]+)/.exec(String(mail.parsed.text))![1];
}

/** Signs a user up with a marked password; their session token is theirs in `holders`. */
async function person(name: string) {
  const password = marker(`password-${name}`);
  const u = await api.signUp({ name, password, email: `${name}-${randomBytes(3).toString('hex')}@example.test` });
  users[name] = u;
  holders.set(u.token, name);
  return u;
}

/** Answers that hand a session token to the client that asked for it (sign-up, sign-in, OAuth, change-password). */
const issuesSessions = (p: Place) => p.kind === 'answer' && /(sign-up|sign-in)\/email|oauth2\/callback|change-password/.test(p.where);

it('the audit finds a secret in every form it looks for, and only where it is not allowed', () => {
  const s = marker('probe');
  const places: Place[] = [
    { kind: 'table', where: 'clear', text: `{"x":"${s}"}` },
    { kind: 'redis', where: 'base64', text: `job ${Buffer.from(`${s} and more`).toString('base64')}` },
    { kind: 'log', where: 'base64url', text: Buffer.from(`${s}??>>`).toString('base64url') },
    { kind: 'log', where: 'hex', text: `0x${Buffer.from(s).toString('hex')}` },
    { kind: 'answer', where: 'urlencoded', text: `u=${encodeURIComponent(`https://h/${s}?a b`)}` },
    { kind: 'answer', where: 'allowed', text: s },
  ];
  const leaks = findLeaks([{ purpose: 'probe', value: s, allowed: (p) => p.where === 'allowed' }], places);
  expect(leaks.map((l) => l.where).sort()).toEqual(['base64', 'base64url', 'clear', 'hex', 'urlencoded']);
  expect(findLeaks([{ purpose: 'url', value: `https://h/${s}?a b` }], places).map((l) => `${l.where}:${l.form}`)).toEqual(['urlencoded:urlencoded']);
});

/** The workload: every secret used at least once, through the API, the worker and the outside servers. */
async function workload(): Promise<void> {
  // Users: the first is the instance admin. With SMTP set, each sign-up asks for a verification email.
  let owner = await person('owner');
  const admin = await person('admin');
  const bob = await person('bob');
  const vic = await person('vic');
  const dora = await person('dora');
  const ws = must(await api.post('/auth/organization/create', { name: 'Audit' }, owner.token), 'workspace');
  await addMember(db.databaseUrl, ws.id, admin.user.id, 'admin');
  await addMember(db.databaseUrl, ws.id, bob.user.id, 'member');
  await addMember(db.databaseUrl, ws.id, vic.user.id, 'viewer');

  // Verification: the owner follows the link; bob's stays unused (kept hashed until it expires).
  const verifyOwner = await mailedToken(owner.user.email, 'Verify your email address on Tandem', 1);
  must(await api.get(`/auth/verify-email?token=${verifyOwner}`), 'verify-email');
  // The first proof of the address ends the sessions made before it: the owner signs in again.
  const ownerAgain = must(await api.post('/auth/sign-in/email', { email: owner.user.email, password: owner.password }), 'owner signs in');
  holders.set(ownerAgain.token, 'owner');
  owner = { ...owner, token: ownerAgain.token };
  users.owner = owner;
  const verifyBob = await mailedToken(bob.user.email, 'Verify your email address on Tandem', 1);
  hashed.push({ purpose: 'verification token (unused)', value: verifyBob, table: 'user_token', column: 'token_hash' });
  issued.push({ purpose: 'verification token (used)', value: verifyOwner }, { purpose: 'verification token (unused)', value: verifyBob });

  // Password reset: vic uses the link, dora's stays unused.
  must(await api.post('/auth/request-password-reset', { email: vic.user.email }), 'reset vic');
  const resetVic = await mailedToken(vic.user.email, 'Reset your Tandem password', 2);
  must(await api.post('/auth/reset-password', { token: resetVic, newPassword: S.resetPassword }), 'reset-password');
  const vicAgain = must(await api.post('/auth/sign-in/email', { email: vic.user.email, password: S.resetPassword }), 'vic signs in');
  holders.set(vicAgain.token, 'vic');
  users.vic = { ...vic, token: vicAgain.token };
  must(await api.post('/auth/request-password-reset', { email: dora.user.email }), 'reset dora');
  const resetDora = await mailedToken(dora.user.email, 'Reset your Tandem password', 2);
  hashed.push({ purpose: 'reset token (unused)', value: resetDora, table: 'user_token', column: 'token_hash' });
  issued.push({ purpose: 'reset token (used)', value: resetVic }, { purpose: 'reset token (unused)', value: resetDora });

  // The owner changes the password; an API key, used below like a session.
  must(await api.post('/auth/change-password', { currentPassword: owner.password, newPassword: S.newOwnerPassword }, owner.token), 'change-password');
  const key = must(await api.post('/auth/api-key/create', { name: 'audit key' }, owner.token), 'api key');
  holders.set(key.key, 'owner');
  hashed.push({ purpose: 'API key', value: key.key, table: 'api_key', column: 'key_hash' });
  issued.push({ purpose: 'API key', value: key.key, allowed: (p) => p.kind === 'answer' && p.where.includes('POST /auth/api-key/create') });

  // Projects: Apollo has every integration and both git hosts; Beta a webhook that always refuses.
  const apollo = must(await api.post('/project', { name: 'Apollo', slug: 'APO', workspaceId: ws.id }, owner.token), 'apollo');
  const beta = must(await api.post('/project', { name: 'Beta', workspaceId: ws.id }, owner.token), 'beta');
  projectId = apollo.id;
  const route = (type: string, pid = apollo.id) => `/${type}-integration/project/${pid}`;
  must(await api.post(route('messenger'), { botToken: S.botToken, chatId: '-100777', events: ALL_EVENTS }, owner.token), 'messenger');
  must(await api.post(route('teamchat'), { webhookUrl: `${receiver.url}${S.teamchatPath}`, events: ALL_EVENTS }, admin.token), 'teamchat');
  must(await api.post(route('communitychat'), { webhookUrl: `${receiver.url}${S.communitychatPath}`, events: ALL_EVENTS }, owner.token), 'communitychat');
  must(await api.post(route('generic-webhook'), { webhookUrl: `${receiver.url}${S.genericPath}`, secret: S.genericSecret, events: ALL_EVENTS }, owner.token), 'generic');
  must(await api.patch(route('generic-webhook'), { secret: S.genericSecret2 }, admin.token), 'rotating the generic secret');
  must(await api.post(route('generic-webhook', beta.id), { webhookUrl: `${receiver.url}${S.failingPath}`, events: ALL_EVENTS }, owner.token), 'failing generic');
  // Retries: the first request to teamchat and to the generic webhook gets a 500; Beta's webhook refuses for good.
  receiver.script(S.teamchatPath, { status: 500, body: { error: `down ${S.teamchatPath}` } });
  receiver.script(S.genericPath, { status: 500, body: 'try later' });
  receiver.script(S.failingPath, ...Array.from({ length: 20 }, () => ({ status: 400, body: `no such hook ${S.failingPath}` })));

  // Bob's channels: email, topicpush, serverpush and a signed webhook whose secret is then replaced.
  must(
    await api.put(
      '/notification-preferences',
      {
        emailEnabled: true,
        topicpushEnabled: true,
        topicpushServerUrl: `${receiver.url}/ntfy`,
        topicpushTopic: 'bob',
        topicpushToken: S.topicpushToken,
        serverpushEnabled: true,
        serverpushServerUrl: `${receiver.url}/gotify`,
        serverpushToken: S.serverpushToken,
        webhookEnabled: true,
        webhookUrl: `${receiver.url}/notify/bob`,
        webhookSecret: S.notifyWebhookSecret,
      },
      bob.token,
    ),
    'bob preferences',
  );
  must(await api.put('/notification-preferences', { webhookSecret: S.notifyWebhookSecret2 }, bob.token), 'rotating bob webhook secret');
  must(await api.put(`/notification-preferences/workspaces/${ws.id}`, { isActive: true }, bob.token), 'bob rule');

  // Selfgit: verify, link (the answer holds the webhook secret), import, then an inbound webhook.
  selfgit.addUser(S.selfgitToken, 'ada');
  const repo = selfgit.addRepo('acme', 'apollo', {
    access: { [S.selfgitToken]: 'write' },
    issues: [{ number: 1, title: 'Imported issue', body: 'from the host', comments: [{ id: 1, body: 'first!', user: 'ada' }] }],
  });
  const selfgitBody = { baseUrl: selfgit.url, accessToken: S.selfgitToken, repositoryOwner: 'acme', repositoryName: 'apollo' };
  must(await api.post('/selfgit-integration/verify', { ...selfgitBody, projectId: apollo.id }, owner.token), 'selfgit verify');
  const linked = must(await api.post(route('selfgit'), { ...selfgitBody, commentTaskLinkOnSelfgitIssue: true }, owner.token), 'selfgit link');
  selfgitWebhookSecret = linked.webhookSecret;
  expect(selfgitWebhookSecret).toMatch(/^[0-9a-f]{48}$/);
  must(await api.post('/selfgit-integration/import-issues', { projectId: apollo.id }, admin.token), 'selfgit import');
  // The host refuses the next comment quoting the token it was sent (it must not reach a log line); the edit below tries again.
  let refusals = 0;
  selfgit.intercept = (r) => (r.method === 'POST' && refusals++ === 0 ? { status: 500, body: { message: `refused ${r.headers.authorization}` } } : undefined);
  const issue2 = { number: 2, title: 'From a webhook' };
  repo.issues.push(issue2);
  const inbound = await sendSelfgitWebhook(`${api.base}/selfgit-integration/webhook/${linked.id}`, selfgitWebhookSecret, 'issues', {
    action: 'opened',
    number: 2,
    issue: selfgit.issueJson(repo, issue2),
    repository: selfgit.repositoryJson(repo),
    sender: { login: 'ada' },
  });
  expect(inbound.body).toMatchObject({ ok: true, outcome: 'applied' });
  expect(refusals).toBe(1);
  const edited = await sendSelfgitWebhook(`${api.base}/selfgit-integration/webhook/${linked.id}`, selfgitWebhookSecret, 'issues', {
    action: 'edited',
    number: 2,
    issue: selfgit.issueJson(repo, { ...issue2, title: 'From a webhook, edited' }),
    repository: selfgit.repositoryJson(repo),
    sender: { login: 'ada' },
  });
  expect(edited.body).toMatchObject({ ok: true, outcome: 'applied' });
  await until('the selfgit task-link comments', () => selfgit.posted.length >= 2);

  // Hostedgit: link, then an issue event; the task-link comment goes through an installation token.
  must(
    await linkHostedgit(api, hostedgit, owner.token, apollo.id, { repositoryOwner: 'Octo', repositoryName: 'apollo', commentTaskLinkOnHostedgitIssue: true }, 'octo-admin'),
    'hostedgit',
  );
  // The host refuses, quoting the credential it was sent: first the App's JWT (at the token exchange),
  // then the installation token (at the comment); each edit of the issue tries again.
  const hostedRefusals: string[] = [];
  const refuse = (r: { path: string; headers: Record<string, unknown> }, what: string) =>
    r.path.endsWith(what) && !hostedRefusals.includes(what) && hostedRefusals.push(what)
      ? { status: 401, body: { message: `Bad credentials: ${String(r.headers.authorization)}` } }
      : undefined;
  hostedgit.intercept = (r) => refuse(r, '/access_tokens') ?? refuse(r, '/comments');
  const hostedIssue = (action: string, title: string) =>
    sendHostedgitWebhook(`${api.base}/hostedgit-integration/webhook`, S.hostedgitWebhookSecret, 'issues', {
      action,
      issue: { number: 7, title, body: null, state: 'open', labels: [], html_url: 'https://hosted.example/Octo/apollo/issues/7', user: { login: 'octocat' } },
      repository: { id: 1, name: 'apollo', full_name: 'Octo/apollo', owner: { login: 'Octo' }, html_url: 'https://hosted.example/Octo/apollo' },
      installation: { id: INSTALLATION },
    });
  expect((await hostedIssue('opened', 'Hosted issue')).body).toMatchObject({ ok: true, outcome: 'applied' });
  expect((await hostedIssue('edited', 'Hosted issue, edited')).body).toMatchObject({ ok: true, outcome: 'applied' });
  expect(hostedRefusals).toEqual(['/access_tokens', '/comments']);
  expect((await hostedIssue('edited', 'Hosted issue, edited again')).body).toMatchObject({ ok: true, outcome: 'applied' });
  await until('the hostedgit task-link comment', () => hostedgit.posted.length >= 1);

  // Refused requests carrying secrets: a malformed bot token, an unknown API key, a body that is not JSON.
  expect((await api.patch(route('messenger'), { botToken: S.refusedBotToken }, owner.token)).status).toBe(400);
  expect((await api.get('/project', S.refusedApiKey)).status).toBe(401);
  expect((await api.request('PUT', '/notification-preferences', undefined, { token: bob.token, raw: `{"webhookSecret": "${S.refusedJson}"` })).status).toBe(400);

  // Task work: bob is the assignee, the others act, so every channel of his hears of it.
  const task = must(await api.post(`/task/${apollo.id}`, { title: 'Launch', userId: bob.user.id }, owner.token), 'task');
  must(await api.put(`/task/status/${task.id}`, { status: 'done' }, admin.token), 'status');
  must(await api.put(`/task/${task.id}`, { title: 'Launch v2', priority: 'high', description: 'now' }, key.key), 'update with the API key');
  must(await api.post(`/comment/${task.id}`, { content: 'Looks good' }, admin.token), 'comment');
  must(await api.post('/time-entry', { taskId: task.id, startTime: '2030-01-02T09:00:00.000Z', endTime: '2030-01-02T10:30:00.000Z' }, owner.token), 'time entry');
  const other = must(await api.post(`/task/${apollo.id}`, { title: 'Moving' }, bob.token), 'task to move');
  must(await api.put(`/task/move/${other.id}`, { destinationProjectId: beta.id }, owner.token), 'move');
  must(await api.post(`/task/${beta.id}`, { title: 'Refused' }, owner.token), 'task in beta');

  // Every delivery settles: delivered after retries, or failed for good (Beta's webhook).
  const rows = await until(
    'every delivery settled',
    async () => {
      const r = await sql(db.databaseUrl, `SELECT id, target_type, status, attempts FROM delivery`);
      const types = new Set(r.map((d) => d.target_type));
      const all = ['messenger', 'teamchat', 'communitychat', 'generic-webhook', 'email', 'topicpush', 'serverpush', 'webhook'];
      return all.every((x) => types.has(x)) && r.every((d) => d.status !== 'pending') && r;
    },
    60_000,
  );
  expect(rows.some((d) => d.status === 'failed' && d.target_type === 'generic-webhook')).toBe(true);
  expect(rows.some((d) => d.status === 'delivered' && d.attempts.length > 1)).toBe(true);

  // Both secrets sign during the rotation; then one delivery is sent again.
  const signed = receiver.to(S.genericPath).at(-1)!;
  expect(signers(signed, { new: S.genericSecret2, old: S.genericSecret })).toEqual(['new', 'old']);
  const [delivery] = must(await api.get(`${route('generic-webhook')}/deliveries?limit=1`, owner.token), 'deliveries').deliveries;
  const before = receiver.to(S.genericPath).length;
  must(await api.post(`${route('generic-webhook')}/deliveries/${delivery.id}/redeliver`, {}, admin.token), 'redeliver');
  await receiver.waitFor(S.genericPath, before + 1);
  await until('the redelivery recorded', async () => (await sql(db.databaseUrl, `SELECT status FROM delivery WHERE id = $1`, [delivery.id]))[0].status === 'delivered');

  // OAuth: a full sign-in through the provider (the account keeps its tokens encrypted), and one left pending.
  provider.users.set('olga', { email: 'olga@idp.test', emailVerified: true, name: 'Olga' });
  const authorize = async () => {
    const res = await api.get('/auth/oauth2/authorize/custom');
    expect(res.status).toBe(302);
    const cookie = res.headers.getSetCookie()[0].split(';')[0];
    return { location: res.headers.get('location')!, cookie };
  };
  const flow = await authorize();
  const redirect = await loginAtProvider(flow.location, 'olga', REDIRECT_URI);
  const signedIn = must(await api.get(`/auth/oauth2/callback/custom${redirect.search}`, undefined, { headers: { cookie: flow.cookie } }), 'oauth callback');
  holders.set(signedIn.token, 'olga');
  must(await api.get('/oauth/id-token', signedIn.token), 'id token');
  must(await api.get('/auth/list-accounts', signedIn.token), 'list accounts');
  // A callback with a code the provider refuses (the state and the browser are right).
  provider.users.set('oscar', { email: 'oscar@idp.test', emailVerified: true, name: 'Oscar' });
  const refused = await authorize();
  const refusedAt = await loginAtProvider(refused.location, 'oscar', REDIRECT_URI);
  refusedAt.searchParams.set('code', S.refusedOAuthCode);
  const exchange = await api.get(`/auth/oauth2/callback/custom${refusedAt.search}`, undefined, { headers: { cookie: refused.cookie } });
  expect(exchange.body).toEqual({ message: expect.stringMatching(/^OAuth code exchange failed/) });
  const pending = await authorize();
  const state = new URL(pending.location).searchParams.get('state')!;
  const binding = pending.cookie.slice(pending.cookie.indexOf('=') + 1);
  issued.push({ purpose: 'OAuth browser binding', value: binding, allowed: (p) => p.kind === 'answer' && p.where.includes('/auth/oauth2/authorize/custom') });
  hashed.push({ purpose: 'OAuth state (not stored in a table)', value: state, table: '', column: '' });
  const [account] = await sql(db.databaseUrl, `SELECT access_token, refresh_token, id_token FROM account`);
  for (const [column, purpose] of [
    ['access_token', 'OAuth access token'],
    ['refresh_token', 'OAuth refresh token'],
  ] as const) {
    issued.push({ purpose, value: cipher.decrypt(account[column]) });
  }
  const idToken = cipher.decrypt(account.id_token);
  issued.push({ purpose: 'OAuth id token', value: idToken, allowed: (p) => p.kind === 'answer' && p.where.includes('GET /oauth/id-token') });

  // Every GET route, as every kind of caller: owner, admin, member, viewer, the API key and the OAuth user.
  const ids: Record<string, string> = { projectId: apollo.id, taskId: task.id, workspaceId: ws.id };
  const byPath: Record<string, string> = { '/api/task/:id': task.id, '/api/project/:id': apollo.id, '/api/public-project/:id': apollo.id };
  const skip = /oauth2|verify-email|admin\/queues/;
  const paths = registeredRoutes(db)
    .filter((r) => r.method === 'GET' && !skip.test(r.path))
    .map((r) => r.path.replace(/:(\w+)/g, (_m, name: string) => (name === 'id' ? (byPath[r.path] ?? ':id') : (ids[name] ?? `:${name}`))))
    .filter((p) => !p.includes(':'))
    .map((p) => p.replace(/^\/api/, '') + (p.endsWith('/search') ? '?q=Launch' : p.includes('/auth/organization/') ? `?organizationId=${ws.id}` : ''));
  expect(paths).toEqual(expect.arrayContaining([route('generic-webhook'), route('selfgit'), route('hostedgit'), '/notification-preferences']));
  for (const token of [users.owner.token, admin.token, bob.token, users.vic.token, key.key, signedIn.token]) {
    for (const p of paths) await api.get(p, token);
  }
  for (const token of holders.keys()) if (!token.startsWith('tdm_')) issued.push({ purpose: 'session token', value: token });
  for (const token of hostedgit.tokens.keys()) issued.push({ purpose: 'hostedgit installation token', value: token });
  for (const token of hostedgit.userTokens.keys()) issued.push({ purpose: 'hostedgit user access token', value: token });
  for (const r of hostedgit.requests.filter((q) => q.path.endsWith('/access_tokens'))) {
    issued.push({ purpose: 'hostedgit App JWT', value: String(r.headers.authorization).replace(/^bearer\s+/i, '') });
  }
}

// The tests below search what the workload left; whichever runs first (the order is random with
// --randomize) runs the workload, once.
let ran: Promise<void> | undefined;
const afterWorkload = () => (ran ??= workload());

it('runs a workload that uses every secret', () => afterWorkload(), 180_000);

describe('after the workload', () => {
  let places: Place[] = [];
  beforeAll(async () => {
    await afterWorkload();
    expect(await service!.kill('SIGTERM')).toBe(0);
    const names = new Map(holders);
    places = [...(await tableRows(db.databaseUrl)), ...(await redisEntries(REDIS_URL, queuePrefix)), ...api.answers(names), ...logLines(service!.output())];
  }, 210_000);

  it('captured what it searches: debug log lines (trace level), rows of every table, jobs in Redis, the answers', () => {
    const logs = places.filter((p) => p.kind === 'log');
    expect(logs.some((p) => /"level":20/.test(p.text))).toBe(true); // debug lines: the most verbose the code writes
    expect(logs.some((p) => p.text.includes('request completed'))).toBe(true);
    const tables = new Set(places.filter((p) => p.kind === 'table').map((p) => p.where.replace(/\[\d+\]$/, '')));
    expect([...tables]).toEqual(
      expect.arrayContaining(['user', 'integration', 'git_integration', 'notification_preference', 'account', 'delivery', 'migrations', 'user_token', 'api_key']),
    );
    expect(places.some((p) => p.kind === 'redis' && p.where.includes(':bull:'))).toBe(true);
    expect(places.filter((p) => p.kind === 'answer').length).toBeGreaterThan(100);
  });

  it('no secret is in clear anywhere: tables, Redis, answers, log lines', () => {
    const configured: Secret[] = Object.entries(S).map(([purpose, value]) => ({ purpose, value }));
    const envSecrets: Secret[] = [
      { purpose: 'ENCRYPTION_KEY', value: ENCRYPTION_KEY },
      // Two lines of the App's private key (PEM body lines of 64 characters).
      ...appKeys.privateKey
        .split('\n')
        .slice(5, 7)
        .map((value) => ({ purpose: 'HOSTEDGIT_APP_PRIVATE_KEY', value })),
      ...Object.values(users).map((u) => ({ purpose: `password of ${u.user.name}`, value: u.password })),
    ];
    const selfgitSecret: Secret = {
      purpose: 'selfgit webhookSecret',
      value: selfgitWebhookSecret,
      // In clear for members holding workspace:manage_settings (docs/git-hosts.md, "Record").
      allowed: (p) => p.kind === 'answer' && /selfgit-integration\/project\//.test(p.where) && ['owner', 'admin'].includes(p.caller ?? ''),
    };
    const sessions = issued.map((s) => (s.purpose === 'session token' ? { ...s, allowed: issuesSessions } : s));
    const leaks = findLeaks([...configured, ...envSecrets, selfgitSecret, ...sessions], places);
    expect(leaks).toEqual([]);
  });

  it('the selfgit webhook secret is answered to owners and admins, and to nobody else', () => {
    const gets = api.exchanges.filter((e) => e.method === 'GET' && e.path === `/selfgit-integration/project/${projectId}` && e.res.status === 200);
    const seen = Object.fromEntries(gets.map((e) => [holders.get(e.token!), e.res.body.webhookSecret]));
    // (olga, of no workspace, gets 404.)
    expect(seen).toEqual({ owner: selfgitWebhookSecret, admin: selfgitWebhookSecret, bob: '', vic: '' });
  });

  it('tokens are kept only as their SHA-256: the stored column holds the hash, no table the token', () => {
    const tables = places.filter((p) => p.kind === 'table');
    for (const h of hashed) {
      expect(findLeaks([{ purpose: h.purpose, value: h.value }], tables)).toEqual([]);
      if (!h.table) continue;
      const rows = tables.filter((p) => p.where.startsWith(`${h.table}[`)).map((p) => JSON.parse(p.text)[h.column]);
      expect(rows).toContain(sha256(h.value));
    }
    // Sessions: the token is a signed reference to its row; no table keeps it (nor any hash to match).
    const sessionTokens = [...holders.keys()].filter((k) => !k.startsWith('tdm_'));
    expect(
      findLeaks(
        sessionTokens.map((value) => ({ purpose: 'session token', value })),
        tables,
      ),
    ).toEqual([]);
    // OAuth: the pending sign-in in Redis keeps the browser binding as its SHA-256 only.
    const pendingState = hashed.find((h) => h.purpose.startsWith('OAuth state'))!.value;
    const stored = places.find((p) => p.kind === 'redis' && p.where.startsWith(`${queuePrefix}:oauth:state:${pendingState}`))!;
    const binding = issued.find((s) => s.purpose === 'OAuth browser binding')!.value;
    expect(JSON.parse(stored.text.slice(stored.text.indexOf(' ') + 1)).browserBinding).toBe(sha256(binding));
  });
});
