import { getQueueToken } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import type { Cluster, default as Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { OutboxFilters } from './outbox-filters';
import { OutboxListener } from './outbox-listener';
import { OutboxSignal } from './outbox-signal';
import { ClaimedOutboxRow, OutboxRepository } from './outbox.repository';
import { isQueueName, PACKED_JOB_MAX, QUEUE_NAMES, QUEUES } from './queues';

const BATCH = 50;
const QUEUE_TIMEOUT_MS = 5_000;
/** How long the relay waits for replicas to hold a batch's jobs (REDIS_WAIT_REPLICAS) before it keeps the rows for the next try. */
const REPLICA_WAIT_MS = 1_000;
/** How old the count of connected replicas may be. */
const REPLICA_COUNT_MS = 1_000;
/** After a failed publication (Redis away), the next try comes this soon, or at the poll if sooner. */
const RETRY_MS = 1_000;
/**
 * Least time between the starts of two drains (see wake()). With the relay's statements prepared,
 * 4 ms gives the delivery benchmark a p50 of 44–54 ms against 49–68 ms at 10 ms, at the same
 * throughput (docs/benchmarks.md, "The path of an event").
 */
const GATHER_MS = 4;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Worker role: publishes committed outbox rows to their queues and deletes them.
 *
 * Woken by the outbox listener after a row commits (LISTEN/NOTIFY; writers notify after their
 * commit through OutboxSignal), and by a poll every OUTBOX_POLL_MS in case a notification was
 * lost (listener reconnecting, a writer that crashed between its commit and its wake). Rows are claimed with FOR UPDATE SKIP
 * LOCKED, so several workers never block each other, and published with BullMQ job id = row id
 * (a packed job of task events: `${firstId}+${n}`); a row is deleted only after BullMQ accepted
 * its job, so a Redis outage leaves it for a later try. A row published twice (its delete lost) is
 * harmless: BullMQ ignores a one-row job id it still keeps, and the fan-out's unique delivery rows
 * absorb an event seen twice (docs/architecture.md, "The path of an event"). A queue's consumers
 * may register a filter (OutboxFilters): rows it says nobody consumes are deleted without a job.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly queues = new Map<string, Queue>();
  private readonly pollMs: number;
  private timer: NodeJS.Timeout | null = null;
  /** The timer of a drain held back until GATHER_MS after the start of the previous one. */
  private delayedDrain: NodeJS.Timeout | null = null;
  private lastDrainAt = 0;
  private inFlight: Promise<void> | null = null;
  /** Transactions of published batches still deleting their rows and committing. */
  private readonly committingBatches = new Set<Promise<void>>();
  /** Woken while a drain ran: that drain may have looked before the new row committed. */
  private wokenMeanwhile = false;
  private stopped = false;
  private failing = false;
  /** Replicas that must hold a batch's jobs before its rows go (Sentinel, REDIS_WAIT_REPLICAS); 0: the primary's word is enough. */
  private readonly waitReplicas: number;
  private readonly queuePrefix: string;
  /** Cluster: the slot of the queues' keys (QUEUE_PREFIX's hash tag), once asked. */
  private slot: number | null = null;
  /** Replicas connected to the primary when last asked (INFO replication). */
  private connectedReplicas = { count: 0, at: 0 };

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly outbox: OutboxRepository,
    private readonly listener: OutboxListener,
    private readonly moduleRef: ModuleRef,
    private readonly signal: OutboxSignal,
    private readonly filters: OutboxFilters,
  ) {
    this.pollMs = config.outboxPollMs;
    this.waitReplicas = config.redis.mode === 'single' ? 0 : config.redis.waitReplicas;
    this.queuePrefix = config.queuePrefix;
  }

  onApplicationBootstrap(): void {
    for (const name of QUEUE_NAMES) {
      const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      // An EventEmitter 'error' without a listener throws: a Redis outage must not end the process.
      // The relay reports failures itself (drain), so connection errors are only logged at debug.
      queue.on('error', (err) => this.logger.debug(`${name} queue connection: ${err.message}`));
      this.queues.set(name, queue);
    }
    this.listener.start(() => this.wake());
    this.signal.setLocalRelay(() => this.wake());
    this.wake();
  }

  /** Stops listening and polling and waits for the batch in flight, before the database and queues close. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.delayedDrain) clearTimeout(this.delayedDrain);
    await this.listener.stop();
    await this.inFlight;
    await Promise.all([...this.committingBatches]);
  }

  /**
   * Drains the outbox now, or right after the drain in progress. Drains start at most every
   * GATHER_MS: under a stream of changes each drain then publishes what gathered meanwhile in one
   * batch (a few statements for many rows) instead of a drain per row; after a quiet spell the
   * first wake drains at once.
   */
  wake(): void {
    if (this.stopped) return;
    if (this.inFlight) {
      this.wokenMeanwhile = true;
      return;
    }
    if (this.delayedDrain) return;
    const wait = this.lastDrainAt + GATHER_MS - Date.now();
    if (wait > 0) {
      this.delayedDrain = setTimeout(() => {
        this.delayedDrain = null;
        this.startDrain();
      }, wait);
      return;
    }
    this.startDrain();
  }

  private startDrain(): void {
    if (this.stopped || this.inFlight) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.wokenMeanwhile = false;
    this.lastDrainAt = Date.now();
    this.inFlight = this.drain().then((ok) => {
      this.inFlight = null;
      if (ok && this.wokenMeanwhile) this.wake();
      else this.schedule(ok ? this.pollMs : Math.min(this.pollMs, RETRY_MS));
    });
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.wake(), ms);
  }

  /** Relays batches until the outbox is empty; false when publishing failed (reported once per outage). */
  private async drain(): Promise<boolean> {
    try {
      while (!this.stopped && (await this.relayBatch()) === BATCH);
      if (this.failing) this.logger.log('outbox relay recovered');
      this.failing = false;
      return true;
    } catch (err) {
      if (!this.failing) this.logger.warn(`outbox relay failed, will retry: ${(err as Error).message}`);
      this.failing = true;
      return false;
    }
  }

  /**
   * Publishes one batch; answers how many rows it moved once their jobs are queued. The rows'
   * delete and the commit of their transaction follow without holding up the next batch, whose
   * claim passes over these rows while they are still locked (SKIP LOCKED): a stream of changes
   * waits for the claim, the filter of who receives each row and the publication of the batch before it, not for
   * its delete and commit too (docs/architecture.md, "The path of an event"). A full batch (a
   * backlog) answers after its commit instead: a claim before then would only step over its locked
   * rows. Should a delete or commit fail, the rows stay and are published again later, and BullMQ
   * adds a job id it already holds once (the fan-out is idempotent besides).
   */
  relayBatch(): Promise<number> {
    return new Promise<number>((moved, failed) => {
      let published = false;
      const tx = this.ds.transaction(async (m) => {
        const rows = await this.outbox.claimBatch([...this.queues.keys()], BATCH, m);
        if (!rows.length) return moved(0);
        const ids = rows.map((r) => r.id);
        try {
          // The taps see every row (the live event streams); rows nobody consumes (OutboxFilters) are deleted with the others, without a job.
          await this.filters.runTaps(rows);
          const heard = await this.filters.apply(rows, m);
          if (heard.length) await this.publish(heard);
        } catch (err) {
          // Commit the count, not a delete: the rows stay for the next try; the batch fails once it is committed.
          await this.outbox.recordFailure(ids, (err as Error).message, m);
          return () => failed(err);
        }
        published = true;
        // A full batch means a backlog: a claim now would only step over these locked rows, so the next one waits for the commit.
        if (rows.length < BATCH) moved(rows.length);
        await this.outbox.deleteIds(ids, m);
        return () => moved(rows.length);
      });
      const committing: Promise<void> = tx
        .then(
          (answerAfterCommit) => answerAfterCommit?.(),
          (err: Error) => {
            // Before its jobs were queued, this fails the batch (drain() reports it); after, the rows are published again.
            if (published) this.logger.warn(`outbox relay: deleting a published batch failed (${err.message}); its rows stay and are published again`);
            failed(err);
          },
        )
        .finally(() => this.committingBatches.delete(committing));
      this.committingBatches.add(committing);
    });
  }

  private async publish(rows: ClaimedOutboxRow[]): Promise<void> {
    const byQueue = new Map<string, ClaimedOutboxRow[]>();
    for (const r of rows) byQueue.set(r.queue, [...(byQueue.get(r.queue) ?? []), r]);
    await Promise.all([...byQueue].map(([name, batch]) => withTimeout(this.publishTo(this.queues.get(name)!, name, batch), QUEUE_TIMEOUT_MS, `publishing to the ${name} queue`)));
  }

  /**
   * Adds the rows' jobs to one queue. With Sentinel or a Cluster, the jobs must also be on the primary's
   * replicas (WAIT on the connection that added them, for REDIS_WAIT_REPLICAS of them or as many
   * as are connected, if fewer) before the rows may go: the primary acknowledges a write before
   * its replicas have it, and a replica promoted by a failover without these jobs would lose the
   * events whose rows were deleted. A primary without connected replicas has none that could be
   * promoted, so its word is enough then. Short of that, the batch fails and its rows are
   * published again later (BullMQ keeps one job per id; the fan-out is idempotent besides).
   * docs/scaling.md, "Redis".
   */
  private async publishTo(queue: Queue, name: string, rows: ClaimedOutboxRow[]): Promise<void> {
    await queue.addBulk(jobsOf(name, rows));
    if (!this.waitReplicas) return;
    const client = await this.primaryOf(queue);
    const wanted = await this.replicasToWait(client, false);
    if (!wanted) return;
    const acknowledged = await client.wait(wanted, REPLICA_WAIT_MS);
    if (acknowledged >= wanted) return;
    // Fewer than expected: perhaps a replica left (the count is a second old at most). Ask again.
    const now = await this.replicasToWait(client, true);
    if (acknowledged >= now) return;
    throw new Error(`${acknowledged} of ${now} Redis replicas hold the ${name} jobs after ${REPLICA_WAIT_MS} ms (REDIS_WAIT_REPLICAS); the rows stay for the next try`);
  }

  /**
   * The connection that wrote the queue's jobs: the queue's own (Sentinel), or, on a Cluster, the
   * Cluster client's connection to the primary that serves the queues' slot (WAIT counts the
   * writes of the connection it is sent on).
   */
  private async primaryOf(queue: Queue): Promise<Pick<Redis, 'wait' | 'info'>> {
    // BullMQ's client forwards the commands it does not wrap to the ioredis client under it.
    const client = (await queue.client) as unknown as Pick<Redis, 'wait' | 'info'> & { isCluster?: boolean };
    if (!client.isCluster) return client;
    const cluster = client as unknown as Cluster;
    this.slot ??= Number(await cluster.cluster('KEYSLOT', `${this.queuePrefix}:bull`));
    const serving = cluster.slots[this.slot]?.[0];
    const node = cluster.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === serving);
    if (!node) throw new Error(`no Redis Cluster node is known to serve the queues' slot ${this.slot}`);
    return node;
  }

  /** min(REDIS_WAIT_REPLICAS, the replicas connected to the primary), the latter asked at most once a second unless `fresh`. */
  private async replicasToWait(client: Pick<Redis, 'info'>, fresh: boolean): Promise<number> {
    if (fresh || Date.now() - this.connectedReplicas.at > REPLICA_COUNT_MS) {
      const count = Number(/^connected_slaves:(\d+)/m.exec(await client.info('replication'))?.[1] ?? 0);
      this.connectedReplicas = { count, at: Date.now() };
    }
    return Math.min(this.waitReplicas, this.connectedReplicas.count);
  }
}

/**
 * The jobs of one queue's rows: one per row (job id = row id), or, for a queue with a packed job
 * (QueueSpec.packedJob), up to PACKED_JOB_MAX rows per job, with the first row's id and the count
 * as job id, so the same batch published again after a lost delete is the same job.
 */
export function jobsOf(queue: string, rows: readonly ClaimedOutboxRow[]): { name: string; data: Record<string, unknown>; opts: { jobId: string } }[] {
  const packed = isQueueName(queue) ? QUEUES[queue].packedJob : undefined;
  if (!packed) return rows.map((r) => ({ name: r.name, data: r.payload, opts: { jobId: r.id } }));
  const jobs: { name: string; data: Record<string, unknown>; opts: { jobId: string } }[] = [];
  for (let i = 0; i < rows.length; i += PACKED_JOB_MAX) {
    const part = rows.slice(i, i + PACKED_JOB_MAX);
    jobs.push({ name: packed, data: { events: part.map((r) => r.payload) }, opts: { jobId: `${part[0].id}+${part.length}` } });
  }
  return jobs;
}
