import { CryptoService } from '../../../src/common/crypto/crypto.service';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { BOT_TOKEN, DEFAULT_EVENTS, integrationRow, ISO, MASKED_BOT_TOKEN } from '../../support/integrations';
import { createProject, ownerWithWorkspace } from '../../support/work-items';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const path = (projectId: string) => `/messenger-integration/project/${projectId}`;
/** The part of the token that must never be answered. */
const TOKEN_SECRET = BOT_TOKEN.split(':')[1];

async function project() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const p = await createProject(t, owner.token, workspaceId);
  return { token: owner.token, workspaceId, projectId: p.id as string };
}

describe('messenger integration', () => {
  it('GET null, POST, GET, PATCH (merge and clear), DELETE, GET null', async () => {
    const { token, projectId } = await project();
    const none = await t.api.get(path(projectId), token);
    expect([none.status, none.text, none.headers.get('content-type')]).toEqual([200, 'null', expect.stringMatching(/^application\/json/)]);

    const created = await t.api.post(path(projectId), { botToken: BOT_TOKEN, chatId: '-1001234567890', threadId: 7, chatLabel: 'Ops room' }, token);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      projectId,
      chatId: '-1001234567890',
      threadId: 7,
      chatLabel: 'Ops room',
      botTokenConfigured: true,
      maskedBotToken: MASKED_BOT_TOKEN,
      events: DEFAULT_EVENTS,
      isActive: true,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(Object.keys(created.body)).toEqual([
      'id',
      'projectId',
      'chatId',
      'threadId',
      'chatLabel',
      'botTokenConfigured',
      'maskedBotToken',
      'events',
      'isActive',
      'createdAt',
      'updatedAt',
    ]);
    expect(created.text).not.toContain(TOKEN_SECRET);

    const read = await t.api.get(path(projectId), token);
    expect([read.status, read.body]).toEqual([200, created.body]);
    expect(read.text).not.toContain(TOKEN_SECRET);

    const patched = await t.api.patch(path(projectId), { events: { taskTitleChanged: true, taskCreated: false }, threadId: null, chatLabel: null, isActive: false }, token);
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      ...created.body,
      threadId: null,
      chatLabel: null,
      isActive: false,
      events: { ...DEFAULT_EVENTS, taskTitleChanged: true, taskCreated: false },
      updatedAt: expect.stringMatching(ISO),
    });
    // A second partial events object merges into what the first one left.
    const merged = await t.api.patch(path(projectId), { events: { taskPriorityChanged: true } }, token);
    expect(merged.body.events).toEqual({ ...DEFAULT_EVENTS, taskTitleChanged: true, taskCreated: false, taskPriorityChanged: true });
    expect(merged.body).toMatchObject({ threadId: null, chatLabel: null, isActive: false, chatId: '-1001234567890' });

    // An empty body changes nothing, not even updatedAt.
    expect((await t.api.patch(path(projectId), {}, token)).body).toEqual(merged.body);

    const newToken = '987654321:ZZZZbbbbccccddddeeeeffffgggghhhabcd';
    const retoken = await t.api.patch(path(projectId), { botToken: newToken, chatId: '@channel', threadId: 3, chatLabel: 'Back' }, token);
    expect(retoken.body).toMatchObject({ maskedBotToken: '987654321:ZZZZ\u2026abcd', chatId: '@channel', threadId: 3, chatLabel: 'Back', botTokenConfigured: true });
    expect(retoken.text).not.toContain(newToken.split(':')[1]);

    const gone = await t.api.delete(path(projectId), token);
    expect([gone.status, gone.body]).toEqual([200, { success: true }]);
    expect((await t.api.get(path(projectId), token)).text).toBe('null');
    for (const res of [await t.api.patch(path(projectId), { isActive: true }, token), await t.api.delete(path(projectId), token)]) {
      expect([res.status, res.body]).toEqual([404, { message: 'Integration not found' }]);
    }
  });

  it('POST again replaces in place: same id and createdAt, omitted fields back to their defaults, active again', async () => {
    const { token, projectId } = await project();
    const first = (
      await t.api.post(path(projectId), { botToken: BOT_TOKEN, chatId: '1', threadId: 9, chatLabel: 'L', events: { taskTitleChanged: true, taskCreated: false } }, token)
    ).body;
    expect(first.events).toEqual({ ...DEFAULT_EVENTS, taskTitleChanged: true, taskCreated: false });
    await t.api.patch(path(projectId), { isActive: false }, token);

    const again = await t.api.post(path(projectId), { botToken: BOT_TOKEN, chatId: '2' }, token);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first, chatId: '2', threadId: null, chatLabel: null, events: DEFAULT_EVENTS, isActive: true, updatedAt: expect.stringMatching(ISO) });
    expect(new Date(again.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(first.updatedAt).getTime());
    const [{ n }] = await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM integration WHERE project_id = $1`, [projectId]);
    expect(n).toBe(1);
  });

  it('stores the bot token encrypted', async () => {
    const { token, projectId } = await project();
    await t.api.post(path(projectId), { botToken: BOT_TOKEN, chatId: '1' }, token);
    const row = await integrationRow(t, projectId, 'messenger');
    expect(row.bot_token).not.toContain(TOKEN_SECRET);
    expect(row.bot_token).not.toContain('123456789');
    expect(t.running.app.get(CryptoService).decrypt(row.bot_token)).toBe(BOT_TOKEN);
    expect([row.webhook_url, row.secret, row.previous_secret, row.secret_replaced_at]).toEqual([null, null, null, null]);
  });

  it('validates the body with one message per problem and writes nothing when it refuses', async () => {
    const { token, projectId } = await project();
    const ok = { botToken: BOT_TOKEN, chatId: '1' };
    const cases: [unknown, string][] = [
      [{ ...ok, botToken: '12345678:short' }, 'Enter a valid bot token'],
      [{ ...ok, botToken: `1234567:${TOKEN_SECRET}` }, 'Enter a valid bot token'],
      [{ ...ok, botToken: `${BOT_TOKEN}x` }, 'Enter a valid bot token'],
      [{ chatId: '1' }, 'Enter a valid bot token'],
      [{ botToken: BOT_TOKEN }, 'chatId is required'],
      [{ ...ok, chatId: '' }, 'chatId is required'],
      [{ ...ok, chatId: 5 }, 'chatId must be a string'],
      [{ ...ok, threadId: 0 }, 'threadId must be at least 1'],
      [{ ...ok, threadId: 1.5 }, 'threadId must be an integer'],
      [{ ...ok, threadId: '3' }, 'threadId must be an integer'],
      [{ ...ok, events: { taskCreated: 'yes' } }, 'events.taskCreated must be a boolean value'],
      [{ ...ok, events: { taskCreated: null } }, 'events.taskCreated must be a boolean value'],
      [{ ...ok, events: { taskArchived: true } }, 'property events.taskArchived should not exist'],
      [{ ...ok, events: [] }, 'events must be an object'],
      [{ ...ok, events: 'all' }, 'events must be an object'],
      [{ ...ok, events: null }, 'events must be an object'],
      [{ ...ok, isActive: false }, 'property isActive should not exist'],
      [{ ...ok, webhookUrl: 'https://example.com/x' }, 'property webhookUrl should not exist'],
    ];
    for (const [body, message] of cases) {
      const res = await t.api.post(path(projectId), body, token);
      expect([JSON.stringify(body), res.status, res.body]).toEqual([JSON.stringify(body), 400, { message }]);
    }
    expect(await integrationRow(t, projectId, 'messenger')).toBeUndefined();

    await t.api.post(path(projectId), ok, token);
    const before = await integrationRow(t, projectId, 'messenger');
    const patchCases: [unknown, string][] = [
      [{ botToken: 'nope' }, 'Enter a valid bot token'],
      [{ botToken: null }, 'Enter a valid bot token'],
      [{ chatId: null }, 'chatId is required'],
      [{ isActive: 'no' }, 'isActive must be a boolean value'],
      [{ isActive: null }, 'isActive must be a boolean value'],
      [{ threadId: 0 }, 'threadId must be at least 1'],
      [{ events: { taskCreated: 1 } }, 'events.taskCreated must be a boolean value'],
      [{ channelName: 'x' }, 'property channelName should not exist'],
    ];
    for (const [body, message] of patchCases) {
      const res = await t.api.patch(path(projectId), body, token);
      expect([JSON.stringify(body), res.status, res.body]).toEqual([JSON.stringify(body), 400, { message }]);
    }
    expect(await integrationRow(t, projectId, 'messenger')).toEqual(before);
  });
});
