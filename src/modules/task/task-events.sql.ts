import { QueueName } from '../../queue/queues';
import { EVENT_KIND_OF_HISTORY } from './task-event';

/**
 * The statement builders of task events (docs/integrations.md, "Events"): the task write path
 * uses taskEventsSql, the time entry repository timeEntryEventSql. Each is a CTE of the statement
 * that writes the change, so the change and its event commit together or not at all.
 */
const TASK_EVENTS_QUEUE = QueueName.TaskEvents;

const kindCase = `CASE h.type ${Object.entries(EVENT_KIND_OF_HISTORY)
  .map(([type, kind]) => `WHEN '${type}' THEN '${kind}'`)
  .join(' ')} END`;

/** An ISO 8601 UTC text of a timestamptz expression, as the API writes timestamps. */
const isoSql = (at: string) => `to_char(${at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The TaskEvent snapshot (src/modules/task/task-event.ts) as a jsonb expression over the task `t`
 * (after the change), its project `p` and the actor `a` (LEFT JOINed user).
 */
const snapshotSql = (e: { id: string; kind: string; at: string; data: string }) => `jsonb_build_object(
             'id', ${e.id}, 'kind', ${e.kind},
             'occurredAt', ${isoSql(e.at)},
             'workspaceId', t.workspace_id,
             'project', jsonb_build_object('id', p.id, 'name', p.name, 'slug', p.slug),
             'task', jsonb_build_object('id', t.id, 'number', t.number, 'title', t.title, 'description', t.description,
                                        'status', t.status, 'priority', t.priority, 'assigneeId', t.user_id,
                                        'dueDate', CASE WHEN t.due_date IS NULL THEN NULL ELSE ${isoSql('t.due_date')} END),
             'actor', CASE WHEN a.id IS NULL THEN NULL ELSE jsonb_build_object('id', a.id, 'name', a.name) END,
             'data', ${e.data})`;

/**
 * `INSERT INTO outbox` of the events of the history rows of CTE `historyCte` (rows of
 * ACTIVITY_FIELDS), for tasks of CTE `taskCte` (rows of TASK_FIELDS, the task after the change).
 * Used as a CTE of the same statement that writes the change, so both commit together or not at all.
 */
export function taskEventsSql(historyCte: string, taskCte: string): string {
  return `INSERT INTO outbox (id, queue, name, payload)
    SELECT h.id::text, '${TASK_EVENTS_QUEUE}', k.kind, ${snapshotSql({
      id: 'h.id',
      kind: 'k.kind',
      at: 'h.created_at',
      data: `CASE WHEN h.type = 'comment' THEN jsonb_build_object('commentId', h.id, 'content', h.content)
                  WHEN h.type IN ('assignee_changed', 'unassigned') THEN h.event_data || jsonb_build_object(
                    'oldUserName', (SELECT u.name FROM "user" u WHERE u.id = (h.event_data->>'oldUserId')::uuid),
                    'newUserName', (SELECT u.name FROM "user" u WHERE u.id = (h.event_data->>'newUserId')::uuid))
                  ELSE COALESCE(h.event_data, '{}'::jsonb) END`,
    })}
      FROM ${historyCte} h
      CROSS JOIN LATERAL (SELECT ${kindCase} AS kind) k
      JOIN ${taskCte} t ON t.id = h.task_id
      JOIN project p ON p.id = t.project_id
      LEFT JOIN "user" a ON a.id = h.user_id
     WHERE k.kind IS NOT NULL`;
}

/**
 * `INSERT INTO outbox` of a `timeEntryCreated` event for each row of CTE `entryCte` (rows of
 * TIME_ENTRY_FIELDS, just inserted): the event id is the time entry's id, the actor its author,
 * the task as it is in this statement. A CTE of the statement that inserts the entry.
 */
export function timeEntryEventSql(entryCte: string): string {
  return `INSERT INTO outbox (id, queue, name, payload)
    SELECT e.id::text, '${TASK_EVENTS_QUEUE}', 'timeEntryCreated', ${snapshotSql({
      id: 'e.id',
      kind: `'timeEntryCreated'`,
      at: 'e.created_at',
      data: `jsonb_build_object('timeEntryId', e.id, 'startTime', ${isoSql('e.start_time')},
                                'endTime', CASE WHEN e.end_time IS NULL THEN NULL ELSE ${isoSql('e.end_time')} END,
                                'duration', e.duration, 'description', e.description)`,
    })}
      FROM ${entryCte} e
      JOIN task t ON t.id = e.task_id
      JOIN project p ON p.id = t.project_id
      LEFT JOIN "user" a ON a.id = e.user_id`;
}

/**
 * `INSERT INTO outbox` of a `taskDeleted` event for each row of CTE `deletedCte` (rows of
 * TASK_FIELDS, just deleted: the task as it was), by the user `actorSql` (a uuid expression, NULL
 * for nobody). The event id is new: the task's history goes with it. A CTE of the delete.
 */
export function taskDeletedEventsSql(deletedCte: string, actorSql: string): string {
  return `INSERT INTO outbox (id, queue, name, payload)
    SELECT x.id::text, '${TASK_EVENTS_QUEUE}', 'taskDeleted', ${snapshotSql({ id: 'x.id', kind: `'taskDeleted'`, at: 'now()', data: `'{}'::jsonb` })}
      FROM ${deletedCte} t
      CROSS JOIN LATERAL (SELECT gen_random_uuid() AS id) x
      JOIN project p ON p.id = t.project_id
      LEFT JOIN "user" a ON a.id = ${actorSql}`;
}

/**
 * `INSERT INTO outbox` of a `taskCommentUpdated` event for each row of CTE `editedCte` (`id`,
 * `task_id`, `user_id`, `content`, `old_content`: a comment whose text changed), by its author.
 * People hear of it only when it mentions someone the old text did not (docs/notifications.md).
 */
export function commentUpdatedEventSql(editedCte: string): string {
  return `INSERT INTO outbox (id, queue, name, payload)
    SELECT x.id::text, '${TASK_EVENTS_QUEUE}', 'taskCommentUpdated', ${snapshotSql({
      id: 'x.id',
      kind: `'taskCommentUpdated'`,
      at: 'now()',
      data: `jsonb_build_object('commentId', c.id, 'oldContent', c.old_content, 'content', c.content)`,
    })}
      FROM ${editedCte} c
      CROSS JOIN LATERAL (SELECT gen_random_uuid() AS id) x
      JOIN task t ON t.id = c.task_id
      JOIN project p ON p.id = t.project_id
      LEFT JOIN "user" a ON a.id = c.user_id`;
}

/**
 * `INSERT INTO outbox` of the reminder events of CTE `firedCte` (rows just written into the
 * reminder ledger: task_id, due_date, kind `reminder` | `overdue`, recipient_type `user` |
 * `integration`, recipient_id, event_id): one event per event_id, for the recipients of its rows
 * (`data.userIds` or `data.integrationIds`), with no actor. A person's reminder is a
 * `taskDueSoon`, their overdue notice a `taskOverdue`, an integration's reminder a
 * `dueDateReminder` (docs/notifications.md, "Due dates").
 */
export function reminderEventsSql(firedCte: string): string {
  return `INSERT INTO outbox (id, queue, name, payload)
    SELECT f.event_id::text, '${TASK_EVENTS_QUEUE}', f.event_kind, ${snapshotSql({
      id: 'f.event_id',
      kind: 'f.event_kind',
      at: 'now()',
      data: `jsonb_build_object('dueDate', ${isoSql('f.due_date')}, CASE WHEN f.recipient_type = 'user' THEN 'userIds' ELSE 'integrationIds' END, to_jsonb(f.recipient_ids))`,
    })}
      FROM (
        SELECT event_id, task_id, due_date, recipient_type,
               CASE WHEN recipient_type = 'integration' THEN 'dueDateReminder' WHEN kind = 'reminder' THEN 'taskDueSoon' ELSE 'taskOverdue' END AS event_kind,
               array_agg(recipient_id ORDER BY recipient_id) AS recipient_ids
          FROM ${firedCte} GROUP BY event_id, task_id, due_date, recipient_type, kind
      ) f
      JOIN task t ON t.id = f.task_id
      JOIN project p ON p.id = t.project_id
      LEFT JOIN "user" a ON false`;
}
