import { randomBytes } from 'node:crypto';
import Redis, { Cluster } from 'ioredis';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { HttpReceiver } from '../../support/http-receiver';
import { clusterServiceEnv, RedisServers } from '../../support/redis-servers';
import { SseClient } from '../../support/sse';
import { until } from '../../support/until';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';
import { addIntegration } from '../integrations/delivery-support';

/**
 * The service on a Redis Cluster of three primaries, each with a replica (docs/scaling.md,
 * "Cluster"): real redis-server processes in cluster mode, joined by `redis-cli --cluster
 * create`, with a password; the service
 * knows two of the nodes and runs with QUEUE_PREFIX in braces (startTestApp gives `{t_…}`). A task
 * change reaches a webhook through the queues and the event stream through XREAD; the rate limits
 * count, the sign-in back-off's two-key script runs; every key of the service sits in the slot of
 * its prefix.
 */
jest.setTimeout(120_000);

const PASSWORD = randomBytes(12).toString('hex');
const servers = new RedisServers();
const receiver = new HttpReceiver();
let nodes: number[] = [];
let t: TestApp;
let stream: SseClient | null = null;
let cluster: Cluster | null = null;

beforeAll(async () => {
  await receiver.start();
  // Three primaries, each with a replica (the relay waits for it before deleting outbox rows).
  nodes = await servers.startCluster(PASSWORD);
  t = await startTestApp(clusterServiceEnv(nodes, PASSWORD));
  cluster = new Cluster(
    nodes.map((port) => ({ host: '127.0.0.1', port })),
    { redisOptions: { password: PASSWORD } },
  );
  cluster.on('error', () => undefined);
});
afterAll(async () => {
  await stream?.close();
  await t?.close();
  cluster?.disconnect();
  await servers.stop();
  await receiver.stop();
});

/** `host:port` of the primary that serves the slot of the service's keys, as the cluster says. */
async function slotOwner(): Promise<string> {
  const slot = Number(await cluster!.cluster('KEYSLOT', `${t.queuePrefix}:x`));
  const ranges = await cluster!.cluster('SLOTS');
  const [, , [host, port]] = ranges.find(([from, to]) => from <= slot && slot <= to)!;
  return `${host}:${port}`;
}

/** Every key of the service on the cluster (each node holds its own slots). */
async function keysOfService(): Promise<string[]> {
  const all = await Promise.all(cluster!.nodes('master').map((node: Redis) => node.keys(`${t.queuePrefix}:*`).catch(() => [] as string[])));
  return all.flat();
}

describe('Redis Cluster', () => {
  it('a task change is delivered and streamed; rate limits and the sign-in back-off count; all keys in the prefix slot', async () => {
    expect(t.queuePrefix).toMatch(/^\{t_\w+\}$/);
    const health = await t.api.get('/health');
    expect(health.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' }, redis: { mode: 'cluster', primary: await slotOwner() } });

    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    const path = `/cluster/${randomBytes(4).toString('hex')}`;
    await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${path}`, secret: 'cluster-secret' });
    stream = await SseClient.open(`${t.url}/events?workspaceId=${workspaceId}`, { authorization: `Bearer ${owner.token}` });
    expect(stream.status).toBe(200);

    const task = await createTask(t, owner.token, project.id, { title: 'On a cluster' });
    const [delivered] = await receiver.waitFor(path, 1, 30_000);
    expect(delivered.json.task.id).toBe(task.id);
    await until('the event on the stream', () => stream!.of('task.created').length > 0, 30_000);
    expect(JSON.parse(stream.of('task.created')[0].data).task.id).toBe(task.id);

    // The relay deleted the event's outbox row, once the replica of the queues' primary held its job (WAIT on that node).
    await until('the outbox to be empty', async () => (await sql<{ n: number }>(t.databaseUrl, `SELECT count(*)::int AS n FROM outbox`))[0].n === 0, 30_000);

    // A wrong password: 401 (the failure count's two-key script ran), not an error.
    expect((await t.api.post('/auth/sign-in/email', { email: owner.user.email, password: 'not the password' })).status).toBe(401);

    const keys = await keysOfService();
    expect(keys.some((k) => k.startsWith(`${t.queuePrefix}:bull:`))).toBe(true);
    expect(keys.some((k) => k.startsWith(`${t.queuePrefix}:rl:`) && !k.includes('sign-in'))).toBe(true);
    expect(keys.some((k) => k.startsWith(`${t.queuePrefix}:rl:sign-in-failures:`))).toBe(true);
    expect(keys.some((k) => k.startsWith(`${t.queuePrefix}:live:`))).toBe(true);
    // One slot for all of them: the one of the hash tag.
    const slots = new Set(await Promise.all(keys.map((k) => cluster!.cluster('KEYSLOT', k))));
    expect(slots.size).toBe(1);
  });
});
