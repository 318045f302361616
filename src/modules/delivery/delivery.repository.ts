import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { preparedRows, rows } from '../../database/sql';

/** One attempt of a delivery, as kept in `delivery.attempts` (oldest first). */
export interface DeliveryAttempt {
  /** When the attempt started (ISO 8601). */
  at: string;
  /** The HTTP status, or the SMTP reply code for email; null when no answer came. */
  statusCode: number | null;
  durationMs: number;
  /** null on success; never a secret or a URL. */
  error: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One attempt to record on the deliveries it carried (one, or the deliveries of a person's burst). */
export interface AttemptRecord {
  deliveryIds: readonly string[];
  attempt: DeliveryAttempt;
  status: DeliveryStatus;
}

/** How long finished deliveries are kept at least (docs/integrations.md). */
export const DELIVERY_RETENTION_DAYS = 7;
/** The advisory lock that lets one worker at a time prune (an arbitrary constant of this service). */
export const DELIVERY_PRUNE_LOCK = 7_361_004_201;

/**
 * Attempts of several deliveries in one statement (`$1`: a JSON array of {id, attempts, status},
 * one entry per delivery): appends the attempts and sets the status; `delivered` stamps
 * delivered_at, `failed` clears it, `pending` (a retry will follow) leaves it.
 */
const RECORD_SQL = `
  UPDATE delivery d SET attempts = d.attempts || v.attempts, status = v.status,
         delivered_at = CASE v.status WHEN 'delivered' THEN now() WHEN 'failed' THEN NULL ELSE d.delivered_at END
    FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, attempts jsonb, status text)
   WHERE d.id = v.id`;

/** RECORD_SQL's parameter: the records grouped per delivery in their order (the last status wins), since an UPDATE … FROM applies one source row per target row. */
function recordEntries(records: readonly AttemptRecord[]): string {
  const byId = new Map<string, { id: string; attempts: DeliveryAttempt[]; status: DeliveryStatus }>();
  for (const r of records) {
    for (const id of r.deliveryIds) {
      const entry = byId.get(id) ?? { id, attempts: [], status: r.status };
      entry.attempts.push(r.attempt);
      entry.status = r.status;
      byId.set(id, entry);
    }
  }
  return JSON.stringify([...byId.values()]);
}

/**
 * The `delivery` rows of every target kind: the record of each attempt and the pruning of old
 * records. What a kind reads to send, and its fan-out, are in its own repository
 * (integrations/integration-deliveries.repository.ts, people/person-delivery.repository.ts).
 * Delivery jobs carry only the delivery id, so these methods take no tenant.
 */
@Injectable()
export class DeliveryRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Records attempts (RECORD_SQL) in one statement (prepared, on the pool). Attempts of the same
   * delivery are appended in the order given, and the last one's status is kept.
   */
  async recordAttempts(records: readonly AttemptRecord[]): Promise<void> {
    if (records.some((r) => r.deliveryIds.length)) await preparedRows(this.ds, 'delivery_record_attempts', RECORD_SQL, [recordEntries(records)]);
  }

  /**
   * Deletes delivered and failed deliveries created (and, when delivered, delivered) more than
   * `days` days ago, under a transaction-level advisory lock so that one worker at a time prunes.
   * Answers how many rows went, or null when another worker holds the lock.
   */
  pruneFinished(days = DELIVERY_RETENTION_DAYS): Promise<number | null> {
    return this.ds.transaction(async (m) => {
      const [lock] = await rows<{ locked: boolean }>(m, `SELECT pg_try_advisory_xact_lock($1::bigint) AS locked`, [DELIVERY_PRUNE_LOCK]);
      if (!lock.locked) return null;
      const [gone] = await rows<{ n: number }>(
        m,
        `WITH gone AS (
           DELETE FROM delivery
            WHERE status IN ('delivered', 'failed')
              AND created_at < now() - make_interval(days => $1::int)
              AND COALESCE(delivered_at, created_at) < now() - make_interval(days => $1::int)
           RETURNING 1
         )
         SELECT count(*)::int AS n FROM gone`,
        [days],
      );
      return gone.n;
    });
  }
}
