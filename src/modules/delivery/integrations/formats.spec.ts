import { createHmac } from 'node:crypto';
import { TaskEvent } from '../../task/task-event';
import { COMMUNITYCHAT_LIMITS, communitychatMessage } from './communitychat.format';
import { eventView } from './event-view';
import { genericWebhookBody, genericWebhookHeaders, SigningSecretError, webhookSignature } from './generic-webhook.format';
import { messengerMessage } from './messenger.format';
import { teamchatMessage } from './teamchat.format';
import { charLength, escapeHtml, escapeMrkdwn, fitEscaped, neutraliseMentions, truncate } from './text';

const CLIENT = 'https://app.example.test';

function event(over: Partial<TaskEvent> = {}): TaskEvent {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    kind: 'taskStatusChanged',
    occurredAt: '2030-01-02T03:04:05.678Z',
    workspaceId: 'wwwwwwww-0000-4000-8000-000000000000',
    project: { id: 'pppppppp-0000-4000-8000-000000000000', name: 'Apollo', slug: 'APO' },
    task: { id: 'tttttttt-0000-4000-8000-000000000000', number: 12, title: 'Launch', description: null, status: 'done', priority: 'high', assigneeId: null },
    actor: { id: 'aaaaaaaa-0000-4000-8000-000000000000', name: 'Ada' },
    data: { oldStatus: 'to-do', newStatus: 'done' },
    ...over,
  };
}
const taskUrl = `${CLIENT}/projects/pppppppp-0000-4000-8000-000000000000/tasks/tttttttt-0000-4000-8000-000000000000`;

describe('text helpers', () => {
  it('truncate cuts to the limit in code points and ends with …', () => {
    expect(truncate('abcdef', 6)).toBe('abcdef');
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('😀😀😀😀', 3)).toBe('😀😀…');
    expect(charLength(truncate('😀'.repeat(300), 256))).toBe(256);
  });

  it('escapes for each markup', () => {
    expect(escapeHtml(`<b>"Tom" & Jerry</b>`)).toBe('&lt;b&gt;&quot;Tom&quot; &amp; Jerry&lt;/b&gt;');
    expect(escapeMrkdwn(`<!channel> & <http://x|y> "q"`)).toBe('&lt;!channel&gt; &amp; &lt;http://x|y&gt; "q"');
  });

  it('fitEscaped never cuts an entity and respects the limit after escaping', () => {
    const out = fitEscaped('&'.repeat(100), 12, escapeMrkdwn);
    expect(out).toBe('&amp;&amp;…');
    expect(charLength(out)).toBeLessThanOrEqual(12);
    expect(fitEscaped('plain', 12, escapeMrkdwn)).toBe('plain');
  });

  it('neutralises @everyone, @here and user/role mentions', () => {
    const out = neutraliseMentions('hi @everyone and @here, <@123>, <@!456> and <@&789>');
    expect(out).toBe('hi @\u200beveryone and @\u200bhere, <@\u200b123>, <@\u200b!456> and <@\u200b&789>');
    expect(out).not.toMatch(/@(everyone|here)|<@[!&]?\d+>/);
  });
});

