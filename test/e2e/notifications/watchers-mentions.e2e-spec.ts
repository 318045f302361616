import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { QueueName } from '../../../src/queue/queues';
import { Auth } from '../../support/api';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { HttpReceiver } from '../../support/http-receiver';
import { until } from '../../support/until';
import { createProject, createTask, ownerWithWorkspace, userWithRole } from '../../support/work-items';
import { queueOf } from '../integrations/delivery-support';
import { notificationRows, notifiedTimes, savePreferences } from './notification-support';

/**
 * Watchers and mentions (docs/notifications.md, "Watchers", "Mentions"): who watches a task and
 * why, watching and unwatching (which sticks), watchers hearing of changes as the assignee does,
 * and a mention notifying a member once per text, never a non-member.
 */
const receiver = new HttpReceiver();
let t: TestApp;
let taskEvents: Queue;

beforeAll(async () => {
  await receiver.start();
  t = await startTestApp({ NOTIFICATION_BATCH_WINDOW_MS: '0' });
  taskEvents = queueOf(t, QueueName.TaskEvents);
});
afterAll(async () => {
  await taskEvents?.close();
  await t?.close();
  await receiver.stop();
});

/** Every committed task event relayed and fanned out. */
const drained = () =>
  until('every task event fanned out', async () => {
    const [{ n }] = await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM outbox`);
    const c = await taskEvents.getJobCounts('wait', 'active', 'delayed', 'prioritized', 'waiting-children');
    return n === 0 && Object.values(c).every((v) => v === 0);
  });

/** owner creates tasks assigned to bob; carol and dave are members too; eve is in another workspace. */
async function team() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const [bob, carol, dave] = [await userWithRole(t, workspaceId, 'member'), await userWithRole(t, workspaceId, 'member'), await userWithRole(t, workspaceId, 'member')];
  const elsewhere = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId, { name: 'Apollo' });
  return { owner, bob, carol, dave, eve: elsewhere.owner, workspaceId, project };
}

const mention = (u: Auth) => `<mention id="${u.user.id}">${u.user.name}</mention>`;
const watchers = async (taskId: string, as: Auth) => {
  const res = await t.api.get(`/task/${taskId}/watchers`, as.token);
  expect(res.status).toBe(200);
  return res.body as { watching: boolean; watchers: { userId: string; name: string; reasons: string[] }[] };
};
const reasonsOf = (w: Awaited<ReturnType<typeof watchers>>) => Object.fromEntries(w.watchers.map((x) => [x.userId, x.reasons]));
const types = async (u: Auth) => (await notificationRows(t, u.user.id)).map((n: any) => n.type);

describe('watchers', () => {
  it('the creator and the assignee watch; watching and unwatching are the caller’s own, and unwatching sticks', async () => {
    const { owner, bob, carol, eve, project } = await team();
    const task = await createTask(t, owner.token, project.id, { title: 'Launch', userId: bob.user.id });
    const first = await watchers(task.id, owner);
    expect(first.watching).toBe(true);
    expect(reasonsOf(first)).toEqual({ [owner.user.id]: ['creator'], [bob.user.id]: ['assignee'] });
    expect(first.watchers.find((w) => w.userId === bob.user.id)).toMatchObject({ name: bob.user.name });
    expect((await watchers(task.id, carol)).watching).toBe(false);

    const watched = await t.api.post(`/task/${task.id}/watch`, {}, carol.token);
    expect(watched.status).toBe(200);
    expect(watched.body.watching).toBe(true);
    expect(reasonsOf(watched.body)[carol.user.id]).toEqual(['watching']);

    // The owner unwatches; a comment of his afterwards does not make him watch again.
    const unwatched = await t.api.delete(`/task/${task.id}/watch`, owner.token);
    expect(unwatched.status).toBe(200);
    expect(unwatched.body.watching).toBe(false);
    expect((await t.api.post(`/comment/${task.id}`, { content: 'still here' }, owner.token)).status).toBe(200);
    // Bob's comment adds a reason of his own.
    expect((await t.api.post(`/comment/${task.id}`, { content: 'on it' }, bob.token)).status).toBe(200);
    const now = await watchers(task.id, owner);
    expect(now.watching).toBe(false);
    expect(reasonsOf(now)).toEqual({ [bob.user.id]: ['assignee', 'commenter'], [carol.user.id]: ['watching'] });
    // Watching again is the way back.
    expect((await t.api.post(`/task/${task.id}/watch`, {}, owner.token)).body.watching).toBe(true);

    // Another workspace's user, an unknown task, an id that is no uuid: 404, nothing written.
    for (const [path, who] of [
      [`/task/${task.id}/watchers`, eve],
      [`/task/${task.id}/watch`, eve],
      [`/task/${randomUUID()}/watch`, carol],
      ['/task/nope/watch', carol],
    ] as const) {
      const res = path.endsWith('watchers') ? await t.api.get(path, who.token) : await t.api.post(path, {}, who.token);
      expect([path, res.status, res.body.message]).toEqual([path, 404, 'Task not found']);
    }
    expect(await sql(t.databaseUrl, `SELECT 1 FROM task_watcher WHERE user_id = $1`, [eve.user.id])).toEqual([]);
    expect((await t.api.get(`/task/${task.id}/watchers`)).status).toBe(401);
  });

  it('watchers hear of status changes, comments and time logged by others, as a task they watch; never of their own; not after unwatching', async () => {
    const { owner, bob, carol, dave, project } = await team();
    const task = await createTask(t, owner.token, project.id, { title: 'Launch', userId: bob.user.id });
    await t.api.post(`/task/${task.id}/watch`, {}, carol.token);
    expect((await t.api.put(`/task/status/${task.id}`, { status: 'done' }, dave.token)).status).toBe(200);
    const [carolsFirst] = await notifiedTimes(t, carol.user.id, 1);
    expect(carolsFirst).toMatchObject({ type: 'task.status_changed', title: `${dave.user.name} changed the status of a task you watch`, actor_id: dave.user.id });
    await notifiedTimes(t, owner.user.id, 1);
    const bobs = await notifiedTimes(t, bob.user.id, 2);
    expect(bobs[1]).toMatchObject({ type: 'task.status_changed', title: `${dave.user.name} changed the status of your task` });

    // Carol's own comment tells Bob and the owner, not her.
    expect((await t.api.post(`/comment/${task.id}`, { content: 'done indeed' }, carol.token)).status).toBe(200);
    await notifiedTimes(t, bob.user.id, 3);
    await notifiedTimes(t, owner.user.id, 2);
    await drained();
    expect(await types(carol)).toEqual(['task.status_changed']);

    // Carol unwatches: Dave's time entry reaches the others only. Dave, who commented nowhere, hears of nothing.
    await t.api.delete(`/task/${task.id}/watch`, carol.token);
    expect((await t.api.post('/time-entry', { taskId: task.id, startTime: '2030-01-01T09:00:00Z', endTime: '2030-01-01T10:00:00Z' }, dave.token)).status).toBe(200);
    await notifiedTimes(t, bob.user.id, 4);
    await notifiedTimes(t, owner.user.id, 3);
    await drained();
    expect(await types(carol)).toEqual(['task.status_changed']);
    expect(await types(dave)).toEqual([]);
    expect(await types(owner)).toEqual(['task.status_changed', 'task.comment_created', 'task.time_entry_created']);
  });

  it('an assignee who unwatched still hears of being assigned again, not of status changes', async () => {
    const { owner, bob, project } = await team();
    const task = await createTask(t, owner.token, project.id, { title: 'Launch', userId: bob.user.id });
    await notifiedTimes(t, bob.user.id, 1);
    await t.api.delete(`/task/${task.id}/watch`, bob.token);
    expect((await t.api.put(`/task/status/${task.id}`, { status: 'done' }, owner.token)).status).toBe(200);
    expect((await t.api.put(`/task/assignee/${task.id}`, { userId: null }, owner.token)).status).toBe(200);
    expect((await t.api.put(`/task/assignee/${task.id}`, { userId: bob.user.id }, owner.token)).status).toBe(200);
    await notifiedTimes(t, bob.user.id, 2);
    await drained();
    expect(await types(bob)).toEqual(['task.created', 'task.assigned']);
  });
});

describe('mentions', () => {
  it('a member mentioned in a comment gets one task_mention, shown with names, and watches the task; a non-member, a stranger id and the author get nothing', async () => {
    const { owner, bob, carol, eve, project } = await team();
    const hook = `/hook-${randomUUID()}`;
    await savePreferences(t, carol.token, { webhookEnabled: true, webhookUrl: `${receiver.url}${hook}` });
    const task = await createTask(t, owner.token, project.id, { title: 'Launch' });
    const text = `Ask ${mention(carol)}, ${mention(eve)}, <kaneo-mention id="${randomUUID()}">Ghost</kaneo-mention> and ${mention(owner)} & ${mention(carol)}`;
    const comment = await t.api.post(`/comment/${task.id}`, { content: text }, owner.token);
    expect(comment.status).toBe(200);
    const [n] = await notifiedTimes(t, carol.user.id, 1);
    expect(n).toMatchObject({ type: 'task_mention', title: `${owner.user.name} mentioned you in a comment`, task_id: task.id, actor_id: owner.user.id });
    expect(n.content).toBe(`[Apollo] #1 Launch\nAsk @${carol.user.name}, @${eve.user.name}, @Ghost and @${owner.user.name} & @${carol.user.name}`);
    // Her webhook receives the notification as its event, with the stored text in `data`.
    const [req] = await receiver.waitFor(hook, 1);
    expect(req.json).toMatchObject({ event: 'task_mention', task: { id: task.id }, data: { content: text } });
    expect(reasonsOf(await watchers(task.id, carol))[carol.user.id]).toEqual(['mentioned']);
    await drained();
    expect(await types(eve)).toEqual([]);
    expect(await types(bob)).toEqual([]);
    expect(await types(carol)).toEqual(['task_mention']);

    // An edit that adds Bob notifies Bob only; an edit that mentions no one new notifies no one.
    expect((await t.api.put(`/comment/${comment.body.id}`, { content: `${text} ${mention(bob)}` }, owner.token)).status).toBe(200);
    const [bobs] = await notifiedTimes(t, bob.user.id, 1);
    expect(bobs).toMatchObject({ type: 'task_mention', title: `${owner.user.name} mentioned you in a comment` });
    expect((await t.api.put(`/comment/${comment.body.id}`, { content: `${mention(bob)} ${mention(carol)} thanks` }, owner.token)).status).toBe(200);
    await drained();
    expect(await types(bob)).toEqual(['task_mention']);
    expect(await types(carol)).toEqual(['task_mention']);
  });

  it('a description mentions once per text: a new task, then an edit adding someone; a mention wins over watching', async () => {
    const { owner, bob, carol, dave, project } = await team();
    const task = await createTask(t, owner.token, project.id, { title: 'Launch', userId: bob.user.id, description: `For ${mention(carol)}` });
    const [c] = await notifiedTimes(t, carol.user.id, 1);
    expect(c).toMatchObject({ type: 'task_mention', title: `${owner.user.name} mentioned you in a task description` });
    const [b] = await notifiedTimes(t, bob.user.id, 1);
    expect(b.type).toBe('task.created');

    expect((await t.api.put(`/task/description/${task.id}`, { description: `For ${mention(carol)} and ${mention(dave)}` }, owner.token)).status).toBe(200);
    const [d] = await notifiedTimes(t, dave.user.id, 1);
    expect(d).toMatchObject({ type: 'task_mention', content: `[Apollo] #1 Launch\nFor @${carol.user.name} and @${dave.user.name}` });

    // Carol now watches (mentioned); a comment mentioning her tells her once, as a mention.
    expect((await t.api.post(`/comment/${task.id}`, { content: `${mention(carol)} look` }, dave.token)).status).toBe(200);
    await notifiedTimes(t, carol.user.id, 2);
    await drained();
    expect(await types(carol)).toEqual(['task_mention', 'task_mention']);
    expect(await types(dave)).toEqual(['task_mention']);
  });
});
