import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, rows } from '../../../database/sql';
import { TASK_EVENT_NAMES, TaskEvent } from '../../task/task-event';
import { INTEGRATION_TYPES } from '../integration.record';
import { IntegrationType } from './channels';

/** One attempt of a delivery, as kept in `delivery.attempts` (oldest first). */
export interface DeliveryAttempt {
  /** When the attempt started (ISO 8601). */
  at: string;
  /** null when no answer came. */
  statusCode: number | null;
  durationMs: number;
  /** null on success; never a secret or a URL. */
  error: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A delivery to do, as the fan-out answers it. */
export interface PendingDelivery {
  id: string;
  target_type: IntegrationType;
}

/** A delivery with its target integration (integration columns null when the integration is gone). Secrets still encrypted. */
export interface DeliveryWithTarget {
  id: string;
  workspace_id: string;
  project_id: string | null;
  event_id: string;
  event: string;
  target_type: IntegrationType;
  target_id: string;
  payload: TaskEvent;
  status: DeliveryStatus;
  integration_id: string | null;
  is_active: boolean | null;
  chat_id: string | null;
  thread_id: number | null;
  bot_token: string | null;
  webhook_url: string | null;
  secret: string | null;
  previous_secret: string | null;
  /** The previous secret was replaced less than 24 h ago (by the database's clock): sign with it too. */
  previous_secret_current: boolean;
}

/** How long finished deliveries are kept at least (docs/integrations.md). */
export const DELIVERY_RETENTION_DAYS = 7;
/** The advisory lock that lets one worker at a time prune (an arbitrary constant of this service). */
export const DELIVERY_PRUNE_LOCK = 7_361_004_201;

/**
 * One statement: a `delivery` row per active integration of the event's project that wants the
 * event's kind (one per event and target: a second run adds nothing), then every delivery of the
 * event to an integration still pending, the ones just written included (they are not yet visible
 * to the second SELECT of the same statement, hence the UNION). Deliveries of the same event to
 * users' channels are the users' fan-out's (src/modules/notifications/delivery).
 * $1 workspace, $2 project, $3 event id, $4 kind, $5 wire name, $6 the event snapshot.
 */
const FAN_OUT_SQL = `
  WITH targets AS (
    SELECT i.id, i.type FROM integration i
     WHERE i.workspace_id = $1 AND i.project_id = $2 AND i.is_active AND i.events @> jsonb_build_object($4::text, true)
  ), inserted AS (
    INSERT INTO delivery (id, workspace_id, project_id, event_id, event, target_type, target_id, payload, status)
    SELECT gen_random_uuid(), $1, $2, $3, $5, t.type, t.id, $6::jsonb, 'pending' FROM targets t
    ON CONFLICT (event_id, target_type, target_id) DO NOTHING
    RETURNING id, target_type
  )
  SELECT id, target_type FROM inserted
  UNION
  SELECT id, target_type FROM delivery
   WHERE event_id = $3 AND status = 'pending' AND target_type IN (${INTEGRATION_TYPES.map((type) => `'${type}'`).join(', ')})`;

const LOAD_SQL = `
  SELECT d.id, d.workspace_id, d.project_id, d.event_id, d.event, d.target_type, d.target_id, d.payload, d.status,
         i.id AS integration_id, i.is_active, i.chat_id, i.thread_id, i.bot_token, i.webhook_url, i.secret, i.previous_secret,
         COALESCE(i.previous_secret IS NOT NULL AND i.secret_replaced_at > now() - interval '24 hours', false) AS previous_secret_current
    FROM delivery d
    LEFT JOIN integration i ON i.id = d.target_id AND i.type = d.target_type AND i.workspace_id = d.workspace_id
   WHERE d.id = $1`;

/**
 * What the delivery workers read and write (docs/integrations.md): the fan-out of a task
 * event into deliveries, a delivery with its target, the record of each attempt, and the pruning
 * of old records. Delivery jobs carry only the delivery id, so those methods take no tenant.
 */
@Injectable()
export class DeliveryWorkRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** FAN_OUT_SQL for `event`: the deliveries of the event still to do. */
  fanOut(workspaceId: string, event: TaskEvent, m: EntityManager = this.ds.manager): Promise<PendingDelivery[]> {
    return rows<PendingDelivery>(m, FAN_OUT_SQL, [
      workspaceId,
      event.project.id,
      event.id,
      event.kind,
      TASK_EVENT_NAMES[event.kind],
      JSON.stringify(event),
    ]);
  }

  /**
   * Of (project, kind) pairs, those with an active integration whose flag for the kind is on, as
   * `projectId kind` keys: the ones FAN_OUT_SQL would deliver to.
   */
  async listening(pairs: readonly { projectId: string; kind: string }[], m: EntityManager = this.ds.manager): Promise<Set<string>> {
    if (!pairs.length) return new Set();
    const found = await rows<{ key: string }>(
      m,
      `SELECT DISTINCT k.project_id::text || ' ' || k.kind AS key
         FROM unnest($1::uuid[], $2::text[]) AS k(project_id, kind)
         JOIN integration i ON i.project_id = k.project_id
        WHERE i.is_active AND i.events @> jsonb_build_object(k.kind, true)`,
      [pairs.map((p) => p.projectId), pairs.map((p) => p.kind)],
    );
    return new Set(found.map((r) => r.key));
  }

  /** The delivery and its integration (matched by id, type and workspace), or undefined when the delivery is gone. */
  withTarget(deliveryId: string, m: EntityManager = this.ds.manager): Promise<DeliveryWithTarget | undefined> {
    return firstRow<DeliveryWithTarget>(m, LOAD_SQL, [deliveryId]);
  }

  /**
   * Appends `attempt` and sets the status: `delivered` stamps delivered_at, `failed` clears it,
   * `pending` (a retry will follow) leaves it.
   */
  async recordAttempt(deliveryId: string, attempt: DeliveryAttempt, status: DeliveryStatus, m: EntityManager = this.ds.manager): Promise<void> {
    await rows(
      m,
      `UPDATE delivery SET attempts = attempts || jsonb_build_array($2::jsonb), status = $3,
              delivered_at = CASE $3 WHEN 'delivered' THEN now() WHEN 'failed' THEN NULL ELSE delivered_at END
        WHERE id = $1`,
      [deliveryId, JSON.stringify(attempt), status],
    );
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
