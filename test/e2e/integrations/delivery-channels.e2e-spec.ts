import { createHmac } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { ReceivedRequest } from '../../support/http-receiver';
import { until } from '../../support/until';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';
import { addIntegration, botToken, deliveriesOf, rand, ScriptedReceiver } from './delivery-support';

const CLIENT_URL = 'https://client.example.test';
const receiver = new ScriptedReceiver();
let t: TestApp;

beforeAll(async () => {
  await receiver.start();
  t = await startTestApp({ CLIENT_URL, MESSENGER_API_BASE_URL: `${receiver.url}/messenger` });
});
afterAll(async () => {
  await t?.close();
  await receiver.stop();
});

async function board(projectName = 'Apollo') {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId, { name: projectName });
  return { owner, workspaceId, project };
}

const taskUrl = (projectId: string, taskId: string) => `${CLIENT_URL}/projects/${projectId}/tasks/${taskId}`;

/** The Standard Webhooks signature computed here, independently of the service's signer. */
const sign = (key: Buffer, req: ReceivedRequest) =>
  `v1,${createHmac('sha256', key).update(`${req.headers['webhook-id']}.${req.headers['webhook-timestamp']}.${req.raw}`).digest('base64')}`;

describe('each channel receives its format', () => {
  it('messenger: sendMessage to the bot path with chat, thread and escaped HTML, for a create, a status change and a comment', async () => {
    const { owner, project } = await board('R&D <lab>');
    const token = botToken();
    const integrationId = await addIntegration(t, owner.token, project.id, { type: 'messenger', botToken: token, chatId: '-100777', threadId: 42 });
    const path = `/messenger/bot${token}/sendMessage`;

    const task = await createTask(t, owner.token, project.id, { title: 'Launch & "land"' });
    const [created] = await receiver.waitFor(path, 1);
    expect(created.method).toBe('POST');
    expect(created.headers['content-type']).toBe('application/json');
    expect(created.json).toEqual({
      chat_id: '-100777',
      message_thread_id: 42,
      parse_mode: 'HTML',
      text: [
        '<b>[R&amp;D &lt;lab&gt;] #1 Launch &amp; &quot;land&quot;</b>',
        `${owner.user.name} created the task`,
        `<a href="${taskUrl(project.id, task.id)}">Open task</a>`,
      ].join('\n'),
    });

    expect((await t.api.put(`/task/status/${task.id}`, { status: 'done' }, owner.token)).status).toBe(200);
    const [, status] = await receiver.waitFor(path, 2);
    expect(status.json.text.split('\n').slice(1, 3)).toEqual([`${owner.user.name} changed the status`, `Status: ${task.status} → done`]);

    expect((await t.api.post(`/comment/${task.id}`, { content: 'Ship <it> & go' }, owner.token)).status).toBe(200);
    const [, , comment] = await receiver.waitFor(path, 3);
    expect(comment.json.text.split('\n').slice(1, 3)).toEqual([`${owner.user.name} commented`, 'Ship &lt;it&gt; &amp; go']);

    const rows = await until('three delivered records', async () => {
      const r = await deliveriesOf(t, integrationId);
      return r.length === 3 && r.every((d) => d.status === 'delivered') && r;
    });
    expect(rows.map((d) => d.event)).toEqual(['task.created', 'task.status_changed', 'task.comment_created']);
    for (const d of rows) {
      expect(d.attempts).toEqual([{ at: expect.any(String), statusCode: 200, durationMs: expect.any(Number), error: null }]);
      expect(d.delivered_at).not.toBeNull();
      expect(JSON.stringify(d)).not.toContain(token);
    }
  });

  it('teamchat: fallback text, blocks with title and body, the four fields and who triggered it', async () => {
    const { owner, project } = await board();
    const path = `/teamchat/services/${rand()}`;
    await addIntegration(t, owner.token, project.id, { type: 'teamchat', webhookUrl: `${receiver.url}${path}` });
    const task = await createTask(t, owner.token, project.id, { title: 'Use <!channel> & more', priority: 'high' });
    const [req] = await receiver.waitFor(path, 1);
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    const title = `[Apollo] #1 Use &lt;!channel&gt; &amp; more`;
    expect(req.json).toEqual({
      text: `${owner.user.name} created the task: ${title}`,
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: `*<${taskUrl(project.id, task.id)}|${title}>*\n${owner.user.name} created the task` } },
        {
          type: 'section',
          fields: [
            { type: 'mrkdwn', text: '*Task*\n#1 Use &lt;!channel&gt; &amp; more' },
            { type: 'mrkdwn', text: '*Project*\nApollo' },
            { type: 'mrkdwn', text: `*Status*\n${task.status}` },
            { type: 'mrkdwn', text: '*Priority*\nhigh' },
          ],
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: `Triggered by ${owner.user.name}` }] },
      ],
    });
  });

  it('communitychat: one embed, mentions neutralised in user text, allowed_mentions parse []', async () => {
    const { owner, project } = await board();
    const path = `/communitychat/webhooks/${rand()}`;
    await addIntegration(t, owner.token, project.id, { type: 'communitychat', webhookUrl: `${receiver.url}${path}`, events: { taskCommentCreated: true } });
    const task = await createTask(t, owner.token, project.id, { title: '@here release' });
    expect((await t.api.post(`/comment/${task.id}`, { content: 'hey @everyone and <@123> <@&456>' }, owner.token)).status).toBe(200);
    const [req] = await receiver.waitFor(path, 1);
    expect(req.json).toEqual({
      content: `${owner.user.name} commented: [Apollo] #1 @\u200bhere release`,
      embeds: [
        {
          title: '[Apollo] #1 @\u200bhere release',
          description: `${owner.user.name} commented\nhey @\u200beveryone and <@\u200b123> <@\u200b&456>`,
          url: taskUrl(project.id, task.id),
          color: expect.any(Number),
          fields: [
            { name: 'Status', value: task.status, inline: true },
            { name: 'Priority', value: task.priority, inline: true },
            { name: 'Project', value: 'Apollo', inline: true },
          ],
          footer: { text: `Triggered by ${owner.user.name}` },
        },
      ],
      allowed_mentions: { parse: [] },
    });
    expect(req.raw).not.toMatch(/@(everyone|here)|<@[!&]?\d+>/);
  });

  it('generic webhook: the JSON body, webhook-id = the delivery id, a timestamp of now and a signature that verifies', async () => {
    const { owner, workspaceId, project } = await board();
    const path = `/hooks/${rand()}`;
    const secret = `plain-secret-${rand()}`;
    const integrationId = await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${path}`, secret });
    const task = await createTask(t, owner.token, project.id, { title: 'Hooked' });
    expect((await t.api.put(`/task/priority/${task.id}`, { priority: 'urgent' }, owner.token)).status).toBe(200);
    const [created, changed] = await receiver.waitFor(path, 2);
    const rows = await until('two delivered records', async () => {
      const r = await deliveriesOf(t, integrationId);
      return r.length === 2 && r.every((d) => d.status === 'delivered') && r;
    });

    // Events are delivered independently: match each request to its record by webhook-id.
    const byId = new Map(rows.map((d) => [d.id, d]));
    for (const req of [created, changed]) {
      expect(req.method).toBe('POST');
      expect(req.headers['content-type']).toBe('application/json');
      expect(byId.has(req.headers['webhook-id'] as string)).toBe(true);
      expect(Math.abs(Number(req.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(req.headers['webhook-signature']).toBe(sign(Buffer.from(secret, 'utf8'), req));
    }
    const priority = [created, changed].find((r) => r.json.event === 'task.priority_changed')!;
    const record = byId.get(priority.headers['webhook-id'] as string)!;
    expect(priority.json).toEqual({
      event: 'task.priority_changed',
      timestamp: record.payload.occurredAt,
      project: { id: project.id, name: 'Apollo', workspaceId },
      task: { id: task.id, number: 1, title: 'Hooked', status: task.status, priority: 'urgent', url: taskUrl(project.id, task.id) },
      actor: { id: owner.user.id, name: owner.user.name },
      data: { oldPriority: task.priority, newPriority: 'urgent' },
    });
    expect([created, changed].map((r) => r.json.event).sort()).toEqual(['task.created', 'task.priority_changed']);
  });

  it('generic webhook without a secret sends no signature header', async () => {
    const { owner, project } = await board();
    const path = `/hooks/${rand()}`;
    await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${path}`, secret: null });
    await createTask(t, owner.token, project.id);
    const [req] = await receiver.waitFor(path, 1);
    expect(req.headers['webhook-id']).toEqual(expect.any(String));
    expect(req.headers['webhook-signature']).toBeUndefined();
  });
});

