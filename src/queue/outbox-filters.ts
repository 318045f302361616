import { Injectable } from '@nestjs/common';
import type { ClaimedOutboxRow } from './outbox.repository';

/**
 * Says which of a batch of leased rows of one queue anybody will consume. The relay publishes
 * those and deletes the others without a job: an event nobody hears costs its outbox row and
 * nothing more (docs/integrations.md, "Events nobody hears of"). `sql`, when given, is a boolean
 * expression over the outbox row (alias `o`) that the lease statement answers for each row as its
 * `hint`, so a question to the database costs no statement of its own. `keep` must keep every row
 * it cannot judge (a payload it does not understand), so the consumer sees and records it.
 */
export interface OutboxFilter {
  sql?: string;
  keep(rows: readonly ClaimedOutboxRow[]): readonly ClaimedOutboxRow[];
}

/** Where the consumers of a queue register its filter (worker role, in onModuleInit); a queue without one publishes every row. */
@Injectable()
export class OutboxFilters {
  private readonly filters = new Map<string, OutboxFilter>();

  register(queue: string, filter: OutboxFilter): void {
    if (this.filters.has(queue)) throw new Error(`An outbox filter for the ${queue} queue is registered twice`);
    this.filters.set(queue, filter);
  }

  /** The filters' SQL expressions by queue, for the lease statement. */
  hints(): ReadonlyMap<string, string> {
    return new Map([...this.filters].filter((e): e is [string, OutboxFilter & { sql: string }] => !!e[1].sql).map(([queue, f]) => [queue, f.sql]));
  }

  /** The rows to publish, in their leased order. */
  apply(rows: readonly ClaimedOutboxRow[]): ClaimedOutboxRow[] {
    const kept = new Set<ClaimedOutboxRow>();
    const byQueue = new Map<string, ClaimedOutboxRow[]>();
    for (const r of rows) byQueue.set(r.queue, [...(byQueue.get(r.queue) ?? []), r]);
    for (const [queue, batch] of byQueue) {
      const filter = this.filters.get(queue);
      for (const r of filter ? filter.keep(batch) : batch) kept.add(r);
    }
    return rows.filter((r) => kept.has(r));
  }
}
