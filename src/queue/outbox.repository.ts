import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { preparedRows } from '../database/sql';
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
   * The oldest rows of `queues`, locked until `m`'s transaction ends. SKIP LOCKED: rows another
   * worker is publishing are passed over instead of waited for. Rows of a queue this process does
   * not know (a newer version's, during a rolling deploy) are left for a process that does.
   */
  claimBatch(queues: readonly string[], limit: number, m: EntityManager): Promise<ClaimedOutboxRow[]> {
    return preparedRows(m, 'outbox_claim', `SELECT id, queue, name, payload FROM outbox WHERE queue = ANY($1::text[]) ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED`, [
      queues,
      limit,
    ]);
  }

  async deleteIds(ids: string[], m: EntityManager = this.ds.manager): Promise<void> {
    await preparedRows(m, 'outbox_delete', `DELETE FROM outbox WHERE id = ANY($1::text[])`, [ids]);
  }

  /** Counts a failed publication of the rows, with its reason, for whoever looks at a backlog. */
  /**
   * Subscribes `client` to OUTBOX_CHANNEL. LISTEN belongs to a session, so `client` must be a
   * connection of its own, not one lent by the pool.
   */
  async listen(client: Client): Promise<void> {
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
  }

  async recordFailure(ids: string[], reason: string, m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(`UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = ANY($1::text[])`, [ids, reason.slice(0, 500)]);
  }
}
