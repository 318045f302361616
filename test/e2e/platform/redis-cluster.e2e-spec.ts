import { randomBytes } from 'node:crypto';
import Redis, { Cluster } from 'ioredis';
import { startTestApp, TestApp } from '../../support/app';
import { HttpReceiver } from '../../support/http-receiver';
import { redisCli, RedisServers } from '../../support/redis-servers';
import { SseClient } from '../../support/sse';
import { until } from '../../support/until';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';
import { addIntegration } from '../integrations/delivery-support';

/**
 * The service on a three-node Redis Cluster (docs/scaling.md, "Cluster"): real redis-server
 * processes in cluster mode, joined by `redis-cli --cluster create`, with a password; the service
 * knows two of the nodes and runs with QUEUE_PREFIX in braces (startTestApp gives `{t_…}`). A task
 * change reaches a webhook through the queues and the event stream through XREAD; the rate limits
 * count, the sign-in back-off's two-key script runs; every key of the service sits in the slot of
 * its prefix.
 */
jest.setTimeout(120_000);

const PASSWORD = randomBytes(12).toString('hex');
const servers = new RedisServers();
const receiver = new HttpReceiver();
const nodes: number[] = [];
let t: TestApp;
let stream: SseClient | null = null;
let cluster: Cluster | null = null;

beforeAll(async () => {
  await receiver.start();
  for (let i = 0; i < 3; i++) {
    nodes.push(
      await servers.start(
        [
          'cluster-enabled yes',
          `cluster-config-file nodes-${i}-${randomBytes(3).toString('hex')}.conf`,
          'cluster-node-timeout 2000',
          `requirepass ${PASSWORD}`,
          `masterauth ${PASSWORD}`,
        ],
        { password: PASSWORD },
      ),
    );
  }
  await redisCli('-a', PASSWORD, '--no-auth-warning', '--cluster', 'create', ...nodes.map((p) => `127.0.0.1:${p}`), '--cluster-yes');
  await until(
    'the cluster to be ready on every node',
    async () => (await Promise.all(nodes.map((p) => servers.command(p, PASSWORD, 'CLUSTER', 'INFO')))).every((info) => /cluster_state:ok/.test(String(info))),
    30_000,
  );
  t = await startTestApp({
    REDIS_CLUSTER_NODES: nodes
      .slice(0, 2)
      .map((p) => `127.0.0.1:${p}`)
      .join(','),
    REDIS_PASSWORD: PASSWORD,
    RATE_LIMIT_API: '1000000',
    OUTBOX_POLL_MS: '500',
  });
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

/** Every key of the service on the cluster (each node holds its own slots). */
async function keysOfService(): Promise<string[]> {
  const all = await Promise.all(cluster!.nodes('master').map((node: Redis) => node.keys(`${t.queuePrefix}:*`)));
  return all.flat();
}

describe('Redis Cluster', () => {
  it('a task change is delivered and streamed; rate limits and the sign-in back-off count; all keys in the prefix slot', async () => {
    expect(t.queuePrefix).toMatch(/^\{t_\w+\}$/);
    const health = await t.api.get('/health');
    expect(health.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' }, redis: { mode: 'cluster' } });

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