describe('which events go where', () => {
  it('only kinds whose flag is on, and nothing for an inactive integration', async () => {
    const { owner, project } = await board();
    const witnessPath = `/hooks/${rand()}`;
    const flaggedPath = `/hooks/${rand()}`;
    const inactivePath = `/hooks/${rand()}`;
    // The witness wants everything: once it has an event, that event's fan-out is done for every integration.
    const witness = await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${witnessPath}` });
    const flagged = await addIntegration(t, owner.token, project.id, {
      type: 'teamchat',
      webhookUrl: `${receiver.url}${flaggedPath}`,
      events: { taskCommentCreated: true, taskCreated: false, taskStatusChanged: false },
    });
    const inactive = await addIntegration(t, owner.token, project.id, { type: 'communitychat', webhookUrl: `${receiver.url}${inactivePath}`, isActive: false });

    const task = await createTask(t, owner.token, project.id);
    expect((await t.api.put(`/task/status/${task.id}`, { status: 'done' }, owner.token)).status).toBe(200);
    expect((await t.api.post(`/comment/${task.id}`, { content: 'flagged' }, owner.token)).status).toBe(200);
    await receiver.waitFor(witnessPath, 3);
    await until("the witness's deliveries recorded", async () => (await deliveriesOf(t, witness)).filter((d) => d.status === 'delivered').length === 3);

    expect((await deliveriesOf(t, flagged)).map((d) => d.event)).toEqual(['task.comment_created']);
    const [comment] = await receiver.waitFor(flaggedPath, 1);
    expect(comment.json.blocks[0].text.text).toContain('flagged');
    await until('the flagged delivery recorded', async () => (await deliveriesOf(t, flagged))[0].status === 'delivered');
    expect(receiver.to(flaggedPath)).toHaveLength(1);

    expect(await deliveriesOf(t, inactive)).toEqual([]);
    expect(receiver.to(inactivePath)).toEqual([]);
  });
});

describe('signing secrets', () => {
  it('a whsec_ secret signs with its base64-decoded key', async () => {
    const { owner, project } = await board();
    const path = `/hooks/${rand()}`;
    const key = Buffer.from(`key-bytes-${rand()}`);
    await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${path}`, secret: `whsec_${key.toString('base64')}` });
    await createTask(t, owner.token, project.id);
    const [req] = await receiver.waitFor(path, 1);
    expect(req.headers['webhook-signature']).toBe(sign(key, req));
  });

  it('within 24 h of a rotation both secrets sign, the new one first; after 24 h only the new one', async () => {
    const { owner, project } = await board();
    const path = `/hooks/${rand()}`;
    const key = Buffer.from(`new-key-${rand()}`);
    const old = `old-secret-${rand()}`;
    const integrationId = await addIntegration(t, owner.token, project.id, {
      type: 'generic-webhook',
      webhookUrl: `${receiver.url}${path}`,
      secret: `whsec_${key.toString('base64')}`,
      previousSecret: old,
    });
    // Replaced a while ago, still within the 24 hours.
    await sql(t.databaseUrl, `UPDATE integration SET secret_replaced_at = now() - interval '23 hours' WHERE id = $1`, [integrationId]);
    const task = await createTask(t, owner.token, project.id);
    const [first] = await receiver.waitFor(path, 1);
    expect(first.headers['webhook-signature']).toBe(`${sign(key, first)} ${sign(Buffer.from(old), first)}`);

    // The grace period ends.
    await sql(t.databaseUrl, `UPDATE integration SET secret_replaced_at = now() - interval '25 hours' WHERE id = $1`, [integrationId]);
    expect((await t.api.put(`/task/title/${task.id}`, { title: 'Renamed' }, owner.token)).status).toBe(200);
    const [, second] = await receiver.waitFor(path, 2);
    expect(second.json.event).toBe('task.title_changed');
    expect(second.headers['webhook-signature']).toBe(sign(key, second));
  });
});

