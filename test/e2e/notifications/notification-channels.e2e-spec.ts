import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { HttpReceiver } from '../../support/http-receiver';
import { TestSmtpServer } from '../../support/smtp';
import { until } from '../../support/until';
import { createTask, userWithRole } from '../../support/work-items';
import { addIntegration, deliveriesOf } from '../integrations/delivery-support';
import { notifiedTimes, savePreferences, settled, signers, taskFor, team, userDeliveries, verifies, waitForTaskMails } from './notification-support';

/**
 * Each of a user's channels receives its format (docs/notifications.md, "What each channel
 * receives"): real HTTP receivers and a real SMTP server on loopback. The burst window is short
 * here: every message is about one event.
 */
const CLIENT_URL = 'https://client.example.test';
const receiver = new HttpReceiver();
const smtp = new TestSmtpServer();
let t: TestApp;

beforeAll(async () => {
  await receiver.start();
  const port = await smtp.start();
  t = await startTestApp({ CLIENT_URL, SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), SMTP_FROM: 'Tandem <tandem@example.test>', NOTIFICATION_BATCH_WINDOW_MS: '150' });
});
afterAll(async () => {
  await t?.close();
  await receiver.stop();
  await smtp.stop();
});

const rand = () => randomBytes(5).toString('hex');
const taskUrl = (projectId: string, taskId: string) => `${CLIENT_URL}/projects/${projectId}/tasks/${taskId}`;

/** Every channel of `token`'s user on, each to a path of its own on the receiver. */
async function allChannels(token: string, secret = `whsec_${randomBytes(24).toString('base64')}`) {
  const topic = `tandem-${rand()}`;
  const gotify = `/gotify-${rand()}`;
  const hook = `/hook-${rand()}`;
  const topicToken = `tk_${rand()}${rand()}`;
  const gotifyToken = `A${rand()}${rand()}`;
  await savePreferences(t, token, {
    emailEnabled: true,
    topicpushEnabled: true,
    topicpushServerUrl: `${receiver.url}/ntfy`,
    topicpushTopic: topic,
    topicpushToken: topicToken,
    serverpushEnabled: true,
    serverpushServerUrl: `${receiver.url}${gotify}`,
    serverpushToken: gotifyToken,
    webhookEnabled: true,
    webhookUrl: `${receiver.url}${hook}`,
    webhookSecret: secret,
  });
  return { topicPath: `/ntfy/${topic}`, topicToken, gotifyPath: `${gotify}/message`, gotifyToken, hook, secret };
}

