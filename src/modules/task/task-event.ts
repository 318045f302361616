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

/**
 * History row type → event kind; history rows of other types (moved, assigned, …) emit nothing.
 * An imported task is a creation like any other (docs/compatibility.md, "Export and import").
 */
export const EVENT_KIND_OF_HISTORY: Record<string, TaskEventKind> = {
  created: 'taskCreated',
  imported: 'taskCreated',
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
