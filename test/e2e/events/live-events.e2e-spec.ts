import { bootstrap, Running } from '../../../src/bootstrap';
import { loadConfig } from '../../../src/config/app-config';
import { runRedisUrl, startPeerApp, startTestApp, TestApp } from '../../support/app';
import { SseClient } from '../../support/sse';
import { until } from '../../support/until';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/**
 * Two API processes (`api`, `peer`) and one worker process sharing one database and Redis prefix,
 * as an installation runs them: a change made through one API process reaches the event streams
 * held by the other.
 */
let api: TestApp;
let peer: TestApp;
let worker: Running;
const streams: SseClient[] = [];

beforeAll(async () => {
  api = await startTestApp({ APP_ROLES: 'api', EVENTS_HEARTBEAT_SECONDS: '1' });
  peer = await startPeerApp(api, { APP_ROLES: 'api', EVENTS_HEARTBEAT_SECONDS: '1' });
  worker = await bootstrap(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      APP_ROLES: 'worker',
      DATABASE_URL: api.databaseUrl,
      REDIS_URL: runRedisUrl(),
      DATABASE_POOL_SIZE: '3',
      QUEUE_PREFIX: api.queuePrefix,
    }),
    { host: '127.0.0.1', migrate: false },
  );
});
afterAll(async () => {
  await Promise.all(streams.map((s) => s.close()));
  await worker?.close();
  await peer?.stop();
  await api?.close();
});

