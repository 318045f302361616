import { randomBytes, randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { channelsFor } from '../../../src/modules/notification-preferences/channel-rules';
import { PersonTargets } from '../../../src/modules/delivery/people/person-targets';
import { notificationText } from '../../../src/modules/delivery/people/notification-text';
import { PersonDeliveryRepository } from '../../../src/modules/delivery/people/person-delivery.repository';
import { QueueName } from '../../../src/queue/queues';
import { Auth } from '../../support/api';
import { startTestApp, TestApp } from '../../support/app';
import { addMember, sql } from '../../support/fixtures';
import { HttpReceiver } from '../../support/http-receiver';
import { TestSmtpServer } from '../../support/smtp';
import { until } from '../../support/until';
import { createTask, userWithRole } from '../../support/work-items';
import { enqueue, jobOfEvent, queueOf } from '../integrations/delivery-support';
import { notificationRows, notifiedTimes, saveRule, savePreferences, settled, taskFor, taskMails, team, userDeliveries, waitForTaskMails } from './notification-support';

/**
 * Which channels a notification uses (docs/notifications.md, "Which channels"), who hears of what,
 * proven by what the receivers got and did not get. A notification and its deliveries are written
 * in one statement, so once the in-app notification of an event exists, the deliveries it will
 * ever have exist too: nothing can arrive later for a channel that has no delivery.
 */
const receiver = new HttpReceiver();
const smtp = new TestSmtpServer();
let t: TestApp;
let taskEvents: Queue;

beforeAll(async () => {
  await receiver.start();
  const port = await smtp.start();
  t = await startTestApp({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), NOTIFICATION_BATCH_WINDOW_MS: '100' });
  taskEvents = queueOf(t, QueueName.TaskEvents);
});
afterAll(async () => {
  await taskEvents?.close();
  await t?.close();
  await receiver.stop();
  await smtp.stop();
});

type Channel = 'email' | 'topicpush' | 'serverpush' | 'webhook';

/** Every channel of the user configured, each to its own receiver path; `enabled` says which are on globally. */
async function configure(u: Auth, enabled: Channel[]) {
  const id = randomBytes(5).toString('hex');
  const paths = { topicpush: `/ntfy/t${id}`, serverpush: `/gotify${id}/message`, webhook: `/hook${id}` };
  await savePreferences(t, u.token, {
    emailEnabled: enabled.includes('email'),
    topicpushEnabled: enabled.includes('topicpush'),
    topicpushServerUrl: `${receiver.url}/ntfy`,
    topicpushTopic: `t${id}`,
    serverpushEnabled: enabled.includes('serverpush'),
    serverpushServerUrl: `${receiver.url}/gotify${id}`,
    serverpushToken: `token-${id}`,
    webhookEnabled: enabled.includes('webhook'),
    webhookUrl: `${receiver.url}/hook${id}`,
  });
  /** How many messages each channel of this user received. */
  const received = (): Record<Channel, number> => ({
    email: taskMails(smtp, u.user.email).length,
    topicpush: receiver.to(paths.topicpush).length,
    serverpush: receiver.to(paths.serverpush).length,
    webhook: receiver.to(paths.webhook).length,
  });
  return { paths, received };
}