describe('redelivery', () => {
  it('redeliver (API): the same body and webhook-id again, a second attempt recorded', async () => {
    const { owner, project } = await board();
    const path = `/hooks/${rand()}`;
    const integrationId = await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${path}`, secret: 's3cret-value' });
    await createTask(t, owner.token, project.id);
    const [first] = await receiver.waitFor(path, 1);
    const [delivered] = await until('the delivered record', async () => {
      const r = await deliveriesOf(t, integrationId);
      return r[0]?.status === 'delivered' && r;
    });

    // An admin asks for a redelivery: the row goes back to pending and a redeliver job is queued through the outbox.
    const res = await t.api.post(`/generic-webhook-integration/project/${project.id}/deliveries/${delivered.id}/redeliver`, {}, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: delivered.id, status: 'pending' });

    const [, again] = await receiver.waitFor(path, 2);
    expect(again.raw).toBe(first.raw);
    expect(again.headers['webhook-id']).toBe(delivered.id);
    expect(first.headers['webhook-id']).toBe(delivered.id);
    expect(again.headers['webhook-signature']).toBe(sign(Buffer.from('s3cret-value'), again));
    const after = await until('the second attempt recorded', async () => {
      const [r] = await deliveriesOf(t, integrationId);
      return r.status === 'delivered' && r.attempts.length === 2 && r;
    });
    expect(after.attempts.map((a) => a.statusCode)).toEqual([200, 200]);
  });
});