describe('messenger format', () => {
  it('HTML text with a bold heading, a line per change and a link; user values escaped; no thread id unless set', () => {
    const ev = event({ project: { id: 'pppppppp-0000-4000-8000-000000000000', name: 'R&D <x>', slug: 'RD' }, task: { ...event().task, title: 'Fix "a" < b' } });
    const msg = messengerMessage(eventView(ev, CLIENT), { chatId: '-100123', threadId: null });
    expect(msg).toEqual({
      chat_id: '-100123',
      parse_mode: 'HTML',
      text: ['<b>[R&amp;D &lt;x&gt;] #12 Fix &quot;a&quot; &lt; b</b>', 'Ada changed the status', 'Status: to-do → done', `<a href="${taskUrl}">Open task</a>`].join('\n'),
    });
    expect(messengerMessage(eventView(ev, CLIENT), { chatId: '1', threadId: 7 }).message_thread_id).toBe(7);
  });

  it('a comment shows its text, escaped', () => {
    const msg = messengerMessage(eventView(event({ kind: 'taskCommentCreated', data: { commentId: 'c', content: '<script>alert(1)</script>' } }), CLIENT), {
      chatId: '1',
      threadId: null,
    });
    expect(msg.text).toContain('Ada commented\n&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('teamchat format', () => {
  it('fallback text, a section with title and body, fields Task/Project/Status/Priority, and who triggered it; mrkdwn escaped', () => {
    const ev = event({ task: { ...event().task, title: '<!channel> & co' }, actor: { id: 'a', name: 'Bob <b>' } });
    const msg = teamchatMessage(eventView(ev, CLIENT));
    expect(msg.text).toBe('Bob &lt;b&gt; changed the status: [Apollo] #12 &lt;!channel&gt; &amp; co');
    expect(msg.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: `*<${taskUrl}|[Apollo] #12 &lt;!channel&gt; &amp; co>*\nBob &lt;b&gt; changed the status\nStatus: to-do → done` } },
      {
        type: 'section',
        fields: [
          { type: 'mrkdwn', text: '*Task*\n#12 &lt;!channel&gt; &amp; co' },
          { type: 'mrkdwn', text: '*Project*\nApollo' },
          { type: 'mrkdwn', text: '*Status*\ndone' },
          { type: 'mrkdwn', text: '*Priority*\nhigh' },
        ],
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'Triggered by Bob &lt;b&gt;' }] },
    ]);
  });

  it('keeps a section within 3000 characters however long the text', () => {
    const msg = teamchatMessage(eventView(event({ kind: 'taskCommentCreated', data: { content: '<'.repeat(5000) } }), CLIENT));
    expect(charLength((msg.blocks[0] as any).text.text)).toBeLessThanOrEqual(3000);
  });
});

describe('communitychat format', () => {
  it('one embed with title, description, url, color, fields and footer; mentions neutralised everywhere; allowed_mentions parse []', () => {
    const ev = event({
      kind: 'taskCommentCreated',
      task: { ...event().task, title: '@everyone look' },
      actor: { id: 'a', name: '<@&42>' },
      data: { commentId: 'c', content: 'ping @here and <@123>' },
    });
    const msg = communitychatMessage(eventView(ev, CLIENT), ev.kind);
    expect(msg.allowed_mentions).toEqual({ parse: [] });
    expect(msg.embeds).toHaveLength(1);
    const [e] = msg.embeds;
    expect(e.title).toBe('[Apollo] #12 @\u200beveryone look');
    expect(e.url).toBe(taskUrl);
    expect(e.description).toBe('<@\u200b&42> commented\nping @\u200bhere and <@\u200b123>');
    expect(e.footer).toEqual({ text: 'Triggered by <@\u200b&42>' });
    expect(e.fields).toEqual([
      { name: 'Status', value: 'done', inline: true },
      { name: 'Priority', value: 'high', inline: true },
      { name: 'Project', value: 'Apollo', inline: true },
    ]);
    expect(typeof e.color).toBe('number');
    expect(JSON.stringify(msg)).not.toMatch(/@(everyone|here)|<@[!&]?\d+>/);
  });

  it('truncates to the limits with …', () => {
    const long = 'x'.repeat(10_000);
    const ev = event({
      kind: 'taskDescriptionChanged',
      task: { ...event().task, title: long, status: long },
      project: { id: 'p', name: long, slug: 'L' },
      data: { newDescription: long },
    });
    const [e] = communitychatMessage({ ...eventView(ev, CLIENT), changes: [{ text: long }] }, ev.kind).embeds;
    expect(charLength(e.title)).toBe(COMMUNITYCHAT_LIMITS.title);
    expect(e.title.endsWith('…')).toBe(true);
    for (const f of e.fields) expect(charLength(f.value)).toBeLessThanOrEqual(COMMUNITYCHAT_LIMITS.fieldValue);
    expect(charLength(e.description)).toBeLessThanOrEqual(COMMUNITYCHAT_LIMITS.description);
    const total = charLength(e.title) + charLength(e.description) + charLength(e.footer.text) + e.fields.reduce((n, f) => n + charLength(f.name) + charLength(f.value), 0);
    expect(total).toBeLessThanOrEqual(COMMUNITYCHAT_LIMITS.embedTotal);
  });
});

