import { CryptoService } from '../../../src/common/crypto/crypto.service';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { DEFAULT_EVENTS, integrationRow, ISO } from '../../support/integrations';
import { createProject, ownerWithWorkspace } from '../../support/work-items';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

/** A webhook URL whose last segment is the secret part. */
const HOOK = 'https://hooks.example.com/services/T000/B000/XXXXlongsecretYYYY';
const HOOK_SECRET = 'longsecret';
const MASKED_HOOK = 'https://hooks.example.com/services/T000/B000/XXXX\u2026YYYY';

async function project(app = t) {
  const { owner, workspaceId } = await ownerWithWorkspace(app);
  const p = await createProject(app, owner.token, workspaceId);
  return { token: owner.token, workspaceId, projectId: p.id as string };
}

const open = (sealed: string | null) => (sealed === null ? null : t.running.app.get(CryptoService).decrypt(sealed));

describe('generic webhook integration', () => {
  const path = (projectId: string) => `/generic-webhook-integration/project/${projectId}`;

  it('GET null, POST, GET, PATCH, DELETE; neither the URL nor the secret is ever answered', async () => {
    const { token, projectId } = await project();
    expect((await t.api.get(path(projectId), token)).text).toBe('null');
    const secret = 'whsec_supersecretvalue';
    const created = await t.api.post(path(projectId), { webhookUrl: HOOK, secret }, token);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      projectId,
      webhookConfigured: true,
      maskedWebhookUrl: MASKED_HOOK,
      secretConfigured: true,
      maskedSecret: 'whse\u2026alue',
      dueDateReminderLeadTimeMinutes: 1440,
      events: DEFAULT_EVENTS,
      isActive: true,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(Object.keys(created.body)).toEqual([
      'id',
      'projectId',
      'webhookConfigured',
      'maskedWebhookUrl',
      'secretConfigured',
      'maskedSecret',
      'dueDateReminderLeadTimeMinutes',
      'events',
      'isActive',
      'createdAt',
      'updatedAt',
    ]);
    for (const clear of [HOOK_SECRET, 'supersecret']) expect(created.text).not.toContain(clear);
    const read = await t.api.get(path(projectId), token);
    expect(read.body).toEqual(created.body);
    for (const clear of [HOOK_SECRET, 'supersecret']) expect(read.text).not.toContain(clear);

    const row = await integrationRow(t, projectId, 'generic-webhook');
    expect(row.webhook_url).not.toContain(HOOK_SECRET);
    expect(row.secret).not.toContain('supersecret');
    expect([open(row.webhook_url), open(row.secret)]).toEqual([HOOK, secret]);

    const patched = await t.api.patch(
      path(projectId),
      { webhookUrl: 'https://example.com/in/abcdefghijkl/?token=querysecret', events: { taskDescriptionChanged: true }, isActive: false },
      token,
    );
    expect(patched.body).toEqual({
      ...created.body,
      maskedWebhookUrl: 'https://example.com/in/abcd\u2026ijkl/',
      events: { ...DEFAULT_EVENTS, taskDescriptionChanged: true },
      isActive: false,
      updatedAt: expect.stringMatching(ISO),
    });
    expect(patched.text).not.toContain('querysecret');

    const short = await t.api.patch(path(projectId), { secret: 'tiny' }, token);
    expect(short.body).toMatchObject({ secretConfigured: true, maskedSecret: '\u2022\u2022\u2022\u2022' });
    for (const removal of [null, '']) {
      await t.api.patch(path(projectId), { secret: 'another-secret' }, token);
      const removed = await t.api.patch(path(projectId), { secret: removal }, token);
      expect(removed.body).toMatchObject({ secretConfigured: false, maskedSecret: null, webhookConfigured: true });
    }

    expect((await t.api.delete(path(projectId), token)).body).toEqual({ success: true });
    expect((await t.api.get(path(projectId), token)).text).toBe('null');
    expect(await integrationRow(t, projectId, 'generic-webhook')).toBeUndefined();
  });

  it('rotation: a different secret keeps the old one as previous_secret with secret_replaced_at; the same one changes nothing; removal clears all three', async () => {
    const { token, projectId } = await project();
    const columns = async () => {
      const [r] = await sql(
        t.databaseUrl,
        `SELECT secret, previous_secret, secret_replaced_at, secret_replaced_at > now() - interval '1 minute' AS recent FROM integration WHERE project_id = $1 AND type = 'generic-webhook'`,
        [projectId],
      );
      return { ...r, secret: open(r.secret), previous: open(r.previous_secret) };
    };

    await t.api.post(path(projectId), { webhookUrl: HOOK, secret: 'first-secret' }, token);
    expect(await columns()).toMatchObject({ secret: 'first-secret', previous: null, secret_replaced_at: null });

    await t.api.patch(path(projectId), { secret: 'second-secret' }, token);
    const rotated = await columns();
    expect(rotated).toMatchObject({ secret: 'second-secret', previous: 'first-secret', recent: true });
    expect(rotated.previous_secret).not.toContain('first-secret');

    // The same secret again, by PATCH or by a whole replacement, leaves the rotation as it is.
    await t.api.patch(path(projectId), { secret: 'second-secret' }, token);
    await t.api.post(path(projectId), { webhookUrl: HOOK, secret: 'second-secret' }, token);
    const same = await columns();
    expect(same).toEqual(rotated);

    // A replacement with another secret rotates again.
    await t.api.post(path(projectId), { webhookUrl: HOOK, secret: 'third-secret' }, token);
    const third = await columns();
    expect(third).toMatchObject({ secret: 'third-secret', previous: 'second-secret', recent: true });
    expect(third.secret_replaced_at.getTime()).toBeGreaterThanOrEqual(rotated.secret_replaced_at.getTime());

    // A replacement without a secret removes it, and the previous one with it.
    const none = await t.api.post(path(projectId), { webhookUrl: HOOK }, token);
    expect(none.body).toMatchObject({ secretConfigured: false, maskedSecret: null });
    expect(await columns()).toMatchObject({ secret: null, previous_secret: null, secret_replaced_at: null });

    // A first secret where there was none rotates nothing.
    await t.api.patch(path(projectId), { secret: 'fourth-secret' }, token);
    expect(await columns()).toMatchObject({ secret: 'fourth-secret', previous: null, secret_replaced_at: null });
    await t.api.patch(path(projectId), { secret: 'fifth-secret' }, token);
    await t.api.patch(path(projectId), { secret: null }, token);
    expect(await columns()).toMatchObject({ secret: null, previous_secret: null, secret_replaced_at: null });
  });

  it('concurrent creates make one integration; concurrent rotations keep a consistent chain', async () => {
    const { token, projectId } = await project();
    const secrets = Array.from({ length: 8 }, (_, i) => `concurrent-secret-${i}`);
    const answers = await Promise.all(secrets.map((secret) => t.api.post(path(projectId), { webhookUrl: HOOK, secret }, token)));
    expect(answers.map((a) => a.status)).toEqual(secrets.map(() => 200));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    const rows = await sql(t.databaseUrl, `SELECT secret, previous_secret FROM integration WHERE project_id = $1`, [projectId]);
    expect(rows).toHaveLength(1);
    // Each write saw the one before it (none overwrote a row it had not read): the stored secret
    // is one of those sent and the previous one another of them, never lost to a race.
    const [row] = rows;
    expect(secrets).toContain(open(row.secret));
    expect(secrets.filter((s) => s !== open(row.secret))).toContain(open(row.previous_secret));
  });

  it('validates the body', async () => {
    const { token, projectId } = await project();
    const cases: [unknown, string][] = [
      [{}, 'webhookUrl is required'],
      [{ webhookUrl: '' }, 'webhookUrl is required'],
      [{ webhookUrl: 'ftp://example.com/x' }, 'webhookUrl must be an http(s) URL'],
      [{ webhookUrl: 'javascript:alert(1)' }, 'webhookUrl must be an http(s) URL'],
      [{ webhookUrl: 'example.com/hook' }, 'webhookUrl must be an http(s) URL'],
      [{ webhookUrl: 'https://exa mple.com/hook' }, 'webhookUrl must be an http(s) URL'],
      [{ webhookUrl: 42 }, 'webhookUrl must be a string'],
      [{ webhookUrl: `https://example.com/${'x'.repeat(2048)}` }, 'webhookUrl must be at most 2048 characters'],
      [{ webhookUrl: 'https://[nope/x' }, 'Webhook destination must be an http(s) URL'],
      [{ webhookUrl: HOOK, secret: 5 }, 'secret must be a string'],
      [{ webhookUrl: HOOK, events: { taskCreated: 'true' } }, 'events.taskCreated must be a boolean value'],
      [{ webhookUrl: HOOK, channelName: 'x' }, 'property channelName should not exist'],
    ];
    for (const [body, message] of cases) {
      const res = await t.api.post(path(projectId), body, token);
      expect([JSON.stringify(body).slice(0, 80), res.status, res.body]).toEqual([JSON.stringify(body).slice(0, 80), 400, { message }]);
    }
    expect(await integrationRow(t, projectId, 'generic-webhook')).toBeUndefined();
    await t.api.post(path(projectId), { webhookUrl: HOOK }, token);
    for (const [body, message] of [
      [{ webhookUrl: null }, 'webhookUrl is required'],
      [{ webhookUrl: 'mailto:a@b.c' }, 'webhookUrl must be an http(s) URL'],
      [{ isActive: 1 }, 'isActive must be a boolean value'],
    ] as const) {
      const res = await t.api.patch(path(projectId), body, token);
      expect([res.status, res.body]).toEqual([400, { message }]);
    }
  });
});