/** Every committed task event has been relayed from the outbox and its fan-out job has finished. */
const drained = () =>
  until('every task event fanned out', async () => {
    const [{ n }] = await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM outbox`);
    const c = await taskEvents.getJobCounts('wait', 'active', 'delayed', 'prioritized', 'waiting-children');
    return n === 0 && Object.values(c).every((v) => v === 0);
  });

/** The channels the user's deliveries of one event went to, once they are all settled. */
async function deliveredChannels(userId: string, eventCount: number): Promise<string[]> {
  const rows = await until('settled deliveries', async () => {
    const r = await userDeliveries(t, userId);
    return r.every((d) => d.status !== 'pending') && r;
  });
  expect(new Set(rows.map((r) => r.event_id)).size).toBeLessThanOrEqual(eventCount);
  return rows
    .filter((r) => r.status === 'delivered')
    .map((r) => r.target_type)
    .sort();
}

describe('global preferences and workspace rules', () => {
  it('global off: the in-app notification only, nothing on any channel', async () => {
    const { owner, bob, project } = await team(t);
    const { received } = await configure(bob, []);
    await taskFor(t, owner, project.id, bob);
    await notifiedTimes(t, bob.user.id, 1);
    expect(await userDeliveries(t, bob.user.id)).toEqual([]);
    expect(received()).toEqual({ email: 0, topicpush: 0, serverpush: 0, webhook: 0 });
  });

  it('global on, no rule: every channel on and configured receives it; one enabled but not configured does not', async () => {
    const { owner, bob, project } = await team(t);
    const { paths, received } = await configure(bob, ['email', 'topicpush', 'serverpush', 'webhook']);
    await savePreferences(t, bob.token, { serverpushToken: null });
    await taskFor(t, owner, project.id, bob);
    await notifiedTimes(t, bob.user.id, 1);
    expect(await deliveredChannels(bob.user.id, 1)).toEqual(['email', 'topicpush', 'webhook']);
    await receiver.waitFor(paths.webhook, 1);
    await receiver.waitFor(paths.topicpush, 1);
    await waitForTaskMails(smtp, bob.user.email, 1);
    expect(received()).toEqual({ email: 1, topicpush: 1, serverpush: 0, webhook: 1 });
  });

  it('a rule that is inactive mutes the workspace; another workspace of the same user is not muted', async () => {
    const { owner, bob, workspaceId, project } = await team(t);
    const { paths, received } = await configure(bob, ['webhook']);
    await saveRule(t, bob.token, workspaceId, { isActive: false });
    await taskFor(t, owner, project.id, bob);
    await notifiedTimes(t, bob.user.id, 1);
    expect(await userDeliveries(t, bob.user.id)).toEqual([]);

    // Bob in a second workspace, without a rule there: the same preferences deliver.
    const second = await team(t, 'Gemini');
    await addMember(t.databaseUrl, second.workspaceId, bob.user.id, 'member');
    await taskFor(t, second.owner, second.project.id, bob);
    await receiver.waitFor(paths.webhook, 1);
    await notifiedTimes(t, bob.user.id, 2);
    expect(received()).toEqual({ email: 0, topicpush: 0, serverpush: 0, webhook: 1 });
    expect(receiver.to(paths.webhook)[0].json.project.name).toBe('Gemini');
  });

  it('a rule with a channel off: that channel receives nothing, the others do', async () => {
    const { owner, bob, workspaceId, project } = await team(t);
    const { paths, received } = await configure(bob, ['topicpush', 'webhook']);
    await saveRule(t, bob.token, workspaceId, { topicpushEnabled: false });
    await taskFor(t, owner, project.id, bob);
    await receiver.waitFor(paths.webhook, 1);
    expect(await deliveredChannels(bob.user.id, 1)).toEqual(['webhook']);
    expect(received()).toEqual({ email: 0, topicpush: 0, serverpush: 0, webhook: 1 });
  });

  it('selected projects: an event of a selected project is delivered, one of another project is not', async () => {
    const { owner, bob, workspaceId, project, other } = await team(t);
    const { paths, received } = await configure(bob, ['webhook', 'serverpush']);
    await saveRule(t, bob.token, workspaceId, { selectedProjectIds: [project.id] });
    const outside = await taskFor(t, owner, other.id, bob, { title: 'Outside' });
    await notifiedTimes(t, bob.user.id, 1);
    const inside = await taskFor(t, owner, project.id, bob, { title: 'Inside' });
    await receiver.waitFor(paths.webhook, 1);
    await receiver.waitFor(paths.serverpush, 1);
    await notifiedTimes(t, bob.user.id, 2);
    expect(received()).toEqual({ email: 0, topicpush: 0, serverpush: 1, webhook: 1 });
    expect(receiver.to(paths.webhook)[0].json.task.id).toBe(inside.id);
    const rows = await userDeliveries(t, bob.user.id);
    expect(rows.map((r) => r.payload.task.id)).toEqual([inside.id, inside.id]);
    expect(rows.some((r) => r.payload.task.id === outside.id)).toBe(false);
    // Both events are in the in-app list: rules choose channels, not what is listed.
    expect((await notificationRows(t, bob.user.id)).map((n: any) => n.task_id).sort()).toEqual([inside.id, outside.id].sort());
  });
});

describe('who hears of what', () => {
  it('the actor never notifies themself', async () => {
    const { owner, bob, project } = await team(t);
    const { paths } = await configure(bob, ['webhook']);
    const task = await taskFor(t, owner, project.id, bob);
    await receiver.waitFor(paths.webhook, 1);
    // Bob changes the status of his own task, comments on it and logs time on it: nothing for him.
    expect((await t.api.put(`/task/status/${task.id}`, { status: 'done' }, bob.token)).status).toBe(200);
    expect((await t.api.post(`/comment/${task.id}`, { content: 'note to self' }, bob.token)).status).toBe(200);
    expect((await t.api.post('/time-entry', { taskId: task.id, startTime: '2030-01-01T09:00:00Z', endTime: '2030-01-01T10:00:00Z' }, bob.token)).status).toBe(200);
    // The owner creates a task for himself, then assigns himself another: nothing for him either.
    await taskFor(t, owner, project.id, owner);
    const other = await createTask(t, owner.token, project.id);
    expect((await t.api.put(`/task/assignee/${other.id}`, { userId: owner.user.id }, owner.token)).status).toBe(200);
    await drained();
    expect((await notificationRows(t, bob.user.id)).map((n: any) => n.type)).toEqual(['task.created']);
    // The owner created Bob's task, so he watches it: he hears of Bob's three changes, of none of his own.
    const owners = await notificationRows(t, owner.user.id);
    expect(owners.map((n: any) => n.type).sort()).toEqual(['task.comment_created', 'task.status_changed', 'task.time_entry_created']);
    expect(owners.every((n: any) => n.actor_id === bob.user.id && n.task_id === task.id)).toBe(true);
    expect(receiver.to(paths.webhook)).toHaveLength(1);

    // The owner's comment on Bob's task: Bob hears of that one.
    expect((await t.api.post(`/comment/${task.id}`, { content: 'from the owner' }, owner.token)).status).toBe(200);
    const [, hook] = await receiver.waitFor(paths.webhook, 2);
    expect(hook.json).toMatchObject({ event: 'task.comment_created', actor: { id: owner.user.id }, data: { content: 'from the owner' } });
  });

  it('unassigning notifies nobody; reassigning notifies the new assignee only', async () => {
    const { owner, bob, workspaceId, project } = await team(t);
    const carol = await userWithRole(t, workspaceId, 'member');
    const task = await taskFor(t, owner, project.id, bob);
    expect((await t.api.put(`/task/assignee/${task.id}`, { userId: null }, owner.token)).status).toBe(200);
    expect((await t.api.put(`/task/assignee/${task.id}`, { userId: carol.user.id }, owner.token)).status).toBe(200);
    await notifiedTimes(t, carol.user.id, 1);
    await drained();
    expect((await notificationRows(t, bob.user.id)).map((n: any) => n.type)).toEqual(['task.created']);
    expect((await notificationRows(t, carol.user.id)).map((n: any) => n.type)).toEqual(['task.assigned']);
  });

  it('a user removed from the workspace stops receiving its events, and no longer sees its notifications', async () => {
    const { owner, bob, workspaceId, project } = await team(t);
    const { paths } = await configure(bob, ['webhook']);
    const task = await taskFor(t, owner, project.id, bob);
    await receiver.waitFor(paths.webhook, 1);
    expect((await t.api.get('/notification', bob.token)).body).toHaveLength(1);

    const members = (await t.api.get(`/auth/organization/list-members?organizationId=${workspaceId}`, owner.token)).body;
    const m = members.find((x: any) => x.userId === bob.user.id);
    expect((await t.api.post('/auth/organization/remove-member', { memberIdOrEmail: m.id, organizationId: workspaceId }, owner.token)).status).toBe(200);

    const status = await t.api.put(`/task/status/${task.id}`, { status: 'done' }, owner.token);
    expect(status.status).toBe(200);
    const [event] = await sql(t.databaseUrl, `SELECT id FROM activity WHERE task_id = $1 AND type = 'status_changed'`, [task.id]);
    await until('the status change fanned out', async () => (await (await jobOfEvent(taskEvents, event.id))?.getState()) === 'completed');
    expect((await notificationRows(t, bob.user.id)).map((n: any) => n.type)).toEqual(['task.created']);
    expect((await userDeliveries(t, bob.user.id)).map((d) => d.event)).toEqual(['task.created']);
    expect(receiver.to(paths.webhook)).toHaveLength(1);
    expect((await t.api.get('/notification', bob.token)).body).toEqual([]);
    expect((await t.api.get('/notification/unread-count', bob.token)).body).toEqual({ count: 0 });
  });
});

describe('the fan-out is idempotent', () => {
  it('a re-run (the event again, the users part again) writes no second notification or delivery and sends nothing twice', async () => {
    const { owner, bob, project } = await team(t);
    const { paths } = await configure(bob, ['webhook', 'topicpush']);
    await taskFor(t, owner, project.id, bob);
    await receiver.waitFor(paths.webhook, 1);
    const [first] = await settled(t, bob.user.id, 'topicpush', 1);
    const event = first.payload;

    await enqueue(t, { queue: QueueName.TaskEvents, name: event.kind, payload: event, id: `again-${randomUUID()}` });
    // The fan-out of the users' part again: nothing new is written; the pending deliveries are queued again (their jobs already exist).
    expect(await t.running.app.get(PersonTargets).fanOut([event])).toBe(0);
    await drained();
    expect(await notificationRows(t, bob.user.id)).toHaveLength(1);
    expect((await userDeliveries(t, bob.user.id)).map((d) => d.target_type).sort()).toEqual(['topicpush', 'webhook']);
    expect(receiver.to(paths.webhook)).toHaveLength(1);
    expect(receiver.to(paths.topicpush)).toHaveLength(1);
  });

  it('a run that wrote its rows and stopped before queueing: the next run queues what is pending, each delivery once', async () => {
    const { owner, bob, project } = await team(t);
    const { paths } = await configure(bob, ['webhook']);
    await taskFor(t, owner, project.id, bob);
    await receiver.waitFor(paths.webhook, 1);
    const [created] = await userDeliveries(t, bob.user.id);
    // A comment event as the write path would snapshot it, written by a first run that then stopped.
    const event = {
      ...created.payload,
      id: randomUUID(),
      kind: 'taskCommentCreated',
      occurredAt: new Date().toISOString(),
      data: { commentId: randomUUID(), content: 'half-way' },
    };
    const [global] = await sql(t.databaseUrl, `SELECT * FROM notification_preference WHERE user_id = $1`, [bob.user.id]);
    await t.running.app
      .get(PersonDeliveryRepository)
      .fanOutMany(event, [{ userId: bob.user.id, text: notificationText(event, 'http://x'), channels: channelsFor(global, undefined, project.id) }]);
    const pending = await sql(t.databaseUrl, `SELECT id, target_type FROM delivery WHERE event_id = $1 AND target_id = $2`, [event.id, bob.user.id]);
    expect(pending.map((d) => d.target_type)).toEqual(['webhook']);
    expect(receiver.to(paths.webhook)).toHaveLength(1);

    await enqueue(t, { queue: QueueName.TaskEvents, name: event.kind, payload: event, id: event.id });
    const [, again] = await receiver.waitFor(paths.webhook, 2);
    expect(again.headers['webhook-id']).toBe(pending[0].id);
    expect(again.json.data).toEqual({ commentId: event.data.commentId, content: 'half-way' });
    await drained();
    expect(await notificationRows(t, bob.user.id)).toHaveLength(2);
    expect(receiver.to(paths.webhook)).toHaveLength(2);
  });
});
