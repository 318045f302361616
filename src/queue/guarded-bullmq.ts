import { BullModule } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { Job, Processor, Queue, QueueOptions, RedisClient, Worker, WorkerOptions } from 'bullmq';

/**
 * BullMQ 5 starts each Redis connection with an INFO round trip and, if that start fails, emits
 * the failure as 'error' on the connection. When the queue or worker is closed inside that
 * window (a process stopped right after it started), close() has already removed every listener,
 * so the late 'error' has none and Node throws it as an unhandled error. After close nobody can
 * act on that error; it is dropped. While listeners exist (normal operation), errors flow as usual.
 */
export function dropErrorsAfterClose(connection: EventEmitter | undefined): void {
  if (!connection) return;
  const emit = connection.emit.bind(connection);
  connection.emit = (event: string | symbol, ...args: unknown[]): boolean => (event === 'error' && connection.listenerCount('error') === 0 ? false : emit(event, ...args));
}

export class GuardedQueue extends Queue {
  constructor(name: string, opts?: QueueOptions) {
    super(name, opts);
    dropErrorsAfterClose(this.connection as unknown as EventEmitter);
  }
}

/** The blocking connection's client: one ioredis client, or an ioredis Cluster client. */
type BlockingClient = EventEmitter & { status: string; disconnect(): void };

/** What GuardedWorker reaches inside BullMQ's Worker (bullmq 5). */
type WorkerInternals = {
  blockingConnection?: EventEmitter & { _client?: BlockingClient };
  stalledCheckerRunning?: boolean;
  stalledCheckStopper?: () => void;
  mainLoopRunning?: Promise<void> | null;
  /** close() calls it with false (wait for the jobs in hand, then close); pause() with true. */
  whenCurrentJobsFinished(reconnect?: boolean): Promise<void>;
};

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** Whether a worker error says that Redis cannot be reached (as opposed to a failure of one command or job). */
export function isConnectionError(err: Error & { code?: string }): boolean {
  return (
    (!!err.code && CONNECTION_CODES.has(err.code)) ||
    /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|Connection is closed|Stream isn't writeable|max retries per request|All sentinels are unreachable|None of startup nodes is available|Too many Cluster redirections|CLUSTERDOWN/i.test(
      err.message,
    )
  );
}

/**
 * The queue workers of a process report a Redis outage once, when the first of them loses its
 * connection, and its end once, when the last of them is connected again, however many workers
 * there are and however often BullMQ retries meanwhile (docs/decisions-local.md, "Local Postgres
 * and Redis").
 */
export class RedisOutageLog {
  private readonly lost = new Set<object>();

  constructor(private readonly logger: Pick<Logger, 'warn' | 'log'>) {}

  /** `worker` (queue `name`) lost its connection. */
  down(worker: object, name: string, err: Error): void {
    const first = this.lost.size === 0;
    this.lost.add(worker);
    if (first) this.logger.warn(`queue workers: Redis is unreachable (queue ${name}: ${err.message}); jobs wait in Redis and the workers reconnect by themselves`);
  }

  /** `worker` is connected (again). */
  up(worker: object): void {
    if (this.lost.delete(worker) && this.lost.size === 0) this.logger.log('queue workers: Redis is reachable again; jobs are processed');
  }

  /** `worker` closed: its connection no longer matters. */
  forget(worker: object): void {
    this.lost.delete(worker);
  }
}

export class GuardedWorker extends Worker {
  private static readonly logger = new Logger('QueueWorker');
  static readonly outages = new RedisOutageLog(GuardedWorker.logger);

