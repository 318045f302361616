import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { createProject, MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** The preferences API (docs/notifications.md, "Preferences" and "Workspace rules"). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const PREFS = '/notification-preferences';
const rule = (workspaceId: string) => `${PREFS}/workspaces/${workspaceId}`;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function put(token: string, body: unknown) {
  const res = await t.api.put(PREFS, body, token);
  if (res.status !== 200) throw new Error(`PUT preferences failed: ${res.status} ${res.text}`);
  return res.body;
}

describe('global preferences', () => {
  it('a user who never saved any gets the defaults: every channel off, nothing configured, no rules, no timestamps', async () => {
    const u = await t.api.signUp();
    const res = await t.api.get(PREFS, u.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      emailAddress: u.user.email,
      emailEnabled: false,
      topicpushEnabled: false,
      topicpushConfigured: false,
      topicpushServerUrl: null,
      topicpushTopic: null,
      topicpushTokenConfigured: false,
      maskedTopicpushToken: null,
      serverpushEnabled: false,
      serverpushConfigured: false,
      serverpushServerUrl: null,
      serverpushTokenConfigured: false,
      maskedServerpushToken: null,
      webhookEnabled: false,
      webhookConfigured: false,
      webhookUrl: null,
      webhookSecretConfigured: false,
      maskedWebhookSecret: null,
      dueDateReminderEnabled: true,
      dueDateReminderLeadTimeMinutes: 1440,
      workspaces: [],
      createdAt: null,
      updatedAt: null,
    });
    expect(await sql(t.databaseUrl, `SELECT 1 FROM notification_preference WHERE user_id = $1`, [u.user.id])).toEqual([]);
  });

  it('a PUT merges the fields sent, answers the whole record with masks, and keeps tokens and secrets encrypted at rest', async () => {
    const u = await t.api.signUp();
    const first = await put(u.token, {
      emailEnabled: true,
      topicpushEnabled: true,
      topicpushServerUrl: 'https://ntfy.example.com',
      topicpushTopic: 'tandem-ada',
      topicpushToken: 'tk_0123456789abcdef',
      serverpushServerUrl: 'https://push.example.com/gotify',
      serverpushToken: 'Agotify-token-1234',
      webhookUrl: 'https://example.com/hooks/me',
      webhookSecret: 'whsec_c2VjcmV0LWtleS1ieXRlcw==',
    });
    expect(first).toMatchObject({
      emailEnabled: true,
      topicpushEnabled: true,
      topicpushConfigured: true,
      topicpushServerUrl: 'https://ntfy.example.com',
      topicpushTopic: 'tandem-ada',
      topicpushTokenConfigured: true,
      maskedTopicpushToken: 'tk_0\u2026cdef',
      serverpushEnabled: false,
      serverpushConfigured: true,
      serverpushServerUrl: 'https://push.example.com/gotify',
      serverpushTokenConfigured: true,
      maskedServerpushToken: 'Agot\u20261234',
      webhookEnabled: false,
      webhookConfigured: true,
      webhookUrl: 'https://example.com/hooks/me',
      webhookSecretConfigured: true,
      maskedWebhookSecret: 'whse\u2026cw==',
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    for (const secret of ['tk_0123456789abcdef', 'Agotify-token-1234', 'whsec_c2VjcmV0LWtleS1ieXRlcw==']) expect(JSON.stringify(first)).not.toContain(secret);

    // Stored sealed under the current key (v2:<key id>:…), never in clear.
    const [row] = await sql(t.databaseUrl, `SELECT * FROM notification_preference WHERE user_id = $1`, [u.user.id]);
    for (const c of ['topicpush_token', 'serverpush_token', 'webhook_secret']) expect([c, row[c]]).toEqual([c, expect.stringMatching(/^v2:[0-9a-f]{8}:/)]);
    expect(JSON.stringify(row)).not.toMatch(/tk_0123456789abcdef|Agotify-token-1234|whsec_c2Vj/);

    // A later PUT changes only what it sends.
    const second = await put(u.token, { serverpushEnabled: true, emailEnabled: false });
    expect(second).toEqual({ ...first, serverpushEnabled: true, emailEnabled: false, updatedAt: expect.stringMatching(ISO) });
    expect((await t.api.get(PREFS, u.token)).body).toEqual(second);
  });

  it('"" or null clears a token, the secret, a URL or the topic; a channel without what it needs is not configured', async () => {
    const u = await t.api.signUp();
    await put(u.token, {
      topicpushServerUrl: 'https://ntfy.example.com',
      topicpushTopic: 'x',
      topicpushToken: 'short',
      webhookUrl: 'https://example.com/h',
      webhookSecret: 's3cret',
    });
    expect((await t.api.get(PREFS, u.token)).body).toMatchObject({ maskedTopicpushToken: '\u2022\u2022\u2022\u2022', maskedWebhookSecret: '\u2022\u2022\u2022\u2022' });
    const cleared = await put(u.token, { topicpushToken: '', webhookSecret: null, topicpushTopic: null, webhookUrl: '' });
    expect(cleared).toMatchObject({
      topicpushServerUrl: 'https://ntfy.example.com',
      topicpushTopic: null,
      topicpushConfigured: false,
      topicpushTokenConfigured: false,
      maskedTopicpushToken: null,
      webhookUrl: null,
      webhookConfigured: false,
      webhookSecretConfigured: false,
      maskedWebhookSecret: null,
    });
    const [row] = await sql(t.databaseUrl, `SELECT topicpush_token, webhook_secret, webhook_previous_secret FROM notification_preference WHERE user_id = $1`, [u.user.id]);
    expect(row).toEqual({ topicpush_token: null, webhook_secret: null, webhook_previous_secret: null });
  });

  it('replacing the webhook secret keeps the old one for 24 h of double signing; the same secret again changes nothing', async () => {
    const u = await t.api.signUp();
    await put(u.token, { webhookUrl: 'https://example.com/h', webhookSecret: 'first-secret' });
    const stored = async () =>
      (await sql(t.databaseUrl, `SELECT webhook_secret, webhook_previous_secret, webhook_secret_replaced_at FROM notification_preference WHERE user_id = $1`, [u.user.id]))[0];
    const set = await stored();
    expect(set.webhook_previous_secret).toBeNull();
    await put(u.token, { webhookSecret: 'second-secret' });
    const replaced = await stored();
    expect(replaced.webhook_previous_secret).toBe(set.webhook_secret);
    expect(replaced.webhook_secret_replaced_at).not.toBeNull();
    await put(u.token, { webhookSecret: 'second-secret' });
    expect(await stored()).toEqual(replaced);
  });

  it('refuses bad values with {message} and writes nothing', async () => {
    const u = await t.api.signUp();
    const cases: [unknown, string][] = [
      [{ emailEnabled: 'yes' }, 'emailEnabled must be a boolean value'],
      [{ emailEnabled: null }, 'emailEnabled must be a boolean value'],
      [{ topicpushServerUrl: 'ftp://x.example' }, 'topicpushServerUrl must be an http(s) URL without a query or fragment'],
      [{ topicpushServerUrl: 'https://x.example/?a=1' }, 'topicpushServerUrl must be an http(s) URL without a query or fragment'],
      [{ topicpushTopic: 'no spaces' }, 'topicpushTopic must be 1-64 letters, digits, - or _'],
      [{ serverpushToken: 5 }, 'serverpushToken must be a string'],
      [{ webhookUrl: 'javascript:alert(1)' }, 'webhookUrl must be an http(s) URL'],
      [{ webhookSecret: 'x'.repeat(1025) }, 'webhookSecret must be at most 1024 characters'],
      [{ unknownField: true }, 'property unknownField should not exist'],
    ];
    for (const [body, message] of cases) {
      const res = await t.api.put(PREFS, body, u.token);
      expect([body, res.status, res.body]).toEqual([body, 400, { message }]);
    }
    expect(await sql(t.databaseUrl, `SELECT 1 FROM notification_preference WHERE user_id = $1`, [u.user.id])).toEqual([]);
  });

  it('needs a signed-in user; a key limited to some resources is refused', async () => {
    expect((await t.api.get(PREFS)).status).toBe(401);
    const u = await t.api.signUp();
    const key = (await t.api.post('/auth/api-key/create', { permissions: { workspace: ['read'] } }, u.token)).body.key;
    expect(await t.api.put(PREFS, { emailEnabled: true }, key)).toMatchObject({ status: 403, body: { message: 'Insufficient API key scope' } });
    const unscoped = (await t.api.post('/auth/api-key/create', {}, u.token)).body.key;
    expect((await t.api.put(PREFS, { emailEnabled: true }, unscoped)).body.emailEnabled).toBe(true);
  });
});

describe('workspace rules', () => {
  it('a new rule takes the global state of each channel, is active for all projects, and is listed with the workspace name', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    await put(owner.token, { emailEnabled: true });
    const res = await t.api.put(rule(workspaceId), {}, owner.token);
    expect(res.status).toBe(200);
    const [ws] = (await t.api.get('/auth/organization/list', owner.token)).body;
    expect(res.body.workspaces).toEqual([
      {
        id: expect.any(String),
        workspaceId,
        workspaceName: ws.name,
        isActive: true,
        emailEnabled: true,
        topicpushEnabled: false,
        serverpushEnabled: false,
        webhookEnabled: false,
        projectMode: 'all',
        selectedProjectIds: [],
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    ]);
    expect((await t.api.get(PREFS, owner.token)).body.workspaces).toEqual(res.body.workspaces);
  });

  it('fields sent merge into the rule; projectMode follows selectedProjectIds when omitted', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    await put(owner.token, { emailEnabled: true, webhookEnabled: true });
    const p1 = await createProject(t, owner.token, workspaceId);
    const p2 = await createProject(t, owner.token, workspaceId);
    const ruleOf = (body: any) => body.workspaces.find((w: any) => w.workspaceId === workspaceId);

    let r = ruleOf((await t.api.put(rule(workspaceId), { selectedProjectIds: [p1.id, p2.id.toUpperCase(), p1.id] }, owner.token)).body);
    expect(r).toMatchObject({ projectMode: 'selected', selectedProjectIds: [p1.id, p2.id], emailEnabled: true, webhookEnabled: true });
    r = ruleOf((await t.api.put(rule(workspaceId), { webhookEnabled: false, isActive: false }, owner.token)).body);
    expect(r).toMatchObject({ projectMode: 'selected', selectedProjectIds: [p1.id, p2.id], emailEnabled: true, webhookEnabled: false, isActive: false });
    r = ruleOf((await t.api.put(rule(workspaceId), { selectedProjectIds: [] }, owner.token)).body);
    expect(r).toMatchObject({ projectMode: 'all', selectedProjectIds: [] });
    r = ruleOf((await t.api.put(rule(workspaceId), { projectMode: 'selected', selectedProjectIds: [p2.id] }, owner.token)).body);
    expect(r).toMatchObject({ projectMode: 'selected', selectedProjectIds: [p2.id] });
    r = ruleOf((await t.api.put(rule(workspaceId), { projectMode: 'all' }, owner.token)).body);
    expect(r).toMatchObject({ projectMode: 'all', selectedProjectIds: [] });
    const rows = await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM notification_rule WHERE user_id = $1`, [owner.user.id]);
    expect(rows[0].n).toBe(1);
  });

  it('answers the decided 400s and 404s, and a refused request writes nothing', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const other = await ownerWithWorkspace(t);
    const foreign = await createProject(t, other.owner.token, other.workspaceId);
    const mine = await createProject(t, owner.token, workspaceId);
    await put(owner.token, { emailEnabled: true });

    const cases: [string, unknown, number, string][] = [
      [rule(workspaceId), { topicpushEnabled: true }, 400, 'Enable topicpush notifications globally before using them here'],
      [
        rule(workspaceId),
        { serverpushEnabled: true, webhookEnabled: true },
        400,
        'Enable serverpush notifications globally before using them here, Enable webhook notifications globally before using them here',
      ],
      [rule(workspaceId), { projectMode: 'selected' }, 400, 'selectedProjectIds must not be empty when projectMode is selected'],
      [rule(workspaceId), { projectMode: 'selected', selectedProjectIds: [] }, 400, 'selectedProjectIds must not be empty when projectMode is selected'],
      [rule(workspaceId), { selectedProjectIds: [foreign.id] }, 400, 'selectedProjectIds must only hold projects of this workspace'],
      [rule(workspaceId), { selectedProjectIds: [mine.id, MISSING_ID] }, 400, 'selectedProjectIds must only hold projects of this workspace'],
      [rule(workspaceId), { selectedProjectIds: ['not-a-uuid'] }, 400, 'selectedProjectIds must only hold projects of this workspace'],
      [rule(workspaceId), { selectedProjectIds: 'x' }, 400, 'selectedProjectIds must be an array of project ids'],
      [rule(workspaceId), { projectMode: 'some' }, 400, 'projectMode must be one of the following values: all, selected'],
      [rule(workspaceId), { isActive: null }, 400, 'isActive must be a boolean value'],
      [rule(other.workspaceId), { isActive: true }, 404, 'Workspace not found'],
      [rule(MISSING_ID), { isActive: true }, 404, 'Workspace not found'],
      [rule('nope'), { isActive: true }, 404, 'Workspace not found'],
    ];
    for (const [path, body, status, message] of cases) {
      const res = await t.api.put(path, body, owner.token);
      expect([path, body, res.status, res.body]).toEqual([path, body, status, { message }]);
    }
    expect(await sql(t.databaseUrl, `SELECT 1 FROM notification_rule WHERE user_id = $1`, [owner.user.id])).toEqual([]);
    // Enabled globally (even if not configured): allowed on a rule.
    expect((await t.api.put(rule(workspaceId), { emailEnabled: true, selectedProjectIds: [mine.id] }, owner.token)).status).toBe(200);
  });

  it('DELETE removes the rule and answers the record; a missing rule or a foreign workspace is 404', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const other = await ownerWithWorkspace(t);
    expect((await t.api.delete(rule(workspaceId), owner.token)).body).toEqual({ message: 'Workspace rule not found' });
    expect((await t.api.put(rule(workspaceId), { isActive: false }, owner.token)).status).toBe(200);
    // Another member cannot touch it: their rules are their own.
    const member = await userWithRole(t, workspaceId, 'member');
    expect((await t.api.delete(rule(workspaceId), member.token)).body).toEqual({ message: 'Workspace rule not found' });
    expect(await t.api.delete(rule(other.workspaceId), owner.token)).toMatchObject({ status: 404, body: { message: 'Workspace not found' } });
    const res = await t.api.delete(rule(workspaceId), owner.token);
    expect(res.status).toBe(200);
    expect(res.body.workspaces).toEqual([]);
    expect(res.body.emailAddress).toBe(owner.user.email);
  });

  it('a rule of a workspace the user left is no longer listed', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const member = await userWithRole(t, workspaceId, 'member');
    expect((await t.api.put(rule(workspaceId), { isActive: false }, member.token)).body.workspaces).toHaveLength(1);
    const members = (await t.api.get(`/auth/organization/list-members?organizationId=${workspaceId}`, owner.token)).body;
    const m = members.find((x: any) => x.userId === member.user.id);
    expect((await t.api.post('/auth/organization/remove-member', { memberIdOrEmail: m.id, organizationId: workspaceId }, owner.token)).status).toBe(200);
    expect((await t.api.get(PREFS, member.token)).body.workspaces).toEqual([]);
  });
});

describe('the destination guard (ALLOW_PRIVATE_DESTINATIONS=false)', () => {
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await startTestApp({ APP_ROLES: 'api', ALLOW_PRIVATE_DESTINATIONS: 'false' });
  });
  afterAll(() => guarded?.close());

  it('refuses server and webhook URLs that lead to non-routable addresses, and writes nothing', async () => {
    const u = await guarded.api.signUp();
    for (const body of [
      { topicpushServerUrl: 'http://127.0.0.1:8080' },
      { serverpushServerUrl: 'http://10.0.0.5' },
      { webhookUrl: 'http://[::1]/hook' },
      { webhookUrl: 'http://169.254.169.254/latest' },
    ]) {
      const res = await guarded.api.put(PREFS, { emailEnabled: true, ...body }, u.token);
      expect([body, res.status, res.body]).toEqual([body, 400, { message: 'Webhook destination resolves to a non-routable address' }]);
    }
    expect(await sql(guarded.databaseUrl, `SELECT 1 FROM notification_preference WHERE user_id = $1`, [u.user.id])).toEqual([]);
  });
});