async function open(app: TestApp, workspaceId: string, headers: Record<string, string>): Promise<SseClient> {
  const s = await SseClient.open(`${app.url}/events?workspaceId=${workspaceId}`, headers);
  streams.push(s);
  return s;
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const setStatus = (app: TestApp, token: string, taskId: string, status: string) => app.api.put(`/task/status/${taskId}`, { status }, token);

describe('GET /api/events', () => {
  it('a change made through one API process reaches the streams held by both, with the event id and kind', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(api);
    const project = await createProject(api, owner.token, workspaceId);
    const onPeer = await open(peer, workspaceId, bearer(owner.token));
    const onApi = await open(api, workspaceId, bearer(owner.token));
    expect([onPeer.status, onApi.status]).toEqual([200, 200]);

    const task = await createTask(api, owner.token, project.id, { title: 'Live' });
    expect((await setStatus(api, owner.token, task.id, 'in-progress')).status).toBe(200);
    for (const s of [onPeer, onApi]) {
      const [changed] = await until('the status change on the stream', () => s.of('task.status_changed').length > 0 && s.of('task.status_changed'));
      const event = JSON.parse(changed.data);
      expect([changed.id, event.kind, event.task.id, event.workspaceId]).toEqual([event.id, 'taskStatusChanged', task.id, workspaceId]);
      // The creation came first, in order, each once.
      expect(s.events.filter((e) => e.event !== 'notification').map((e) => e.event)).toEqual(['task.created', 'task.status_changed']);
    }
  });

  it('a reorder within a column reaches the streams of both processes as task.reordered, once, and only when an order changed', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(api);
    const project = await createProject(api, owner.token, workspaceId);
    const a = await createTask(api, owner.token, project.id, { title: 'A', status: 'to-do' });
    const b = await createTask(api, owner.token, project.id, { title: 'B', status: 'to-do' });
    const onPeer = await open(peer, workspaceId, bearer(owner.token));
    const onApi = await open(api, workspaceId, bearer(owner.token));
    const reorder = (taskIds: string[]) => api.api.put(`/task/reorder/${project.id}`, { status: 'to-do', taskIds }, owner.token);

    expect((await reorder([b.id, a.id])).status).toBe(200);
    for (const s of [onPeer, onApi]) {
      const [signal] = await until('the reorder on the stream', () => s.of('task.reordered').length > 0 && s.of('task.reordered'));
      expect(signal.id).toMatch(/^reordered:/);
      expect(JSON.parse(signal.data)).toMatchObject({ kind: 'taskReordered', workspaceId, project: { id: project.id }, status: 'to-do', taskIds: [b.id, a.id] });
    }
    // The same order again changes nothing and signals nothing; a refused one neither. A status
    // change after them is the next entry on the stream.
    expect((await reorder([b.id, a.id])).status).toBe(200);
    expect((await reorder([a.id, MISSING_ID])).status).toBe(400);
    expect((await setStatus(api, owner.token, a.id, 'done')).status).toBe(200);
    await until('the status change after them', () => onApi.of('task.status_changed').length > 0);
    expect(onApi.events.filter((e) => e.event === 'task.reordered')).toHaveLength(1);
  });

  it('a change no task event tells of (a start date) reaches both processes as task.changed, naming what changed; a due date is a task event', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(api);
    const project = await createProject(api, owner.token, workspaceId);
    const task = await createTask(api, owner.token, project.id, { title: 'Dated' });
    const onPeer = await open(peer, workspaceId, bearer(owner.token));
    const onApi = await open(api, workspaceId, bearer(owner.token));
    expect((await api.api.put(`/task/${task.id}`, { dueDate: '2026-12-24T00:00:00.000Z', startDate: '2026-12-20T00:00:00.000Z' }, owner.token)).status).toBe(200);
    for (const s of [onPeer, onApi]) {
      const [signal] = await until('the change on the stream', () => s.of('task.changed').length > 0 && s.of('task.changed'));
      expect(signal.id).toMatch(/^changed:/);
      const data = JSON.parse(signal.data);
      expect(data).toMatchObject({ kind: 'taskChanged', workspaceId, project: { id: project.id }, task: { id: task.id } });
      expect(data.changes).toEqual(['start_date_changed']);
      const [due] = await until('the due date event', () => s.of('task.due_date_changed').length > 0 && s.of('task.due_date_changed'));
      expect(JSON.parse(due.data)).toMatchObject({ kind: 'taskDueDateChanged', task: { id: task.id, dueDate: '2026-12-24T00:00:00.000Z' }, data: { oldDueDate: null } });
    }
    // The same dates again change nothing and signal nothing; a title change is a task event, not a signal.
    expect((await api.api.put(`/task/${task.id}`, { dueDate: '2026-12-24T00:00:00.000Z' }, owner.token)).status).toBe(200);
    expect((await api.api.put(`/task/title/${task.id}`, { title: 'Renamed' }, owner.token)).status).toBe(200);
    await until('the title change after it', () => onApi.of('task.title_changed').length > 0);
    expect(onApi.of('task.changed')).toHaveLength(1);
  });

  it("a member's own in-app notifications, and nobody else's", async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(api);
    const bob = await userWithRole(api, workspaceId, 'member');
    const project = await createProject(api, owner.token, workspaceId);
    const bobs = await open(peer, workspaceId, bearer(bob.token));
    const owners = await open(api, workspaceId, bearer(owner.token));
    const task = await createTask(api, owner.token, project.id, { title: 'For Bob', userId: bob.user.id });

    const [note] = await until("Bob's notification", () => bobs.of('notification').length > 0 && bobs.of('notification'));
    const sent = JSON.parse(note.data);
    expect(sent).toMatchObject({ type: 'task.created', taskId: task.id, projectId: project.id, workspaceId, isRead: false, actor: { id: owner.user.id, name: owner.user.name } });
    // It is the record the list shows, and the row exists by the time it is sent.
    const list = await peer.api.get('/notification', bob.token);
    expect(list.body.find((n: { id: string }) => n.id === sent.id)).toEqual(sent);
    // The owner's stream saw the task event but not Bob's notification.
    await until('the creation on the owner’s stream', () => owners.of('task.created').length > 0);
    expect(owners.of('notification')).toEqual([]);
  });

  it('Last-Event-ID resumes after that event; one outside the window gets a reset first', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(api);
    const project = await createProject(api, owner.token, workspaceId);
    const first = await open(api, workspaceId, bearer(owner.token));
    const task = await createTask(api, owner.token, project.id);
    await setStatus(api, owner.token, task.id, 'in-progress');
    await setStatus(api, owner.token, task.id, 'done');
    await until('three events', () => first.events.length >= 3);
    const [created, ...rest] = first.events;

    const resumed = await open(peer, workspaceId, { ...bearer(owner.token), 'last-event-id': created.id! });
    await until('the two events after the first', () => resumed.events.length >= 2);
    expect(resumed.events.map((e) => e.id)).toEqual(rest.map((e) => e.id));

    const lost = await open(peer, workspaceId, { ...bearer(owner.token), 'last-event-id': MISSING_ID });
    await until('a reset', () => lost.events.length >= 1);
    expect(lost.events[0].event).toBe('reset');
    await setStatus(api, owner.token, task.id, 'to-do');
    await until('live again after the reset', () => lost.of('task.status_changed').length === 1);
  });

  it('a member removed from the workspace loses the stream within five seconds', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(api);
    const bob = await userWithRole(api, workspaceId, 'member');
    const bobs = await open(peer, workspaceId, bearer(bob.token));
    expect(bobs.status).toBe(200);
    const members = await api.api.get(`/workspace/${workspaceId}/members`, owner.token);
    const memberId = members.body.find((m: { userId: string }) => m.userId === bob.user.id)?.id;
    expect((await api.api.post('/auth/organization/remove-member', { memberIdOrEmail: memberId ?? bob.user.email, organizationId: workspaceId }, owner.token)).status).toBe(200);
    await until('the stream to end', () => bobs.ended, 5_000);
  });

  it('a signed-out session loses the stream too', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(api);
    const s = await open(api, workspaceId, bearer(owner.token));
    expect((await api.api.post('/auth/sign-out', undefined, owner.token)).status).toBe(200);
    await until('the stream to end', () => s.ended, 5_000);
  });

  it('heartbeats keep an idle stream alive', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(api);
    const s = await open(api, workspaceId, bearer(owner.token));
    await until('two heartbeats', () => s.comments >= 2);
    expect(s.ended).toBe(false);
  });

  it('who may open it: a member by bearer or cookie, an API key with task:read; not a non-member or a key without the scope', async () => {
    const owner = await api.api.signUp();
    const workspaceId = (await api.api.createWorkspace(owner.token)).id;
    const stranger = await api.api.signUp();
    expect((await open(api, workspaceId, bearer(stranger.token))).status).toBe(404);
    expect((await open(api, MISSING_ID, bearer(owner.token))).status).toBe(404);
    expect((await open(api, workspaceId, {})).status).toBe(401);
    expect((await SseClient.open(`${api.url}/events`, bearer(owner.token))).status).toBe(400);

    const signIn = await api.api.post('/auth/sign-in/email', { email: owner.user.email, password: owner.password });
    const cookie = signIn.headers
      .getSetCookie()
      .find((c) => c.startsWith('tandem_session='))!
      .split(';')[0];
    expect((await open(api, workspaceId, { cookie })).status).toBe(200);

    const reader = await api.api.post('/auth/api-key/create', { name: 'reader', permissions: { task: ['read'] } }, owner.token);
    const other = await api.api.post('/auth/api-key/create', { name: 'labels', permissions: { label: ['read'] } }, owner.token);
    expect([reader.status, other.status]).toEqual([200, 200]);
    expect((await open(api, workspaceId, { 'x-api-key': reader.body.key })).status).toBe(200);
    expect((await open(api, workspaceId, { 'x-api-key': other.body.key })).status).toBe(403);
  });
});
