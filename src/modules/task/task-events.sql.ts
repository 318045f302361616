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
                                        'status', t.status, 'priority', t.priority, 'assigneeId', t.user_id),
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