describe('generic webhook', () => {
  it('body: event, the event time, project, task with url, actor, data', () => {
    expect(genericWebhookBody(event(), CLIENT)).toEqual({
      event: 'task.status_changed',
      timestamp: '2030-01-02T03:04:05.678Z',
      project: { id: 'pppppppp-0000-4000-8000-000000000000', name: 'Apollo', workspaceId: 'wwwwwwww-0000-4000-8000-000000000000' },
      task: { id: 'tttttttt-0000-4000-8000-000000000000', number: 12, title: 'Launch', status: 'done', priority: 'high', url: taskUrl },
      actor: { id: 'aaaaaaaa-0000-4000-8000-000000000000', name: 'Ada' },
      data: { oldStatus: 'to-do', newStatus: 'done' },
    });
    expect(genericWebhookBody(event({ actor: null }), CLIENT).actor).toBeNull();
    expect(genericWebhookBody(event({ data: undefined as unknown as TaskEvent['data'] }), CLIENT).data).toEqual({});
  });

  /** The Standard Webhooks signature computed without the package. */
  const hmac = (key: Buffer, id: string, ts: number, body: string) => `v1,${createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64')}`;
  const body = JSON.stringify({ hello: 'wörld' });

  it('a plain secret is the key as UTF-8 bytes', () => {
    const secret = 'pässwörd-🔑-secret';
    expect(webhookSignature('msg_1', 1_700_000_000, body, [secret])).toBe(hmac(Buffer.from(secret, 'utf8'), 'msg_1', 1_700_000_000, body));
  });

  it('a whsec_ secret is the base64 of the key', () => {
    const key = Buffer.from('0123456789abcdef0123456789abcdef');
    const secret = `whsec_${key.toString('base64')}`;
    expect(webhookSignature('msg_2', 1_700_000_001, body, [secret])).toBe(hmac(key, 'msg_2', 1_700_000_001, body));
  });

  it('a whsec_ secret that is not base64 is refused with a message that does not show it', () => {
    expect(() => webhookSignature('m', 1, body, ['whsec_not base64!'])).toThrow(SigningSecretError);
    try {
      webhookSignature('m', 1, body, ['whsec_not base64!']);
    } catch (err) {
      expect((err as Error).message).not.toContain('not base64!');
    }
  });

  it('a whsec_ secret must be whole base64 after the prefix: empty, unpadded or with stray characters it is refused', () => {
    for (const secret of ['whsec_', 'whsec_YWJjZ', 'whsec_YWJjZA=', 'whsec_YWJj ZA==', 'whsec_YWJjZA===', 'whsec_=YWJjZA=', 'whsec_YW-jZA==']) {
      expect(() => webhookSignature('m', 1, body, [secret])).toThrow(new SigningSecretError('The signing secret starts with whsec_ but the rest is not base64'));
    }
    // Whole base64, padded or not.
    expect(webhookSignature('m', 1, body, ['whsec_YWJj'])).toBe(hmac(Buffer.from('abc'), 'm', 1, body));
    expect(webhookSignature('m', 1, body, ['whsec_YWJjZA=='])).toBe(hmac(Buffer.from('abcd'), 'm', 1, body));
    expect(webhookSignature('m', 1, body, ['whsec_YWJj+/=='])).toBe(hmac(Buffer.from('YWJj+/==', 'base64'), 'm', 1, body));
    // Only the exact prefix makes a secret base64: anything else is its own UTF-8 bytes.
    expect(webhookSignature('m', 1, body, ['WHSEC_YWJjZA=='])).toBe(hmac(Buffer.from('WHSEC_YWJjZA=='), 'm', 1, body));
    expect(webhookSignature('m', 1, body, ['xwhsec_YWJjZA=='])).toBe(hmac(Buffer.from('xwhsec_YWJjZA=='), 'm', 1, body));
  });

  it('the timestamp signed is the one given, in seconds', () => {
    expect(webhookSignature('m', 1_900_000_123, body, ['k3y-secret'])).toBe(hmac(Buffer.from('k3y-secret'), 'm', 1_900_000_123, body));
    expect(webhookSignature('m', 1_900_000_123, body, ['k3y-secret'])).not.toBe(webhookSignature('m', 1_900_000_124, body, ['k3y-secret']));
    expect(webhookSignature('m', 1, body, [])).toBeNull();
  });

  it('two secrets: both signatures, the first one first; none: no header', () => {
    const sig = webhookSignature('m', 5, body, ['new-secret', 'old-secret']);
    expect(sig).toBe(`${hmac(Buffer.from('new-secret'), 'm', 5, body)} ${hmac(Buffer.from('old-secret'), 'm', 5, body)}`);
    expect(genericWebhookHeaders('m', 5, body, [])).toEqual({ 'content-type': 'application/json', 'webhook-id': 'm', 'webhook-timestamp': '5' });
    expect(genericWebhookHeaders('m', 5, body, ['new-secret'])['webhook-signature']).toBe(hmac(Buffer.from('new-secret'), 'm', 5, body));
  });
});
