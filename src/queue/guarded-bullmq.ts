import { BullModule } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { Processor, Queue, QueueOptions, Worker, WorkerOptions } from 'bullmq';

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
  connection.emit = (event: string | symbol, ...args: unknown[]): boolean =>
    event === 'error' && connection.listenerCount('error') === 0 ? false : emit(event, ...args);
}

export class GuardedQueue extends Queue {
  constructor(name: string, opts?: QueueOptions) {
    super(name, opts);
    dropErrorsAfterClose(this.connection as unknown as EventEmitter);
  }
}

type WorkerInternals = { blockingConnection?: EventEmitter; stalledCheckerRunning?: boolean; stalledCheckStopper?: () => void };

export class GuardedWorker extends Worker {
  private static readonly logger = new Logger('QueueWorker');

  constructor(name: string, processor?: string | URL | null | Processor, opts?: WorkerOptions) {
    super(name, processor, opts);
    dropErrorsAfterClose(this.connection as unknown as EventEmitter);
    dropErrorsAfterClose((this as unknown as WorkerInternals).blockingConnection);
    // Without a listener BullMQ prints worker errors (Redis unreachable, …) with console.error;
    // they go to the structured log instead, at most once a minute per worker while they last
    // (BullMQ reconnects and retries by itself, and repeats the error on every attempt).
    let lastLogged = 0;
    let suppressed = 0;
    this.on('error', (err) => {
      if (this.closing) return;
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
  }

  /**
   * BullMQ's stalled-job checker re-arms its timer (stalledInterval, 30 s) when close() lands while
   * a check is in flight, which keeps a stopped process alive that long. Stop it again after close.
   */
  override async close(force = false): Promise<void> {
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
