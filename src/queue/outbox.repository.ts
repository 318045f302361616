import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { rows } from '../database/sql';
import { OUTBOX_CHANNEL } from './outbox-channel';
import { OutboxSignal } from './outbox-signal';

export { OUTBOX_CHANNEL };

export interface NewOutboxRow {
  /** Omitted: a random UUID. */
  id?: string;
  queue: string;
  name: string;
  payload: Record<string, unknown>;
}

export interface ClaimedOutboxRow {
  id: string;
  queue: string;
  name: string;
  payload: Record<string, unknown>;
  /** The value of the queue's filter expression for the row (OutboxFilters), null without one. */
  hint?: boolean | null;
}

/** The transactional outbox. Rows belong to no workspace: they carry whatever their job needs. */
@Injectable()
export class OutboxRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly signal: OutboxSignal,
  ) {}

  /**
   * Writes a row in `m`'s transaction and answers its id. A row with the same id already there is
   * left as it is (the same job asked for twice). The relay is woken once the transaction commits
   * (OutboxSignal), never if it rolls back.
   */
  async insert(row: NewOutboxRow, m: EntityManager = this.ds.manager): Promise<string> {
    const rows: { id: string }[] = await m.query(
      `INSERT INTO outbox (id, queue, name, payload) VALUES (COALESCE($1, gen_random_uuid()::text), $2, $3, $4)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [row.id ?? null, row.queue, row.name, JSON.stringify(row.payload)],
    );
    this.signal.afterCommit(m);
    return rows[0]?.id ?? row.id!;
  }

  /**
   * Leases the oldest free rows of `queues` for `leaseMs` and answers them, oldest first, in one
   * auto-committed statement. SKIP LOCKED: rows another relay is leasing at this moment are passed
   * over; a leased row is not free again until its lease runs out (a relay that died mid-way), is
   * released, or is deleted. Rows of a queue this process does not know (a newer version's,
   * during a rolling deploy) are left for a process that does. `hints`: per queue, a boolean SQL
   * expression over the row (alias `o`) answered with it as `hint` (OutboxFilters).
   */
  async lease(queues: readonly string[], limit: number, leaseMs: number, hints: ReadonlyMap<string, string>): Promise<ClaimedOutboxRow[]> {
    const hint = hints.size ? `CASE o.queue ${[...hints].map(([queue, expr]) => `WHEN '${queue.replace(/'/g, "''")}' THEN (${expr})`).join(' ')} END` : 'NULL::boolean';
    const found = await rows<ClaimedOutboxRow & { created_at: Date }>(
      this.ds.manager,
      `UPDATE outbox o SET leased_until = now() + make_interval(secs => $3::double precision / 1000)
         FROM (SELECT id FROM outbox
                WHERE queue = ANY($1::text[]) AND (leased_until IS NULL OR leased_until < now())
                ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED) c
        WHERE o.id = c.id
       RETURNING o.id, o.queue, o.name, o.payload, o.created_at, ${hint} AS hint`,
      [queues, limit, leaseMs],
    );
    return found
      .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : 1))
      .map(({ id, queue, name, payload, hint: h }) => ({ id, queue, name, payload, hint: h }));
  }

  /** Deletes published (or unheard) rows. */
  async deleteIds(ids: string[], m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(`DELETE FROM outbox WHERE id = ANY($1::text[])`, [ids]);
  }

  /** Gives leased rows back after a failed publication, counting it with its reason for whoever looks at a backlog. */
  async release(ids: string[], reason: string): Promise<void> {
    await this.ds.manager.query(`UPDATE outbox SET leased_until = NULL, attempts = attempts + 1, last_error = $2 WHERE id = ANY($1::text[])`, [ids, reason.slice(0, 500)]);
  }

  /**
   * Subscribes `client` to OUTBOX_CHANNEL. LISTEN belongs to a session, so `client` must be a
   * connection of its own, not one lent by the pool.
   */
  async listen(client: Client): Promise<void> {
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
  }
}
