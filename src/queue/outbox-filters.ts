import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { ClaimedOutboxRow } from './outbox.repository';

/**
 * Of a batch of claimed rows of one queue, the ones anybody will consume. The relay publishes
 * those and deletes the others without a job: an event nobody hears costs its outbox row and
 * nothing more (docs/integrations.md, "Events nobody hears of"). A filter must keep every row it
 * cannot judge (a payload it does not understand), so the consumer sees and records it.
 */
export type OutboxFilter = (rows: readonly ClaimedOutboxRow[], m: EntityManager) => Promise<readonly ClaimedOutboxRow[]>;

/** Where the consumers of a queue register its filter (worker role, in onModuleInit); a queue without one publishes every row. */
@Injectable()
export class OutboxFilters {
  private readonly filters = new Map<string, OutboxFilter>();

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
