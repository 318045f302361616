import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { OutboxWakeRepository } from './outbox-wake.repository';

/** Marks a transaction that wrote outbox rows (QueryRunner.data is TypeORM's per-runner user data). */
const WROTE_OUTBOX = 'tandemWroteOutbox';
/** Least time between two notifications of one process. */
const NOTIFY_GAP_MS = 5;

/**
 * Wakes the outbox relay after outbox rows COMMIT (docs/architecture.md, "The path of an event").
 *
 * The wake is a Postgres notification on the `outbox` channel, sent in a statement of its own
 * after the writing transaction committed, never inside it: a transaction that notifies takes a
 * database-wide lock at commit and holds it through the commit's disk flush, which serialises
 * every such commit (measured here: 10 clients writing rows fall from about 3,000 to 700 commits
 * per second when each notifies; docs/benchmarks.md). Outside the transaction, notifications are
 * coalesced: at most one is in flight per process, and wakes asked for meanwhile share the next one.
 * A process that runs the relay itself (both roles) wakes it directly instead: no round trip.
 * A lost wake costs latency, not an event: the relay also polls (OUTBOX_POLL_MS).
 */
@Injectable()
export class OutboxSignal implements OnModuleInit, EntitySubscriberInterface {
  private readonly logger = new Logger(OutboxSignal.name);
  private inFlight = false;
  /** A wake was asked for while a notification was in flight: one more follows it. */
  private wakeAskedMeanwhile = false;
  /** The relay of this process, when it runs one (APP_ROLES with worker): woken directly, without a notification. */
  private localRelay: (() => void) | null = null;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly wake: OutboxWakeRepository,
  ) {}

  /** Is told of the commits of TypeORM transactions (a subscriber of the data source). */
  onModuleInit(): void {
    if (!this.ds.subscribers.includes(this)) this.ds.subscribers.push(this);
  }

  /**
   * Call after writing outbox rows with `m`: inside a transaction, the relay is woken once it
   * commits (never if it rolls back); outside one (an auto-committed statement), now.
   */
  afterCommit(m: EntityManager): void {
    const runner = m.queryRunner;
    if (runner?.isTransactionActive) runner.data = { ...(runner.data ?? {}), [WROTE_OUTBOX]: true };
    else this.wakeRelay();
  }

  /** The relay of this process registers here; a process running both roles then wakes it directly. */
  setLocalRelay(wake: () => void): void {
    this.localRelay = wake;
  }

  /** Wakes the relay now (coalesced with a wake in flight). */
  wakeRelay(): void {
    if (this.localRelay) return this.localRelay();
    if (this.inFlight) {
      this.wakeAskedMeanwhile = true;
      return;
    }
    this.inFlight = true;
    this.wake.notify().then(
      () => this.finishNotification(),
      (err: Error) => {
        // The relay's poll picks the rows up; nothing is lost.
        this.logger.debug(`outbox wake not sent: ${err.message}`);
        this.finishNotification();
      },
    );
  }

  /** After a notification, the next (if one was asked for meanwhile) follows NOTIFY_GAP_MS later, gathering more wakes. */
  private finishNotification(): void {
    setTimeout(() => {
      this.inFlight = false;
      if (this.wakeAskedMeanwhile) {
        this.wakeAskedMeanwhile = false;
        this.wakeRelay();
      }
    }, NOTIFY_GAP_MS);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    if (this.takeMark(event.queryRunner)) this.wakeRelay();
  }

  /** A rolled-back transaction's rows are gone: drop its mark, wake no one. */
  afterTransactionRollback(event: TransactionRollbackEvent): void {
    this.takeMark(event.queryRunner);
  }

  /** True once the outermost transaction of `runner` has ended with the mark set; clears it. */
  private takeMark(runner: QueryRunner): boolean {
    if (runner.isTransactionActive || !runner.data?.[WROTE_OUTBOX]) return false;
    delete runner.data[WROTE_OUTBOX];
    return true;
  }
}
