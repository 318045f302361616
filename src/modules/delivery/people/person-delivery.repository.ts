import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, preparedRows, rows } from '../../../database/sql';
import type { DeliveryStatus } from '../delivery.repository';
import { PERSON_CHANNELS, PersonChannel } from '../channels';
import { TaskEvent } from '../../task/task-event';
import { NOTIFICATION_FIELDS, NotificationRow } from '../../notifications/notification.record';
import { NotificationText } from './notification-text';

/** A delivery of a person's notification on one of their channels (`target_id` = the user). */
export interface PersonDeliveryRow {
  id: string;
  workspace_id: string;
  project_id: string | null;
  event_id: string;
  event: string;
  target_type: PersonChannel;
  target_id: string;
  payload: TaskEvent;
  status: DeliveryStatus;
}

const FIELDS = 'id, workspace_id, project_id, event_id, event, target_type, target_id, payload, status';
const CHANNELS_SQL = `ARRAY[${PERSON_CHANNELS.map((c) => `'${c}'`).join(', ')}]::text[]`;

/**
 * One statement for all the recipients of an event (docs/notifications.md): each one's in-app
 * notification (one per event and user) and a delivery per channel they want (one per event,
 * channel and user); answers the notifications it wrote (none on a re-run). $1 workspace, $2 event
 * id, $3 task, $4 project, $5 actor id, $6 actor name, $7 occurred at, $8 the event snapshot,
 * $9 a JSON array of {user_id, type, title, content, channels}.
 */
const FAN_OUT_MANY_SQL = `
  WITH r AS (
    SELECT * FROM jsonb_to_recordset($9::jsonb) AS r(user_id uuid, type text, title text, content text, channels text[])
  ), notified AS (
    INSERT INTO notification (workspace_id, user_id, event_id, type, title, content, task_id, project_id, actor_id, actor_name, created_at)
    SELECT $1, r.user_id, $2, r.type, r.title, r.content, $3, $4, $5, $6, $7 FROM r
    ON CONFLICT (event_id, user_id) DO NOTHING
    RETURNING ${NOTIFICATION_FIELDS}
  ), inserted AS (
    INSERT INTO delivery (id, workspace_id, project_id, event_id, event, target_type, target_id, payload, status)
    SELECT gen_random_uuid(), $1, $4, $2, r.type, c, r.user_id, $8::jsonb, 'pending' FROM r CROSS JOIN LATERAL unnest(r.channels) c
    ON CONFLICT (event_id, target_type, target_id) DO NOTHING
  )
  SELECT * FROM notified`;

/** One recipient's part of FAN_OUT_MANY_SQL. */
export interface RecipientWrite {
  userId: string;
  text: NotificationText;
  channels: readonly PersonChannel[];
}

/** The pending deliveries of one user, channel and task (a burst), oldest first. */
const BATCH_WHERE = `target_type = $1 AND target_id = $2 AND (payload->'task'->>'id') = $3 AND status = 'pending'
   AND target_type IN (${PERSON_CHANNELS.map((c) => `'${c}'`).join(', ')})`;

export interface PendingPersonDelivery {
  id: string;
  target_type: PersonChannel;
}

/**
 * The deliveries to people's channels (docs/notifications.md): the fan-out of an event to its
 * recipient (the in-app notification, in the notifications module's table, and the channel
 * deliveries, in one statement: eslint.config.js declares it), and the deliveries of a burst.
 * Delivery jobs carry only a delivery id, so these methods take no tenant.
 */
@Injectable()
export class PersonDeliveryRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** FAN_OUT_MANY_SQL: the notifications and deliveries of the event for `recipients`; the notifications it wrote. */
  fanOutMany(event: TaskEvent, recipients: readonly RecipientWrite[], m: EntityManager = this.ds.manager): Promise<NotificationRow[]> {
    if (!recipients.length) return Promise.resolve([]);
    const batch = recipients.map((r) => ({ user_id: r.userId, type: r.text.type, title: r.text.title, content: r.text.content, channels: r.channels }));
    return preparedRows<NotificationRow>(m, 'person_fan_out_many', FAN_OUT_MANY_SQL, [
      event.workspaceId,
      event.id,
      event.task.id,
      event.project.id,
      event.actor?.id ?? null,
      event.actor?.name ?? null,
      event.occurredAt,
      JSON.stringify(event),
      JSON.stringify(batch),
    ]);
  }

  /**
   * The events' deliveries to people still pending, whoever they are for: a re-run queues again
   * what a first run wrote for someone who is no longer a recipient (they left, or unwatched).
   */
  pendingOfEvents(eventIds: readonly string[]): Promise<(PendingPersonDelivery & { target_id: string; event_id: string })[]> {
    return preparedRows<PendingPersonDelivery & { target_id: string; event_id: string }>(
      this.ds.manager,
      'person_pending_of_events',
      `SELECT id, target_type, target_id, event_id::text FROM delivery WHERE event_id = ANY($1::uuid[]) AND target_type = ANY(${CHANNELS_SQL}) AND status = 'pending'`,
      [eventIds],
    );
  }

  /**
   * The oldest pending delivery of the burst (user, channel, task) and how long until its window
   * of `windowMs` closes (0 when it has), by the database's clock; undefined when none is pending.
   */
  firstOfBurst(channel: PersonChannel, userId: string, taskId: string, windowMs: number): Promise<{ id: string; delay_ms: number } | undefined> {
    return firstRow(
      this.ds.manager,
      `SELECT id, GREATEST(0, ceil(extract(epoch FROM (created_at + make_interval(secs => $4::float8 / 1000) - clock_timestamp())) * 1000))::int AS delay_ms
         FROM delivery WHERE ${BATCH_WHERE}
        ORDER BY created_at, id LIMIT 1`,
      [channel, userId, taskId, windowMs],
    );
  }

  load(deliveryId: string): Promise<PersonDeliveryRow | undefined> {
    return firstRow<PersonDeliveryRow>(this.ds.manager, `SELECT ${FIELDS} FROM delivery WHERE id = $1 AND target_type = ANY(${CHANNELS_SQL})`, [deliveryId]);
  }

  /** The pending deliveries of the burst (user, channel, task), oldest first, at most `limit`. */
  burst(channel: PersonChannel, userId: string, taskId: string, limit: number): Promise<PersonDeliveryRow[]> {
    return rows<PersonDeliveryRow>(this.ds.manager, `SELECT ${FIELDS} FROM delivery WHERE ${BATCH_WHERE} ORDER BY created_at, id LIMIT $4`, [channel, userId, taskId, limit]);
  }
}
