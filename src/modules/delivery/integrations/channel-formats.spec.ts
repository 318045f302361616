import { TaskEvent } from '../../task/task-event';
import { COMMUNITYCHAT, GENERIC_WEBHOOK, INTEGRATION_FORMATS, MESSENGER, SendContext, Target, TEAMCHAT } from './channel-formats';
import { UnusableTargetError } from '../delivery-policy';
import { OutboundResponse } from '../../../common/net/outbound-http';

const event: TaskEvent = {
  id: '11111111-1111-4111-8111-111111111111',
  kind: 'taskCreated',
  occurredAt: '2030-01-02T03:04:05.678Z',
  workspaceId: 'w',
  project: { id: 'p', name: 'Apollo', slug: 'APO' },
  task: { id: 't', number: 1, title: 'Launch', description: null, status: 'to-do', priority: 'low', assigneeId: null },
  actor: null,
  data: {},
};
const ctx: SendContext = { deliveryId: 'd-1', event, clientUrl: 'https://app.test', messengerApiBaseUrl: 'https://messenger.test', nowSeconds: 1_900_000_000 };
const target = (over: Partial<Target> = {}): Target => ({
  chatId: '42',
  threadId: null,
  botToken: '123:TOKEN',
  webhookUrl: 'https://hooks.test/x/SECRET',
  signingSecrets: [],
  ...over,
});
const answer = (statusCode: number, body: unknown, headers: Record<string, string> = {}): OutboundResponse => ({
  statusCode,
  headers,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  truncated: false,
});

describe('messenger', () => {
  it('posts to the bot path of the configured API', () => {
    const req = MESSENGER.request(target(), ctx);
    expect(req.url).toBe('https://messenger.test/bot123:TOKEN/sendMessage');
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toMatchObject({ chat_id: '42', parse_mode: 'HTML' });
  });

  it('cannot send without a token or a chat', () => {
    expect(() => MESSENGER.request(target({ botToken: null }), ctx)).toThrow(UnusableTargetError);
    expect(() => MESSENGER.request(target({ chatId: null }), ctx)).toThrow(UnusableTargetError);
    // The message is the failure recorded on the delivery.
    expect(() => MESSENGER.request(target({ botToken: null }), ctx)).toThrow(new UnusableTargetError('The integration has no bot token'));
    expect(() => MESSENGER.request(target({ chatId: null }), ctx)).toThrow(new UnusableTargetError('The integration has no chat id'));
  });

  it('delivered only with ok: true; a 2xx without it fails for good', () => {
    expect(MESSENGER.judge(answer(200, { ok: true, result: {} }), [])).toEqual({ outcome: 'delivered' });
    expect(MESSENGER.judge(answer(200, { ok: false }), [])).toMatchObject({ outcome: 'permanent' });
    expect(MESSENGER.judge(answer(200, '<html>proxy</html>'), [])).toMatchObject({ outcome: 'permanent' });
  });

  it('a 429 waits what the answer says; errors quote the description without the token', () => {
    expect(MESSENGER.judge(answer(429, { ok: false, description: 'Too Many Requests: retry after 3', parameters: { retry_after: 3 } }), [])).toEqual({
      outcome: 'transient',
      error: 'HTTP 429: Too Many Requests: retry after 3',
      retryAfterMs: 3000,
    });
    expect(MESSENGER.judge(answer(401, { ok: false, description: 'Unauthorized bot 123:TOKEN' }), ['123:TOKEN'])).toEqual({
      outcome: 'permanent',
      error: 'HTTP 401: Unauthorized bot [redacted]',
    });
  });
});