  constructor(name: string, processor?: string | URL | null | Processor, opts?: WorkerOptions) {
    super(name, processor, opts);
    dropErrorsAfterClose(this.connection as unknown as EventEmitter);
    dropErrorsAfterClose((this as unknown as WorkerInternals).blockingConnection);
    // Without a listener BullMQ prints worker errors with console.error. A lost connection is
    // logged once per outage (BullMQ reconnects and repeats the error on every attempt); other
    // errors go to the structured log, at most once a minute per worker while they last.
    let lastLogged = 0;
    let suppressed = 0;
    this.on('error', (err) => {
      if (this.closing) return;
      if (isConnectionError(err)) {
        GuardedWorker.outages.down(this, this.name, err);
        return;
      }
      const now = Date.now();
      if (now - lastLogged < 60_000) {
        suppressed++;
        return;
      }
      const more = suppressed ? ` (${suppressed} more since the last report)` : '';
      GuardedWorker.logger.warn(`queue ${this.name}: ${err.message}${more}`);
      lastLogged = now;
      suppressed = 0;
    });
    // 'ready' comes from the blocking connection, the one that waits for jobs; the other one too.
    this.on('ready', () => GuardedWorker.outages.up(this));
    (this.connection as unknown as EventEmitter).on('ready', () => GuardedWorker.outages.up(this));
    // close() waits for the jobs in hand without waiting for the blocking connection (below).
    const self = this as unknown as WorkerInternals;
    const bullmqWait = self.whenCurrentJobsFinished.bind(this);
    self.whenCurrentJobsFinished = (reconnect = true) => (reconnect ? bullmqWait(reconnect) : this.finishJobsInHand());
  }

  /** Jobs this worker is taking (moveToActive) or processing (processJob, until BullMQ has recorded the outcome). */
  private inHand = 0;
  private readonly whenNoneInHand: (() => void)[] = [];

  override processJob(job: Job, token: string, fetchNextCallback?: () => boolean): Promise<void | Job> {
    return this.holding(() => super.processJob(job, token, fetchNextCallback));
  }

  /** Takes the next job; once the worker is closing, none (it stays in the queue for the next worker). */
  protected override moveToActive(client: RedisClient, token: string, name?: string): Promise<Job> {
    if (this.closing) return Promise.resolve(undefined as unknown as Job);
    return this.holding(() => super.moveToActive(client, token, name));
  }

  private async holding<T>(work: () => Promise<T>): Promise<T> {
    this.inHand++;
    try {
      return await work();
    } finally {
      if (--this.inHand === 0) for (const resolve of this.whenNoneInHand.splice(0)) resolve();
    }
  }

  /**
   * What close() waits for before it closes the connections, in place of BullMQ's own wait: the
   * jobs in hand finish and BullMQ records their outcome, however long that takes (a delivery whose
   * attempt was not recorded would be sent again). The blocking connection only waits for the next
   * job: it is disconnected to end that wait, and close() does not wait for it to report that it
   * has ended. BullMQ does ('end'), and an ioredis Cluster client may never report it: BullMQ
   * reconnects a worker's blocking Cluster client (disconnect, then connect at once) when a read on
   * it fails in a failover, and a disconnect that lands while that reconnect settles leaves the
   * client with no node, in 'close' or 'disconnecting', without 'end'; BullMQ's close then waited
   * for ever (docs/scaling.md, "Cluster"). The main loop's last blocking read may still be pending
   * when close() goes on: nothing depends on it, and a closing worker takes no job (moveToActive).
   */
  private async finishJobsInHand(): Promise<void> {
    const self = this as unknown as WorkerInternals;
    if (!self.mainLoopRunning) return; // never ran: nothing in hand
    const blocking = self.blockingConnection?._client;
    if (blocking && blocking.status !== 'end') blocking.disconnect();
    await Promise.race([self.mainLoopRunning, this.noneInHand()]);
  }

  /**
   * Resolves once no job is in hand, checked again one turn of the event loop later: a job that a
   * finishing one handed on (BullMQ fetches the next job with the last one's completion) reaches
   * processJob within the same turn.
   */
  private async noneInHand(): Promise<void> {
    for (;;) {
      if (this.inHand) await new Promise<void>((resolve) => this.whenNoneInHand.push(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      if (!this.inHand) return;
    }
  }

  /**
   * BullMQ's stalled-job checker re-arms its timer (stalledInterval, 30 s) when close() lands while
   * a check is in flight, which keeps a stopped process alive that long. Stop it again after close.
   */
  override async close(force = false): Promise<void> {
    GuardedWorker.outages.forget(this);
    await super.close(force);
    const self = this as unknown as WorkerInternals;
    for (let i = 0; self.stalledCheckerRunning && i < 100; i++) {
      self.stalledCheckStopper?.();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** Every queue and worker the application creates through @nestjs/bullmq uses the guarded classes. */
BullModule.queueClass = GuardedQueue;
BullModule.workerClass = GuardedWorker;