describe.each(['teamchat', 'communitychat'])('%s integration', (type) => {
  const path = (projectId: string) => `/${type}-integration/project/${projectId}`;

  it('GET null, POST, GET, PATCH (merge, clear channelName, new URL), DELETE', async () => {
    const { token, projectId } = await project();
    expect((await t.api.get(path(projectId), token)).text).toBe('null');
    const created = await t.api.post(path(projectId), { webhookUrl: HOOK, channelName: '#ops' }, token);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      projectId,
      channelName: '#ops',
      webhookConfigured: true,
      maskedWebhookUrl: MASKED_HOOK,
      events: DEFAULT_EVENTS,
      isActive: true,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(Object.keys(created.body)).toEqual(['id', 'projectId', 'channelName', 'webhookConfigured', 'maskedWebhookUrl', 'events', 'isActive', 'createdAt', 'updatedAt']);
    expect(created.text).not.toContain(HOOK_SECRET);
    expect((await t.api.get(path(projectId), token)).body).toEqual(created.body);
    const row = await integrationRow(t, projectId, type);
    expect(row.webhook_url).not.toContain(HOOK_SECRET);
    expect(open(row.webhook_url)).toBe(HOOK);

    // A URL ending in a slash masks its last real segment.
    const slashed = 'https://discord.example.com/api/webhooks/123/SECRETTOKENVALUE/';
    const patched = await t.api.patch(path(projectId), { webhookUrl: slashed, channelName: null, events: { taskCommentCreated: false } }, token);
    expect(patched.body).toEqual({
      ...created.body,
      channelName: null,
      maskedWebhookUrl: 'https://discord.example.com/api/webhooks/123/SECR\u2026ALUE/',
      events: { ...DEFAULT_EVENTS, taskCommentCreated: false },
      updatedAt: expect.stringMatching(ISO),
    });
    expect(patched.text).not.toContain('TOKENV');
    expect((await t.api.patch(path(projectId), { isActive: false }, token)).body.isActive).toBe(false);

    // Replacing keeps the id and resets what the body omits.
    const replaced = await t.api.post(path(projectId), { webhookUrl: HOOK }, token);
    expect(replaced.body).toEqual({ ...created.body, channelName: null, updatedAt: expect.stringMatching(ISO) });

    expect((await t.api.delete(path(projectId), token)).body).toEqual({ success: true });
    expect((await t.api.get(path(projectId), token)).text).toBe('null');
  });

  it('validates the body', async () => {
    const { token, projectId } = await project();
    const cases: [unknown, string][] = [
      [{ channelName: '#ops' }, 'webhookUrl is required'],
      [{ webhookUrl: 'file:///etc/passwd' }, 'webhookUrl must be an http(s) URL'],
      [{ webhookUrl: HOOK, channelName: 7 }, 'channelName must be a string'],
      [{ webhookUrl: HOOK, secret: 'x' }, 'property secret should not exist'],
      [{ webhookUrl: HOOK, events: { taskCreated: true, taskArchived: true } }, 'property events.taskArchived should not exist'],
    ];
    for (const [body, message] of cases) {
      const res = await t.api.post(path(projectId), body, token);
      expect([res.status, res.body]).toEqual([400, { message }]);
    }
    expect(await integrationRow(t, projectId, type)).toBeUndefined();
  });
});

