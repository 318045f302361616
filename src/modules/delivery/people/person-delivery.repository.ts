import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, rows } from '../../../database/sql';
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
 * One statement: the in-app notification of the event for the user (one per event and user) and
 * a delivery per channel (one per event, channel and user), then every delivery of the event to
 * this user still pending, the ones just written included (not yet visible to the second SELECT
 * of the same statement, hence the UNION). A re-run adds nothing.
 * $1 workspace, $2 user, $3 event id, $4 type (wire name), $5 title, $6 content, $7 task, $8 project,
 * $9 actor id, $10 actor name, $11 occurred at, $12 channels, $13 the event snapshot.
 */
const FAN_OUT_SQL = `
  WITH notified AS (
    INSERT INTO notification (workspace_id, user_id, event_id, type, title, content, task_id, project_id, actor_id, actor_name, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
    ON CONFLICT (event_id, user_id) DO NOTHING
  ), inserted AS (
    INSERT INTO delivery (id, workspace_id, project_id, event_id, event, target_type, target_id, payload, status)
    SELECT gen_random_uuid(), $1, $8, $3, $4, c, $2, $13::jsonb, 'pending' FROM unnest($12::text[]) c
    ON CONFLICT (event_id, target_type, target_id) DO NOTHING
    RETURNING id, target_type
  )
  SELECT id, target_type FROM inserted
  UNION
  SELECT id, target_type FROM delivery WHERE event_id = $3 AND target_id = $2 AND target_type = ANY(${CHANNELS_SQL}) AND status = 'pending'`;

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

  /** FAN_OUT_SQL: the user's deliveries of the event still to do. */
  fanOut(
    workspaceId: string,
    userId: string,
    event: TaskEvent,
    text: NotificationText,
    channels: readonly PersonChannel[],
    m: EntityManager = this.ds.manager,
  ): Promise<PendingPersonDelivery[]> {
    return rows<PendingPersonDelivery>(m, FAN_OUT_SQL, [
      workspaceId,
      userId,
      event.id,
      text.type,
      text.title,
      text.content,
      event.task.id,
      event.project.id,
      event.actor?.id ?? null,
      event.actor?.name ?? null,
      event.occurredAt,
      channels,
      JSON.stringify(event),
    ]);
  }

  /** The user's in-app notification of the event (written by fanOut). */
  notificationOf(eventId: string, userId: string): Promise<NotificationRow | undefined> {
    return firstRow<NotificationRow>(this.ds.manager, `SELECT ${NOTIFICATION_FIELDS} FROM notification WHERE event_id = $1 AND user_id = $2`, [eventId, userId]);
  }

  /**
   * The event's deliveries to people still pending, whoever they are for: a re-run queues again
   * what a first run wrote for someone who is no longer a recipient (they left, or unwatched).
   */
  pendingOfEvent(eventId: string): Promise<(PendingPersonDelivery & { target_id: string })[]> {
    return rows<PendingPersonDelivery & { target_id: string }>(
      this.ds.manager,
      `SELECT id, target_type, target_id FROM delivery WHERE event_id = $1 AND target_type = ANY(${CHANNELS_SQL}) AND status = 'pending'`,
      [eventId],
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
