import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { QueueName } from '../../events/queue-names';

const POLL_MS = 1_000;
const BATCH = 50;
const QUEUE_TIMEOUT_MS = 5_000;

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
 * Worker role: moves committed email_outbox rows to the email queue and deletes them.
 * Rows are claimed with FOR UPDATE SKIP LOCKED, so several workers never block each other; a row
 * is deleted only after BullMQ accepted its job, so a Redis outage leaves it for the next tick.
 * If the delete is lost after a successful add, the next publish reuses the row's job id and
 * BullMQ ignores the duplicate.
 */
@Injectable()
export class EmailOutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EmailOutboxRelay.name);
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private stopped = false;
  private failing = false;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @InjectQueue(QueueName.Email) private readonly queue: Queue,
  ) {}

  onApplicationBootstrap(): void {
    // An EventEmitter 'error' without a listener throws: a Redis outage must not end the process.
    // The relay reports failures itself (drain), so connection errors are only logged at debug.
    this.queue.on('error', (err) => this.logger.debug(`email queue connection: ${err.message}`));
    this.schedule(0);
  }

  /** Stops polling and waits for a relay in progress, before the database and queue close. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.inFlight;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.inFlight = this.drain().finally(() => {
        this.inFlight = null;
        this.schedule(POLL_MS);
      });
    }, ms);
  }

  private async drain(): Promise<void> {
    try {
      while (!this.stopped && (await this.relayBatch()) === BATCH);
      if (this.failing) this.logger.log('email outbox relay recovered');
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.logger.warn(`email outbox relay failed, will retry: ${(err as Error).message}`);
      this.failing = true;
    }
  }

  /** Publishes one batch; returns how many rows it moved. */
  async relayBatch(): Promise<number> {
    return this.ds.transaction(async (m) => {
      const rows: { id: string; job_name: string; job_id: string; payload: Record<string, unknown> }[] = await m.query(
        `SELECT id, job_name, job_id, payload FROM email_outbox ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [BATCH],
      );
      if (!rows.length) return 0;
      await withTimeout(
        this.queue.addBulk(rows.map((r) => ({ name: r.job_name, data: r.payload, opts: { jobId: r.job_id } }))),
        QUEUE_TIMEOUT_MS,
        'enqueueing emails',
      );
      await m.query(`DELETE FROM email_outbox WHERE id = ANY($1::uuid[])`, [rows.map((r) => r.id)]);
      return rows.length;
    });
  }
}