describe('each channel receives its format for an assignment', () => {
  it('email, topicpush, serverpush and webhook, with the exact headers and a signature that verifies; records delivered; an in-app notification', async () => {
    const { owner, bob, workspaceId, project } = await team(t);
    const ch = await allChannels(bob.token);
    // The project also has a generic webhook that wants every event: it must never get the assignment.
    const projectHook = `/project-hook-${rand()}`;
    const integrationId = await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${projectHook}` });

    const task = await createTask(t, owner.token, project.id, { title: 'Launch <v2>' });
    const assigned = await t.api.put(`/task/assignee/${task.id}`, { userId: bob.user.id }, owner.token);
    expect(assigned.status).toBe(200);
    const title = `${owner.user.name} assigned a task to you`;
    const heading = '[Apollo] #1 Launch <v2>';
    const url = taskUrl(project.id, task.id);

    // topicpush: POST {server}/{topic}, Title, Click, Authorization: Bearer, the message as text.
    const [push] = await receiver.waitFor(ch.topicPath, 1);
    expect(push.method).toBe('POST');
    expect(push.headers).toMatchObject({ title, click: url, authorization: `Bearer ${ch.topicToken}`, 'content-type': 'text/plain; charset=utf-8' });
    expect(push.raw).toBe(heading);

    // serverpush: POST {server}/message?token=…, {title, message, priority: 5}.
    const [gotify] = await receiver.waitFor(ch.gotifyPath, 1);
    expect(gotify.method).toBe('POST');
    expect(gotify.url).toBe(`${ch.gotifyPath}?token=${ch.gotifyToken}`);
    expect(gotify.headers['content-type']).toBe('application/json');
    expect(gotify.json).toEqual({ title, message: `${heading}\n${url}`, priority: 5 });

    // webhook: the generic webhook body, Standard Webhooks headers, a signature that verifies.
    const [hook] = await receiver.waitFor(ch.hook, 1);
    const [assignedRecord] = await until('the webhook delivery recorded', async () => {
      const rows = await userDeliveries(t, bob.user.id, 'webhook');
      return rows.length === 1 && rows[0].status === 'delivered' && rows;
    });
    expect(hook.headers['content-type']).toBe('application/json');
    expect(hook.headers['webhook-id']).toBe(assignedRecord.id);
    expect(Math.abs(Number(hook.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(verifies(ch.secret, hook)).toBe(true);
    expect(verifies(`whsec_${randomBytes(24).toString('base64')}`, hook)).toBe(false);
    // …and with the Standard Webhooks reference library.
    expect(() => new Webhook(ch.secret).verify(hook.raw, hook.headers as Record<string, string>)).not.toThrow();
    expect(hook.json).toEqual({
      event: 'task.assigned',
      timestamp: assignedRecord.payload.occurredAt,
      project: { id: project.id, name: 'Apollo', workspaceId },
      task: { id: task.id, number: 1, title: 'Launch <v2>', status: task.status, priority: task.priority, url },
      actor: { id: owner.user.id, name: owner.user.name },
      data: { oldUserId: null, newUserId: bob.user.id, oldUserName: null, newUserName: bob.user.name },
    });

    // email: to the user's address, text and HTML, the task link, the preferences link in the footer.
    const [mail] = await waitForTaskMails(smtp, bob.user.email, 1);
    expect(mail.envelope.to).toEqual([bob.user.email]);
    expect(mail.parsed.subject).toBe(`${heading}: ${title}`);
    expect(mail.parsed.text).toContain(`${title}.`);
    expect(mail.parsed.text).toContain(heading);
    expect(mail.parsed.text).toContain(`Open the task: ${url}`);
    expect(mail.parsed.text).toContain(`${CLIENT_URL}/settings/notifications`);
    expect(mail.parsed.html).toContain(`<a href="${url}">Open the task</a>`);
    expect(mail.parsed.html).toContain(`<a href="${CLIENT_URL}/settings/notifications">`);
    expect(mail.parsed.html).toContain('[Apollo] #1 Launch &lt;v2&gt;');

    // One delivery per channel, each delivered on its first attempt.
    for (const channel of ['email', 'topicpush', 'serverpush', 'webhook']) {
      const [d] = await settled(t, bob.user.id, channel, 1);
      expect([channel, d.event, d.status, d.attempts]).toEqual([
        channel,
        'task.assigned',
        'delivered',
        [{ at: expect.any(String), statusCode: channel === 'email' ? 250 : 200, durationMs: expect.any(Number), error: null }],
      ]);
    }

    // The in-app notification.
    const list = await t.api.get('/notification', bob.token);
    expect(list.body).toEqual([
      {
        id: expect.any(String),
        type: 'task.assigned',
        title,
        content: heading,
        isRead: false,
        taskId: task.id,
        projectId: project.id,
        workspaceId,
        actor: { id: owner.user.id, name: owner.user.name },
        createdAt: assignedRecord.payload.occurredAt,
      },
    ]);

    // The project integration got the task's creation, never the assignment.
    await until('the project hook got the creation', async () => (await deliveriesOf(t, integrationId)).some((d) => d.status === 'delivered'));
    expect((await deliveriesOf(t, integrationId)).map((d) => d.event)).toEqual(['task.created']);
    expect(receiver.to(projectHook).map((r) => r.json.event)).toEqual(['task.created']);
    // The owner made every change: nothing for them.
    expect(await sql(t.databaseUrl, `SELECT 1 FROM notification WHERE user_id = $1`, [owner.user.id])).toEqual([]);
  });

  it('each kind the assignee hears of, in the webhook body and the in-app list', async () => {
    const { owner, bob, project } = await team(t);
    const ch = await allChannels(bob.token, 'plain-secret-value');
    const task = await taskFor(t, owner, project.id, bob);
    expect((await t.api.put(`/task/status/${task.id}`, { status: 'done' }, owner.token)).status).toBe(200);
    expect((await t.api.post(`/comment/${task.id}`, { content: 'Ship it' }, owner.token)).status).toBe(200);
    const entry = await t.api.post('/time-entry', { taskId: task.id, startTime: '2030-01-02T09:00:00Z', endTime: '2030-01-02T10:30:00Z', description: 'Pairing' }, owner.token);
    expect(entry.status).toBe(200);
    // Changes that notify nobody: title, priority, description.
    expect((await t.api.put(`/task/${task.id}`, { title: 'Renamed', priority: 'low', description: 'More' }, owner.token)).status).toBe(200);

    const hooks = await receiver.waitFor(ch.hook, 4);
    const events = hooks.map((r) => r.json.event).sort();
    expect(events).toEqual(['task.comment_created', 'task.created', 'task.status_changed', 'task.time_entry_created']);
    for (const r of hooks) expect(verifies('plain-secret-value', r)).toBe(true);
    const time = hooks.find((r) => r.json.event === 'task.time_entry_created')!;
    expect(time.json.data).toEqual({
      timeEntryId: entry.body.id,
      startTime: '2030-01-02T09:00:00.000Z',
      endTime: '2030-01-02T10:30:00.000Z',
      duration: 5400,
      description: 'Pairing',
    });
    expect(time.json.actor).toEqual({ id: owner.user.id, name: owner.user.name });

    const rows = await notifiedTimes(t, bob.user.id, 4);
    const list = (await t.api.get('/notification', bob.token)).body;
    expect(list.map((n: any) => [n.type, n.title])).toEqual(
      expect.arrayContaining([
        ['task.created', `${owner.user.name} created a task for you`],
        ['task.status_changed', `${owner.user.name} changed the status of your task`],
        ['task.comment_created', `${owner.user.name} commented on your task`],
        ['task.time_entry_created', `${owner.user.name} logged time on your task`],
      ]),
    );
    expect(list).toHaveLength(4);
    expect(list.find((n: any) => n.type === 'task.time_entry_created').content).toBe('[Apollo] #1 Launch\nTime: 1 h 30 min from 2030-01-02 09:00 UTC\nPairing');
    expect(rows.map((r: any) => r.event_id)).toContain(entry.body.id);
  });

  it('the user webhook signs with the old secret too for 24 h after it was replaced, the new one first; then with the new one only', async () => {
    const { owner, bob, project } = await team(t);
    const ch = await allChannels(bob.token, 'old-secret-value');
    await savePreferences(t, bob.token, { emailEnabled: false, topicpushEnabled: false, serverpushEnabled: false, webhookSecret: 'new-secret-value' });
    const task = await taskFor(t, owner, project.id, bob);
    const [first] = await receiver.waitFor(ch.hook, 1);
    expect(signers(first, { old: 'old-secret-value', new: 'new-secret-value' })).toEqual(['new', 'old']);

    await sql(t.databaseUrl, `UPDATE notification_preference SET webhook_secret_replaced_at = now() - interval '25 hours' WHERE user_id = $1`, [bob.user.id]);
    expect((await t.api.put(`/task/status/${task.id}`, { status: 'done' }, owner.token)).status).toBe(200);
    const [, second] = await receiver.waitFor(ch.hook, 2);
    expect(signers(second, { old: 'old-secret-value', new: 'new-secret-value' })).toEqual(['new']);

    // Removing the secret stops signing at once.
    await savePreferences(t, bob.token, { webhookSecret: null });
    expect((await t.api.post(`/comment/${task.id}`, { content: 'unsigned' }, owner.token)).status).toBe(200);
    const [, , third] = await receiver.waitFor(ch.hook, 3);
    expect(third.headers['webhook-id']).toEqual(expect.any(String));
    expect(third.headers['webhook-signature']).toBeUndefined();
  });
});

describe('in-app notifications', () => {
  it('newest first, paged with before, an unread count; marked read one by one or all at once; nobody else sees them', async () => {
    const { owner, bob, project } = await team(t);
    const task = await taskFor(t, owner, project.id, bob);
    for (const content of ['one', 'two', 'three']) expect((await t.api.post(`/comment/${task.id}`, { content }, owner.token)).status).toBe(200);
    await notifiedTimes(t, bob.user.id, 4);

    const all = (await t.api.get('/notification', bob.token)).body;
    expect(all.map((n: any) => n.content.split('\n')[1] ?? 'created')).toEqual(['three', 'two', 'one', 'created']);
    expect((await t.api.get('/notification/unread-count', bob.token)).body).toEqual({ count: 4 });
    const page1 = (await t.api.get('/notification?limit=2', bob.token)).body;
    const page2 = (await t.api.get(`/notification?limit=2&before=${page1[1].id}`, bob.token)).body;
    expect([...page1, ...page2]).toEqual(all);
    expect((await t.api.get(`/notification?before=${page2[1].id}`, bob.token)).body).toEqual([]);

    const read = await t.api.patch(`/notification/${all[1].id}/read`, {}, bob.token);
    expect(read.body).toEqual({ ...all[1], isRead: true });
    expect((await t.api.get('/notification/unread-count', bob.token)).body).toEqual({ count: 3 });

    // Someone else's notification does not exist for the caller.
    expect(await t.api.patch(`/notification/${all[0].id}/read`, {}, owner.token)).toMatchObject({ status: 404, body: { message: 'Notification not found' } });
    expect(await t.api.get(`/notification?before=${all[0].id}`, owner.token)).toMatchObject({ status: 404, body: { message: 'Notification not found' } });
    expect(await t.api.patch('/notification/nope/read', {}, bob.token)).toMatchObject({ status: 404, body: { message: 'Notification not found' } });
    expect(await t.api.get('/notification?limit=0', bob.token)).toMatchObject({ status: 400, body: { message: 'limit must be an integer from 1 to 100' } });
    expect((await t.api.get('/notification', owner.token)).body).toEqual([]);

    expect((await t.api.patch('/notification/read-all', {}, bob.token)).body).toEqual({ success: true });
    expect((await t.api.get('/notification/unread-count', bob.token)).body).toEqual({ count: 0 });
    expect((await t.api.get('/notification', bob.token)).body.every((n: any) => n.isRead)).toBe(true);
  });

  it("clear-all deletes every one of the caller's notifications, and nobody else's", async () => {
    const { owner, bob, workspaceId, project } = await team(t);
    const carol = await userWithRole(t, workspaceId, 'member');
    await taskFor(t, owner, project.id, bob);
    await taskFor(t, owner, project.id, carol);
    await taskFor(t, owner, project.id, bob);
    await notifiedTimes(t, bob.user.id, 2);
    await notifiedTimes(t, carol.user.id, 1);

    expect(await t.api.delete('/notification/clear-all', bob.token)).toMatchObject({ status: 200, body: { success: true } });
    expect((await t.api.get('/notification', bob.token)).body).toEqual([]);
    expect((await t.api.get('/notification/unread-count', bob.token)).body).toEqual({ count: 0 });
    expect(await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM notification WHERE user_id = $1`, [bob.user.id])).toEqual([{ n: 0 }]);
    expect((await t.api.get('/notification', carol.token)).body).toHaveLength(1);
    // Nothing to clear is no error.
    expect(await t.api.delete('/notification/clear-all', bob.token)).toMatchObject({ status: 200, body: { success: true } });
    expect((await t.api.delete('/notification/clear-all')).status).toBe(401);
  });
});
