import { QueueName } from '../../queue/queues';

/**
 * Task events (docs/integrations.md, "Events"): what every task change tells the world. The write
 * path stores one per event-worthy history row, in the same statement as the change, as an outbox
 * row of the task-events queue (job id = event id = the history row's id), so an event exists iff
 * its change committed.
 */
export const TASK_EVENT_KINDS = [
  'taskCreated',
  'taskStatusChanged',
  'taskPriorityChanged',
  'taskTitleChanged',
  'taskDescriptionChanged',
  'taskCommentCreated',
] as const;
export type TaskEventKind = (typeof TASK_EVENT_KINDS)[number];

/** The wire name of each kind (the generic webhook's `event`, the delivery record's `event`). */
export const TASK_EVENT_NAMES: Record<TaskEventKind, string> = {
  taskCreated: 'task.created',
  taskStatusChanged: 'task.status_changed',
  taskPriorityChanged: 'task.priority_changed',
  taskTitleChanged: 'task.title_changed',
  taskDescriptionChanged: 'task.description_changed',
  taskCommentCreated: 'task.comment_created',
};

/** History row type → event kind; history rows of other types (moved, assigned, …) emit nothing. */
export const EVENT_KIND_OF_HISTORY: Record<string, TaskEventKind> = {
  created: 'taskCreated',
  status_changed: 'taskStatusChanged',
  priority_changed: 'taskPriorityChanged',
  title_changed: 'taskTitleChanged',
  description_changed: 'taskDescriptionChanged',
  comment: 'taskCommentCreated',
};

/**
 * The snapshot an event carries: everything its receivers are shown, as it was when the change
 * committed, so that a later change or a deletion does not alter what is delivered.
 */
export interface TaskEvent {
  /** The event id (= the history row's id; the outbox row's and the BullMQ job's id). */
  id: string;
  kind: TaskEventKind;
  occurredAt: string;
  workspaceId: string;
  project: { id: string; name: string; slug: string };
  /** The task after the change. */
  task: {
    id: string;
    number: number;
    title: string;
    description: string | null;
    status: string;
    priority: string;
    assigneeId: string | null;
  };
  /** null when the change has no user behind it. */
  actor: { id: string; name: string } | null;
  /**
   * Old and new values: `{oldStatus, newStatus}`, `{oldPriority, newPriority}`, `{oldTitle,
   * newTitle}`, `{oldDescription, newDescription}`; created: `{number, status, priority, userId}`;
   * comment: `{commentId, content}`.
   */
  data: Record<string, unknown>;
}

export const TASK_EVENTS_QUEUE = QueueName.TaskEvents;

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
