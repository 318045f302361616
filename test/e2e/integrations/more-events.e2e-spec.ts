import { startTestApp, TestApp } from '../../support/app';
import { until } from '../../support/until';
import { createProject, createTask, ownerWithWorkspace, userWithRole } from '../../support/work-items';
import { addIntegration, botToken, deliveriesOf, rand, ScriptedReceiver } from './delivery-support';

/**
 * The events beyond the spec's six (docs/integrations.md, "Events"): a deletion, a move, a due
 * date, an assignment and an unassignment reach the integrations whose flags choose them, in each
 * channel's format, with a delivery record each; an integration with the default flags sends what
 * it sent before.
 */
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

const MORE = { taskDeleted: true, taskMoved: true, taskDueDateChanged: true, taskAssigneeChanged: true };

async function board() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const bob = await userWithRole(t, workspaceId, 'member');
  const project = await createProject(t, owner.token, workspaceId, { name: 'Apollo' });
  const other = await createProject(t, owner.token, workspaceId, { name: 'Zeus' });
  return { owner, bob, workspaceId, project, other };
}

describe('events beyond the six', () => {
  it('a generic webhook that chose them receives task.due_date_changed, task.assignee_changed, task.unassigned, task.moved and task.deleted with old and new values', async () => {
    const { owner, bob, workspaceId, project, other } = await board();
    const here = `/hook-${rand()}`;
    const there = `/hook-${rand()}`;
    const hereId = await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${here}`, events: MORE });
    await addIntegration(t, owner.token, other.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${there}`, events: MORE });
    const task = await createTask(t, owner.token, project.id, { title: 'Launch' });

    expect((await t.api.put(`/task/due-date/${task.id}`, { dueDate: '2031-03-04T05:06:00.000Z' }, owner.token)).status).toBe(200);
    expect((await t.api.put(`/task/assignee/${task.id}`, { userId: bob.user.id }, owner.token)).status).toBe(200);
    expect((await t.api.put(`/task/assignee/${task.id}`, { userId: null }, owner.token)).status).toBe(200);
    // Deliveries run concurrently: found by their event, not by their order of arrival.
    const received = await receiver.waitFor(here, 3);
    const hook = (event: string) => received.find((h) => h.json.event === event)!;
    expect(received.map((h) => h.json.event).sort()).toEqual(['task.assignee_changed', 'task.due_date_changed', 'task.unassigned']);
    expect(hook('task.due_date_changed').json).toMatchObject({
      project: { id: project.id, workspaceId },
      task: { id: task.id, number: 1, title: 'Launch' },
      actor: { id: owner.user.id, name: owner.user.name },
      data: { oldDueDate: null, newDueDate: '2031-03-04T05:06:00.000Z' },
    });
    expect(hook('task.assignee_changed').json.data).toEqual({ oldUserId: null, newUserId: bob.user.id, oldUserName: null, newUserName: bob.user.name });
    expect(hook('task.unassigned').json.data).toEqual({ oldUserId: bob.user.id, newUserId: null, oldUserName: bob.user.name, newUserName: null });

    // A move is told to the destination's integrations, with the old and new number.
    expect((await t.api.put(`/task/move/${task.id}`, { destinationProjectId: other.id }, owner.token)).status).toBe(200);
    const [moved] = await receiver.waitFor(there, 1);
    expect(moved.json).toMatchObject({
      event: 'task.moved',
      project: { id: other.id },
      data: { sourceProjectId: project.id, destinationProjectId: other.id, oldNumber: 1, newNumber: 1 },
    });

    // A deletion: the task as it was, by whom.
    expect((await t.api.delete(`/task/${task.id}`, owner.token)).status).toBe(200);
    const [, deleted] = await receiver.waitFor(there, 2);
    expect(deleted.json).toMatchObject({ event: 'task.deleted', project: { id: other.id }, task: { id: task.id, title: 'Launch' }, actor: { id: owner.user.id }, data: {} });

    // Each is a delivery of the log, under its wire name.
    const records = await until('three delivered records', async () => {
      const rows = await deliveriesOf(t, hereId);
      return rows.length === 3 && rows.every((r) => r.status === 'delivered') && rows;
    });
    expect(records.map((r) => r.event).sort()).toEqual(['task.assignee_changed', 'task.due_date_changed', 'task.unassigned']);
  });

  it('an integration with the default flags receives none of them; a bulk delete sends one task.deleted per task', async () => {
    const { owner, project } = await board();
    const plain = `/plain-${rand()}`;
    const chosen = `/chosen-${rand()}`;
    // Created without `events`: the defaults.
    const record = await t.api.post(`/generic-webhook-integration/project/${project.id}`, { webhookUrl: `${receiver.url}${plain}` }, owner.token);
    expect(record.status).toBe(200);
    expect(record.body.events).toMatchObject({ taskDeleted: false, taskMoved: false, taskDueDateChanged: false, taskAssigneeChanged: false });
    const a = await createTask(t, owner.token, project.id, { title: 'A' });
    const b = await createTask(t, owner.token, project.id, { title: 'B' });
    await receiver.waitFor(plain, 2);
    await addIntegration(t, owner.token, project.id, { type: 'teamchat', webhookUrl: `${receiver.url}${chosen}`, events: { taskDeleted: true } });
    expect((await t.api.put(`/task/due-date/${a.id}`, { dueDate: '2031-01-01T00:00:00.000Z' }, owner.token)).status).toBe(200);
    const bulk = await t.api.patch('/task/bulk', { taskIds: [a.id, b.id], operation: 'delete' }, owner.token);
    expect(bulk.status).toBe(200);
    const sent = await receiver.waitFor(chosen, 2);
    expect(sent.map((s) => s.json.text).sort()).toEqual([`${owner.user.name} deleted the task`, `${owner.user.name} deleted the task`].map((x) => expect.stringContaining(x)));
    expect(sent.map((s) => s.json.blocks[0].text.text.match(/\|(\[Apollo\] #\d [AB])>/)?.[1]).sort()).toEqual(['[Apollo] #1 A', '[Apollo] #2 B']);
    // The default integration got its two creations and nothing of the due date or the deletions
    // (a third creation, after them all, shows that it had its chance).
    await createTask(t, owner.token, project.id, { title: 'C' });
    await receiver.waitFor(plain, 3);
    expect(receiver.to(plain).map((r) => r.json.event)).toEqual(['task.created', 'task.created', 'task.created']);
    expect((await deliveriesOf(t, record.body.id)).map((d) => d.event)).toEqual(['task.created', 'task.created', 'task.created']);
  });

  it('chat formats: the messenger tells of an assignment with both names, the communitychat of a due date', async () => {
    const { owner, bob, project } = await board();
    const token = botToken();
    await addIntegration(t, owner.token, project.id, { type: 'messenger', botToken: token, chatId: '-1', events: { taskAssigneeChanged: true } });
    const chat = `/community-${rand()}`;
    await addIntegration(t, owner.token, project.id, { type: 'communitychat', webhookUrl: `${receiver.url}${chat}`, events: { taskDueDateChanged: true } });
    const task = await createTask(t, owner.token, project.id, { title: 'Launch' });
    expect((await t.api.put(`/task/${task.id}`, { userId: bob.user.id, dueDate: '2031-03-04T05:06:00.000Z' }, owner.token)).status).toBe(200);
    const [message] = await receiver.waitFor(`/messenger/bot${token}/sendMessage`, 1);
    expect(message.json.text.split('\n').slice(1, 3)).toEqual([`${owner.user.name} changed the assignee`, `Assignee: — → ${bob.user.name}`]);
    const [embed] = await receiver.waitFor(chat, 1);
    expect(embed.json.embeds[0]).toMatchObject({ title: '[Apollo] #1 Launch' });
    expect(JSON.stringify(embed.json.embeds[0])).toContain('Due date');
    expect(JSON.stringify(embed.json.embeds[0])).toContain('2031-03-04 05:06 UTC');
  });
});
