import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { freePort } from '../../src/startup/net';
import { until } from './until';

/** Whether `port` on loopback can be listened on now. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free port whose cluster bus port (the port plus 10,000, which a Cluster node listens on too)
 * is a port at all and free as well: a node whose bus port is taken, or past 65,535, never starts.
 */
async function freePortWithBus(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = await freePort();
    if (port + 10_000 <= 65_535 && (await portFree(port + 10_000))) return port;
  }
  throw new Error('no free port with a free cluster bus port after 50 tries');
}

/**
 * Real redis-server processes on loopback for the failover tests (docs/scaling.md, "Redis"):
 * a primary, its replica and three sentinels, or the nodes of a Cluster. Each one runs from a
 * config file in one temporary folder, on a free port, without persistence; stop() ends them
 * all and removes the folder.
 */
export class RedisServers {
  readonly dir = mkdtempSync(join(tmpdir(), 'tandem-redis-failover-'));
  private readonly running = new Map<number, ChildProcess>();

  /** Starts `redis-server` with `lines` as its config (plus the port, loopback, the folder); answers the port once it accepts connections. */
  async start(lines: string[], opts: { sentinel?: boolean; password?: string; clusterBus?: boolean } = {}): Promise<number> {
    const port = opts.clusterBus ? await freePortWithBus() : await freePort();
    const conf = join(this.dir, `${port}.conf`);
    writeFileSync(conf, [`port ${port}`, 'bind 127.0.0.1', `dir ${this.dir}`, 'save ""', 'appendonly no', `logfile ${join(this.dir, `${port}.log`)}`, ...lines, ''].join('\n'));
    const child = spawn('redis-server', opts.sentinel ? [conf, '--sentinel'] : [conf], { stdio: 'ignore' });
    this.running.set(port, child);
    await until(`redis-server on port ${port} to answer`, () => this.ping(port, opts.password), 15_000);
    return port;
  }

  /** Kills the server on `port` at once (SIGKILL: no goodbye to its clients or replicas) and waits for it to be gone. */
  async kill(port: number): Promise<void> {
    const child = this.running.get(port);
    if (!child) return;
    this.running.delete(port);
    if (child.exitCode !== null || child.signalCode !== null) return; // gone already
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** One command to the server on `port`, on a connection of its own. */
  async command(port: number, password: string | undefined, ...args: (string | number)[]): Promise<unknown> {
    const redis = new Redis({ host: '127.0.0.1', port, password, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      return await redis.call(String(args[0]), ...args.slice(1).map(String));
    } finally {
      redis.disconnect();
    }
  }

  /**
   * A Redis Cluster of three primaries with a replica each (docs/scaling.md, "Cluster"): six
   * servers in cluster mode with `password` on them (`requirepass`, `masterauth`), joined by
   * `redis-cli --cluster create --cluster-replicas 1`. `cluster-node-timeout 2000`: a primary that
   * stops answering is failed over by its replica within a few seconds. Answers the ports once
   * every node says the cluster is ok and names each primary's replica, and the replicas are in sync.
   */
  async startCluster(password: string): Promise<number[]> {
    const nodes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const lines = [
        'cluster-enabled yes',
        `cluster-config-file nodes-${i}-${randomBytes(3).toString('hex')}.conf`,
        'cluster-node-timeout 2000',
        `requirepass ${password}`,
        `masterauth ${password}`,
      ];
      nodes.push(await this.start(lines, { password, clusterBus: true }));
    }
    await redisCli('-a', password, '--no-auth-warning', '--cluster', 'create', ...nodes.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '1', '--cluster-yes');
    await until(
      'the cluster to be ready on every node',
      async () => {
        const infos = await Promise.all(nodes.map((p) => this.command(p, password, 'INFO', 'replication')));
        const states = await Promise.all(nodes.map((p) => this.command(p, password, 'CLUSTER', 'INFO')));
        // Each node must also know every primary's replica (it learns the roles by gossip).
        const slots = await Promise.all(nodes.map((p) => this.command(p, password, 'CLUSTER', 'SLOTS') as Promise<unknown[][]>));
        return (
          states.every((info) => /cluster_state:ok/.test(String(info))) &&
          infos.filter((info) => /master_link_status:up/.test(String(info))).length === 3 &&
          slots.every((ranges) => ranges.length === 3 && ranges.every((range) => range.length === 4))
        );
      },
      30_000,
    );
    return nodes;
  }

  /** The port of the primary that serves `key`'s slot and of its replicas, as the node on `via` says (CLUSTER SLOTS). */
  async slotNodes(via: number, password: string, key: string): Promise<{ primary: number; replicas: number[] }> {
    const slot = Number(await this.command(via, password, 'CLUSTER', 'KEYSLOT', key));
    const ranges = (await this.command(via, password, 'CLUSTER', 'SLOTS')) as [number, number, ...[string, number, string][]][];
    const range = ranges.find(([from, to]) => from <= slot && slot <= to);
    if (!range) throw new Error(`no node serves slot ${slot}`);
    const [, , primary, ...replicas] = range;
    return { primary: Number(primary[1]), replicas: replicas.map((r) => Number(r[1])) };
  }

  async stop(): Promise<void> {
    await Promise.all([...this.running.keys()].map((port) => this.kill(port)));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private ping(port: number, password?: string): Promise<boolean> {
    return this.command(port, password, 'PING').then(
      (answer) => answer === 'PONG',
      () => false,
    );
  }
}

/** `redis-cli` with `args`: its output. */
export async function redisCli(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('redis-cli', args, { timeout: 30_000 });
  return stdout;
}

/**
 * The settings of a service on the cluster `startCluster` made: two of its nodes to start from, its
 * password, a rate limit no test reaches (so that every request still asks Redis for its count),
 * and a short outbox poll.
 */
export const clusterServiceEnv = (nodes: number[], password: string): Record<string, string> => ({
  REDIS_CLUSTER_NODES: nodes
    .slice(0, 2)
    .map((p) => `127.0.0.1:${p}`)
    .join(','),
  REDIS_PASSWORD: password,
  RATE_LIMIT_API: '1000000',
  OUTBOX_POLL_MS: '500',
});
