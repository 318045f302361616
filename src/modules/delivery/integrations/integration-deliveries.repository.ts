import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUuid } from '../../../common/pipes/id.pipe';
import { preparedRows } from '../../../database/sql';
import { FLAG_OF_KIND, integrationEventName, TaskEvent } from '../../task/task-event';
import { INTEGRATION_CHANNELS, IntegrationChannel } from '../channels';
import type { DeliveryStatus } from '../delivery.repository';

/** The integrations an event is for when it names them (a due-date reminder: the scan chose them by their lead time); null: every one that wants its kind. */
const namedTargets = (e: TaskEvent): string[] | null => {
  const ids = e.kind === 'dueDateReminder' ? e.data?.integrationIds : undefined;
  return Array.isArray(ids) ? ids.filter(isUuid) : null;
};

/** A delivery to do, as the fan-out answers it. */
export interface PendingDelivery {
  id: string;
  target_type: IntegrationChannel;
}

/** A delivery with its target integration (integration columns null when the integration is gone). Secrets still encrypted. */
export interface DeliveryWithTarget {
  id: string;
  workspace_id: string;
  project_id: string | null;
  event_id: string;
  event: string;
  target_type: IntegrationChannel;
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

/**
 * One statement for a batch of events (`$1`: a JSON array of {workspace_id, project_id, event_id,
 * flag, name, targets, payload}): a `delivery` row per event and active integration of the event's
 * project whose `events` flag for the event's kind is on (and, for an event that names its
 * `targets`, a due-date reminder, that is one of them), each (event, target) created once (a re-run inserts nothing); and
 * the events' deliveries still pending, new or not, to (re)queue.
 */
const FAN_OUT_SQL = `
  WITH ev AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS ev(workspace_id uuid, project_id uuid, event_id uuid, flag text, name text, targets uuid[], payload jsonb)
  ), targets AS (
    SELECT ev.*, i.id AS target_id, i.type AS target_type FROM ev
      JOIN integration i ON i.workspace_id = ev.workspace_id AND i.project_id = ev.project_id
                        AND i.is_active AND i.events @> jsonb_build_object(ev.flag, true)
                        AND (ev.targets IS NULL OR i.id = ANY(ev.targets))
  ), inserted AS (
    INSERT INTO delivery (id, workspace_id, project_id, event_id, event, target_type, target_id, payload, status)
    SELECT gen_random_uuid(), t.workspace_id, t.project_id, t.event_id, t.name, t.target_type, t.target_id, t.payload, 'pending' FROM targets t
    ON CONFLICT (event_id, target_type, target_id) DO NOTHING
    RETURNING id, target_type
  )
  SELECT id, target_type FROM inserted
  UNION
  SELECT d.id, d.target_type FROM delivery d
   WHERE d.event_id IN (SELECT event_id FROM ev) AND d.status = 'pending'
     AND d.target_type IN (${INTEGRATION_CHANNELS.map((type) => `'${type}'`).join(', ')})`;

const LOAD_SQL = `
  SELECT d.id, d.workspace_id, d.project_id, d.event_id, d.event, d.target_type, d.target_id, d.payload, d.status,
         i.id AS integration_id, i.is_active, i.chat_id, i.thread_id, i.bot_token, i.webhook_url, i.secret, i.previous_secret,
         COALESCE(i.previous_secret IS NOT NULL AND i.secret_replaced_at > now() - interval '24 hours', false) AS previous_secret_current
    FROM delivery d
    LEFT JOIN integration i ON i.id = d.target_id AND i.type = d.target_type AND i.workspace_id = d.workspace_id
   WHERE d.id = ANY($1::uuid[])`;

/**
 * The deliveries to project integrations (docs/integrations.md): the fan-out of task events into
 * deliveries, which events an integration would receive, and a delivery with its integration. The
 * statements join `integration` (the integrations module's table) so that each is one round trip
 * (eslint.config.js declares it). Delivery jobs carry only the delivery id, so those methods take
 * no tenant.
 */
@Injectable()
export class IntegrationDeliveriesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** FAN_OUT_SQL for one event of `workspaceId`: its deliveries still to do. */
  fanOut(workspaceId: string, event: TaskEvent, m: EntityManager = this.ds.manager): Promise<PendingDelivery[]> {
    return this.fanOutMany([{ ...event, workspaceId }], m);
  }

  /**
   * FAN_OUT_SQL for a batch of events (integration kinds, ids checked by the caller: a malformed
   * id would fail the whole statement): the deliveries of all of them still to do.
   */
  fanOutMany(events: readonly TaskEvent[], m: EntityManager = this.ds.manager): Promise<PendingDelivery[]> {
    if (!events.length) return Promise.resolve([]);
    const batch = events.map((e) => ({
      workspace_id: e.workspaceId,
      project_id: e.project.id,
      event_id: e.id,
      flag: FLAG_OF_KIND[e.kind],
      name: integrationEventName(e.kind),
      targets: namedTargets(e),
      payload: e,
    }));
    return preparedRows<PendingDelivery>(m, 'delivery_fan_out', FAN_OUT_SQL, [JSON.stringify(batch)]);
  }

  /**
   * Of (project, flag) pairs, those with an active integration whose flag is on, as `projectId
   * flag` keys: the ones FAN_OUT_SQL would deliver to.
   */
  async listening(pairs: readonly { projectId: string; flag: string }[], m: EntityManager = this.ds.manager): Promise<Set<string>> {
    if (!pairs.length) return new Set();
    const found = await preparedRows<{ key: string }>(
      m,
      'delivery_listening',
      `SELECT DISTINCT k.project_id::text || ' ' || k.flag AS key
         FROM unnest($1::uuid[], $2::text[]) AS k(project_id, flag)
         JOIN integration i ON i.project_id = k.project_id
        WHERE i.is_active AND i.events @> jsonb_build_object(k.flag, true)`,
      [pairs.map((p) => p.projectId), pairs.map((p) => p.flag)],
    );
    return new Set(found.map((r) => r.key));
  }

  /**
   * Deliveries with their integrations (matched by id, type and workspace), in one statement (a
   * prepared statement on the pool, as the delivery workers call it for every attempt): one answer
   * per id, in the ids' order, undefined for a delivery that is gone (or an id that is no uuid).
   */
  async withTargets(deliveryIds: readonly string[]): Promise<(DeliveryWithTarget | undefined)[]> {
    const ids = deliveryIds.filter(isUuid);
    const found = ids.length ? await preparedRows<DeliveryWithTarget>(this.ds, 'delivery_with_targets', LOAD_SQL, [ids]) : [];
    const byId = new Map(found.map((d) => [d.id, d]));
    return deliveryIds.map((id) => byId.get(id));
  }
}