it('each type is its own integration of the project', async () => {
  const { token, projectId } = await project();
  await t.api.post(`/teamchat-integration/project/${projectId}`, { webhookUrl: HOOK, channelName: 'team' }, token);
  await t.api.post(`/communitychat-integration/project/${projectId}`, { webhookUrl: HOOK, channelName: 'community' }, token);
  await t.api.post(`/generic-webhook-integration/project/${projectId}`, { webhookUrl: HOOK }, token);
  expect((await t.api.delete(`/teamchat-integration/project/${projectId}`, token)).status).toBe(200);
  expect((await t.api.get(`/teamchat-integration/project/${projectId}`, token)).body).toBeNull();
  expect((await t.api.get(`/communitychat-integration/project/${projectId}`, token)).body.channelName).toBe('community');
  expect((await t.api.get(`/generic-webhook-integration/project/${projectId}`, token)).body.webhookConfigured).toBe(true);
  expect((await t.api.get(`/messenger-integration/project/${projectId}`, token)).body).toBeNull();
});

describe('the destination guard (ALLOW_PRIVATE_DESTINATIONS=false)', () => {
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await startTestApp({ APP_ROLES: 'api', ALLOW_PRIVATE_DESTINATIONS: 'false' });
  });
  afterAll(() => guarded?.close());

  it('refuses URLs that lead to non-routable addresses, on create and on update, and writes nothing', async () => {
    const { token, projectId } = await project(guarded);
    for (const [type, url] of [
      ['generic-webhook', 'http://127.0.0.1/hook'],
      ['teamchat', 'http://10.0.0.1/'],
      ['communitychat', 'https://[::1]:8443/api/webhooks/1/x'],
      ['generic-webhook', 'http://169.254.169.254/latest/meta-data/'],
      ['teamchat', 'http://localhost:9/hook'],
    ]) {
      const res = await guarded.api.post(`/${type}-integration/project/${projectId}`, { webhookUrl: url }, token);
      expect([type, url, res.status, res.body]).toEqual([type, url, 400, { message: 'Webhook destination resolves to a non-routable address' }]);
    }
    expect(await sql(guarded.databaseUrl, `SELECT id FROM integration WHERE project_id = $1`, [projectId])).toEqual([]);

    // A public address passes; changing it to a private one is refused and leaves it as it was.
    const ok = await guarded.api.post(`/generic-webhook-integration/project/${projectId}`, { webhookUrl: 'https://93.184.215.14/hooks/abcdefghijkl' }, token);
    expect(ok.status).toBe(200);
    const refused = await guarded.api.patch(`/generic-webhook-integration/project/${projectId}`, { webhookUrl: 'http://192.168.1.10/hook', isActive: false }, token);
    expect([refused.status, refused.body]).toEqual([400, { message: 'Webhook destination resolves to a non-routable address' }]);
    expect((await guarded.api.get(`/generic-webhook-integration/project/${projectId}`, token)).body).toEqual(ok.body);
  });
});