describe('messenger: judging the answer', () => {
  const retryAfterOf = (body: unknown, headers: Record<string, string> = {}) => (MESSENGER.judge(answer(429, body, headers), []) as { retryAfterMs: number | null }).retryAfterMs;

  it("the Retry-After header wins over the answer's retry_after; a retry_after that is not a number of seconds is none", () => {
    expect(retryAfterOf({ ok: false, parameters: { retry_after: 3 } }, { 'retry-after': '9' })).toBe(9000);
    expect(retryAfterOf({ ok: false, parameters: { retry_after: 0 } })).toBe(0);
    expect(retryAfterOf({ ok: false, parameters: { retry_after: -1 } })).toBeNull();
    expect(retryAfterOf({ ok: false, parameters: { retry_after: 'soon' } })).toBeNull();
    expect(retryAfterOf({ ok: false })).toBeNull();
    expect(retryAfterOf('not json')).toBeNull();
  });

  it('a failure quotes the description when there is one, else the answer itself, scrubbed', () => {
    expect(MESSENGER.judge(answer(400, { ok: false, description: 42 }), [])).toEqual({ outcome: 'permanent', error: 'HTTP 400: {"ok":false,"description":42}' });
    expect(MESSENGER.judge(answer(502, '<html>bad gateway for 123:TOKEN</html>'), ['123:TOKEN'])).toEqual({
      outcome: 'transient',
      error: 'HTTP 502: <html>bad gateway for [redacted]</html>',
      retryAfterMs: null,
    });
  });

  it('a 2xx without ok: true says so; ok must be exactly true; 3xx is not a 2xx', () => {
    expect(MESSENGER.judge(answer(200, { ok: false }), [])).toEqual({ outcome: 'permanent', error: 'HTTP 200: the messenger API did not answer ok: true' });
    expect(MESSENGER.judge(answer(200, { ok: 'true' }), [])).toMatchObject({ outcome: 'permanent' });
    expect(MESSENGER.judge(answer(299, { ok: true }), [])).toEqual({ outcome: 'delivered' });
    expect(MESSENGER.judge(answer(300, { ok: true }), [])).toEqual({ outcome: 'permanent', error: 'HTTP 300: {"ok":true} (redirects are not followed)' });
    expect(MESSENGER.judge(answer(199, { ok: true }), [])).toMatchObject({ outcome: 'permanent' });
  });

  it('the message goes to the chat and thread of the target', () => {
    const req = MESSENGER.request(target({ chatId: '-100', threadId: 7 }), ctx);
    expect(JSON.parse(req.body)).toMatchObject({ chat_id: '-100', message_thread_id: 7 });
    expect(req.headers).toEqual({ 'content-type': 'application/json', 'user-agent': 'Tandem-Delivery' });
  });
});

describe('webhooks', () => {
  it('the generic webhook: the body, the Standard Webhooks headers, no signature without a secret', () => {
    const req = GENERIC_WEBHOOK.request(target(), ctx);
    expect(req.url).toBe('https://hooks.test/x/SECRET');
    expect(req.headers).toEqual({ 'user-agent': 'Tandem-Delivery', 'content-type': 'application/json', 'webhook-id': 'd-1', 'webhook-timestamp': '1900000000' });
    expect(JSON.parse(req.body).event).toBe('task.created');
    expect(GENERIC_WEBHOOK.request(target({ signingSecrets: ['a-secret'] }), ctx).headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('judged by status; an answer quoting the URL has it cut out', () => {
    expect(TEAMCHAT.judge(answer(204, ''), [])).toEqual({ outcome: 'delivered' });
    expect(TEAMCHAT.judge(answer(404, 'no_service for https://hooks.test/x/SECRET'), ['https://hooks.test/x/SECRET', '/x/SECRET'])).toEqual({
      outcome: 'permanent',
      error: 'HTTP 404: no_service for [redacted]',
    });
    expect(TEAMCHAT.judge(answer(429, 'slow', { 'retry-after': '7' }), [])).toEqual({ outcome: 'transient', error: 'HTTP 429: slow', retryAfterMs: 7000 });
    expect(() => TEAMCHAT.request(target({ webhookUrl: null }), ctx)).toThrow(UnusableTargetError);
  });

  it('a 2xx quotes nothing; a failure quotes the answer; Retry-After only counts on a 429', () => {
    expect(TEAMCHAT.judge(answer(200, 'ok for https://hooks.test/x/SECRET'), [])).toEqual({ outcome: 'delivered' });
    expect(TEAMCHAT.judge(answer(503, 'down', { 'retry-after': '7' }), [])).toEqual({ outcome: 'transient', error: 'HTTP 503: down', retryAfterMs: null });
    expect(TEAMCHAT.judge(answer(300, 'moved'), [])).toEqual({ outcome: 'permanent', error: 'HTTP 300: moved (redirects are not followed)' });
    expect(TEAMCHAT.judge(answer(199, 'early'), [])).toEqual({ outcome: 'permanent', error: 'HTTP 199: early' });
  });

  it('each channel posts JSON to the target URL, through the guarded agents but the messenger', () => {
    for (const format of [TEAMCHAT, COMMUNITYCHAT, GENERIC_WEBHOOK]) {
      const req = format.request(target(), ctx);
      expect([format.type, format.destination, req.url, req.headers['content-type'], req.headers['user-agent']]).toEqual([
        format.type,
        'guarded',
        'https://hooks.test/x/SECRET',
        'application/json',
        'Tandem-Delivery',
      ]);
      expect(() => JSON.parse(req.body)).not.toThrow();
      expect(() => format.request(target({ webhookUrl: null }), ctx)).toThrow(new UnusableTargetError('The integration has no webhook URL'));
    }
    expect(MESSENGER.destination).toBe('operator');
    expect(Object.keys(INTEGRATION_FORMATS).map((k) => INTEGRATION_FORMATS[k as keyof typeof INTEGRATION_FORMATS].type)).toEqual(Object.keys(INTEGRATION_FORMATS));
  });
});
