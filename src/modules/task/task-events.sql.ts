import { QueueName } from '../../queue/queues';
import { EVENT_KIND_OF_HISTORY } from './task-event';

/** The statement builder of task events (docs/integrations.md, "Events"); only the task write path uses it. */
const TASK_EVENTS_QUEUE = QueueName.TaskEvents;

const kindCase = `CASE h.type ${Object.entries(EVENT_KIND_OF_HISTORY)
  .map(([type, kind]) => `WHEN '${type}' THEN '${kind}'`)
  .join(' ')} END`;

/**
 * `INSERT INTO outbox` of the events of the history rows of CTE `historyCte` (rows of
 * ACTIVITY_FIELDS), for tasks of CTE `taskCte` (rows of TASK_FIELDS, the task after the change).
 * Used as a CTE of the same statement that writes the change, so both commit together or not at all.
 */
export function taskEventsSql(historyCte: string, taskCte: string): string {
  return `INSERT INTO outbox (id, queue, name, payload)
    SELECT h.id::text, '${TASK_EVENTS_QUEUE}', k.kind, jsonb_build_object(
             'id', h.id, 'kind', k.kind,
             'occurredAt', to_char(h.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'workspaceId', t.workspace_id,
             'project', jsonb_build_object('id', p.id, 'name', p.name, 'slug', p.slug),
             'task', jsonb_build_object('id', t.id, 'number', t.number, 'title', t.title, 'description', t.description,
                                        'status', t.status, 'priority', t.priority, 'assigneeId', t.user_id),
             'actor', CASE WHEN a.id IS NULL THEN NULL ELSE jsonb_build_object('id', a.id, 'name', a.name) END,
             'data', CASE WHEN h.type = 'comment' THEN jsonb_build_object('commentId', h.id, 'content', h.content)
                          ELSE COALESCE(h.event_data, '{}'::jsonb) END)
      FROM ${historyCte} h
      CROSS JOIN LATERAL (SELECT ${kindCase} AS kind) k
      JOIN ${taskCte} t ON t.id = h.task_id
      JOIN project p ON p.id = t.project_id
      LEFT JOIN "user" a ON a.id = h.user_id
     WHERE k.kind IS NOT NULL`;
}
