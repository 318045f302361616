import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { ClaimedOutboxRow } from './outbox.repository';

/**
 * Of a batch of claimed rows of one queue, the ones anybody will consume. The relay publishes
 * those and deletes the others without a job: an event nobody receives costs its outbox row and
 * nothing more (docs/integrations.md, "Events nobody receives"). A filter must keep every row it
 * cannot judge (a payload it does not understand), so the consumer sees and records it.
 */
export type OutboxFilter = (rows: readonly ClaimedOutboxRow[], m: EntityManager) => Promise<readonly ClaimedOutboxRow[]>;

/**
 * Sees every claimed row of its queue before the filters, in the relay's batch (the live event
 * streams: docs/live-events.md). It fails the batch by throwing: the rows stay and come again, so
 * a tap must take a row twice without harm.
 */
export type OutboxTap = (rows: readonly ClaimedOutboxRow[]) => Promise<void>;

/** Where the consumers of a queue register its filter and taps (worker role, in onModuleInit); a queue without a filter publishes every row. */
@Injectable()
export class OutboxFilters {
  private readonly filters = new Map<string, OutboxFilter>();
  private readonly taps = new Map<string, OutboxTap[]>();

  tap(queue: string, tap: OutboxTap): void {
    this.taps.set(queue, [...(this.taps.get(queue) ?? []), tap]);
  }

  /** Hands each queue's rows to its taps. */
  async runTaps(rows: readonly ClaimedOutboxRow[]): Promise<void> {
    if (!this.taps.size) return;
    for (const [queue, taps] of this.taps) {
      const mine = rows.filter((r) => r.queue === queue);
      if (mine.length) for (const tap of taps) await tap(mine);
    }
  }

  register(queue: string, filter: OutboxFilter): void {
    if (this.filters.has(queue)) throw new Error(`An outbox filter for the ${queue} queue is registered twice`);
    this.filters.set(queue, filter);
  }

  /** The rows to publish, in their claimed order. */
  async apply(rows: readonly ClaimedOutboxRow[], m: EntityManager): Promise<ClaimedOutboxRow[]> {
    const kept = new Set<ClaimedOutboxRow>();
    const byQueue = new Map<string, ClaimedOutboxRow[]>();
    for (const r of rows) byQueue.set(r.queue, [...(byQueue.get(r.queue) ?? []), r]);
    for (const [queue, batch] of byQueue) {
      const filter = this.filters.get(queue);
      for (const r of filter ? await filter(batch, m) : batch) kept.add(r);
    }
    return rows.filter((r) => kept.has(r));
  }
}
