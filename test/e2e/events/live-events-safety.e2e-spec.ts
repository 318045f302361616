import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { dropRedisKeys, runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { Api } from '../../support/api';
import { addMember, sql } from '../../support/fixtures';
import { launchApi, Launched } from '../../support/launcher';
import { SseClient } from '../../support/sse';
import { until } from '../../support/until';

/**
 * What a member can do with the live event stream cannot stop the service or anyone else's stream
 * (docs/live-events.md, "Limits"). The service runs as a real process (API and worker, as `npm
 * start` runs it), so a crash is an exit the test sees, and after each case the process still
 * answers /api/health and another stream of the workspace received every event.
 */
let t: TestApp;
let service: Launched;
let apiUrl: string;
let api: Api;
const queuePrefix = `t_live_safety_${randomBytes(3).toString('hex')}`;
const PER_USER = 4;
const streams: SseClient[] = [];

beforeAll(async () => {
  // Only for its migrated database: the process below uses it.
  t = await startTestApp({ APP_ROLES: 'api' });
  ({ service, apiUrl } = await launchApi(t.databaseUrl, queuePrefix, 'info', { EVENTS_HEARTBEAT_SECONDS: '1', LIVE_STREAMS_PER_USER: String(PER_USER), RATE_LIMIT_API: '0' }));
  api = new Api(apiUrl);
}, 60_000);
afterAll(async () => {
  await Promise.all(streams.map((s) => s.close()));
  await service?.kill('SIGKILL');
  await t?.close();
  await dropRedisKeys(runRedisUrl(), queuePrefix);
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
async function open(workspaceId: string, headers: Record<string, string>): Promise<SseClient> {
  const s = await SseClient.open(`${apiUrl}/events?workspaceId=${workspaceId}`, headers);
  streams.push(s);
  return s;
}

/** A workspace with a project, its owner, and `n` tasks. */
async function board(n = 1) {
  const owner = await api.signUp();
  const ws = await api.createWorkspace(owner.token);
  const project = (await api.post('/project', { name: 'Live', workspaceId: ws.id }, owner.token)).body;
  const tasks: { id: string }[] = [];
  for (let i = 0; i < n; i++) tasks.push((await api.post(`/task/${project.id}`, { title: `Task ${i}` }, owner.token)).body);
  return { owner, workspaceId: ws.id as string, project, tasks };
}

/** The process is up: it did not exit and answers its health check. */
async function stillServing(): Promise<void> {
  expect(service.child.exitCode).toBeNull();
  const health = await fetch(`${apiUrl}/health`);
  expect(health.status).toBe(200);
  expect(service.output()).not.toMatch(/ERR_STREAM_WRITE_AFTER_END|Unhandled 'error' event/);
}

describe('the live event stream cannot take the service down', () => {
  it('a resume after twelve 100 kB description edits gets small entries (cut to 280 characters, truncated: true), and the service keeps serving', async () => {
    const { owner, workspaceId, tasks } = await board();
    const watcher = await open(workspaceId, bearer(owner.token));
    const edits: string[] = [];
    for (let i = 0; i < 12; i++) {
      const description = `${i} `.padEnd(100_000, 'lorem ipsum ');
      expect((await api.put(`/task/description/${tasks[0]!.id}`, { description }, owner.token)).status).toBe(200);
      edits.push(description);
    }
    const changes = await until('twelve edits on the open stream', () => watcher.of('task.description_changed').length === 12 && watcher.of('task.description_changed'));
    for (const e of changes) expect(Buffer.byteLength(e.data)).toBeLessThanOrEqual(16 * 1024);
    const first = JSON.parse(changes[0]!.data);
    expect(first.truncated).toBe(true);
    expect(first.task.description).toBe(edits[0]!.slice(0, 280));

    // A client that saw the first edit comes back: the eleven after it, small, in order.
    const resumed = await open(workspaceId, { ...bearer(owner.token), 'last-event-id': changes[0]!.id! });
    const missed = await until('the eleven missed edits', () => resumed.of('task.description_changed').length === 11 && resumed.of('task.description_changed'));
    expect(missed.map((e) => e.id)).toEqual(changes.slice(1).map((e) => e.id));
    expect(missed.map((e) => JSON.parse(e.data).task.description)).toEqual(edits.slice(1).map((d) => d.slice(0, 280)));
    expect(resumed.of('reset')).toEqual([]);
    // The full text is where it always was.
    expect((await api.get(`/task/${tasks[0]!.id}`, owner.token)).body.description).toBe(edits[11]);
    await stillServing();
  });

  it('a resume from an id that is not in the window gets reset, then live events', async () => {
    const { owner, workspaceId, tasks } = await board();
    const s = await open(workspaceId, { ...bearer(owner.token), 'last-event-id': randomBytes(16).toString('hex') });
    await until('the reset', () => s.of('reset').length === 1);
    expect((await api.put(`/task/status/${tasks[0]!.id}`, { status: 'done' }, owner.token)).status).toBe(200);
    await until('the live change after it', () => s.of('task.status_changed').length === 1);
  });

  it('a stream its holder lost is ended and forgotten: heartbeats go on to the others, nothing is written to it', async () => {
    const { owner, workspaceId, tasks } = await board();
    const bob = await api.signUp();
    await addMember(t.databaseUrl, workspaceId, bob.user.id, 'member');
    const bobs = await open(workspaceId, bearer(bob.token));
    const owners = await open(workspaceId, bearer(owner.token));
    expect([bobs.status, owners.status]).toEqual([200, 200]);
    await sql(t.databaseUrl, `DELETE FROM member WHERE organization_id = $1 AND user_id = $2`, [workspaceId, bob.user.id]);
    await until("Bob's stream ended", () => bobs.ended, 15_000);
    // Heartbeats (every second here) and events go on for the owner.
    const beats = owners.comments;
    await until('two more heartbeats for the owner', () => owners.comments >= beats + 2, 15_000);
    expect((await api.put(`/task/status/${tasks[0]!.id}`, { status: 'done' }, owner.token)).status).toBe(200);
    await until('the change for the owner', () => owners.of('task.status_changed').length === 1);
    await stillServing();
  });

  it(`at most ${PER_USER} open streams per user: 429 with Retry-After past it, and a closed stream frees its place`, async () => {
    const { owner, workspaceId } = await board();
    const mine: SseClient[] = [];
    for (let i = 0; i < PER_USER; i++) mine.push(await open(workspaceId, bearer(owner.token)));
    expect(mine.map((s) => s.status)).toEqual(Array(PER_USER).fill(200));
    const refused = await fetch(`${apiUrl}/events?workspaceId=${workspaceId}`, { headers: bearer(owner.token) });
    expect([refused.status, refused.headers.get('retry-after'), await refused.json()]).toEqual([
      429,
      '30',
      { message: `Too many open event streams: at most ${PER_USER} per user; close one first` },
    ]);
    // Another user of the workspace is not held back by it.
    const bob = await api.signUp();
    await addMember(t.databaseUrl, workspaceId, bob.user.id, 'member');
    expect((await open(workspaceId, bearer(bob.token))).status).toBe(200);
    await mine[0]!.close();
    const again = await until('a place again', async () => {
      const s = await open(workspaceId, bearer(owner.token));
      if (s.status !== 200) await s.close();
      return s.status === 200 && s;
    });
    expect(again.status).toBe(200);
    await Promise.all(mine.map((s) => s.close()));
  });

  it('requests that leave before their stream is set up hold no place and no memory: three rounds of aborted requests, then a stream opens', async () => {
    const { owner, workspaceId, tasks } = await board();
    const abortOne = () =>
      new Promise<void>((resolve) => {
        const req = request(`${apiUrl}/events?workspaceId=${workspaceId}`, { headers: bearer(owner.token) });
        req.on('error', () => resolve());
        req.on('close', () => resolve());
        // Sent, then gone at once: the service is still checking the session when the client leaves.
        req.end(() => setImmediate(() => req.destroy()));
      });
    for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: PER_USER * 10 }, abortOne));
    const s = await until('a stream opens once the aborted ones are gone', async () => {
      const c = await open(workspaceId, bearer(owner.token));
      if (c.status !== 200) await c.close();
      return c.status === 200 && c;
    });
    expect((await api.put(`/task/status/${tasks[0]!.id}`, { status: 'done' }, owner.token)).status).toBe(200);
    await until('the change on it', () => s.of('task.status_changed').length === 1);
    await stillServing();
  });

  it('an API key limited to task:read receives task events but not the in-app notifications, which GET /notification refuses it', async () => {
    const { owner, workspaceId, project } = await board();
    const bob = await api.signUp();
    await addMember(t.databaseUrl, workspaceId, bob.user.id, 'member');
    const scoped = (await api.post('/auth/api-key/create', { name: 'read', permissions: { task: ['read'] } }, bob.token)).body.key as string;
    const full = (await api.post('/auth/api-key/create', { name: 'all' }, bob.token)).body.key as string;
    expect((await api.get('/notification', scoped)).status).toBe(403);
    expect((await api.get('/notification', full)).status).toBe(200);
    const byScoped = await open(workspaceId, { 'x-api-key': scoped });
    const byFull = await open(workspaceId, { 'x-api-key': full });
    const task = (await api.post(`/task/${project.id}`, { title: 'For Bob', userId: bob.user.id }, owner.token)).body;
    await until('the notification on the unlimited key', () => byFull.of('notification').length === 1);
    // A change after the notification: once the limited key has it, it has had everything appended before it.
    expect((await api.put(`/task/status/${task.id}`, { status: 'done' }, owner.token)).status).toBe(200);
    await until('the later change on the task:read key', () => byScoped.of('task.status_changed').length === 1);
    expect(byScoped.of('task.created').map((e) => JSON.parse(e.data).task.id)).toEqual([task.id]);
    expect(byScoped.of('notification')).toEqual([]);
  });
});
