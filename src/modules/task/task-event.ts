/**
 * Task events (docs/integrations.md, "Events"): what every task change tells the world. The write
 * path stores one per event-worthy history row, in the same statement as the change, as an outbox
 * row of the task-events queue (job id = event id = the history row's id), so an event exists iff
 * its change committed.
 *
 * TASK_EVENT_KINDS are the six kinds a project integration can select (its `events` flags);
 * PERSONAL_EVENT_KINDS are only ever told to people (the assignee's notifications,
 * docs/notifications.md), never to a project integration.
 */
export const TASK_EVENT_KINDS = ['taskCreated', 'taskStatusChanged', 'taskPriorityChanged', 'taskTitleChanged', 'taskDescriptionChanged', 'taskCommentCreated'] as const;
export type TaskEventKind = (typeof TASK_EVENT_KINDS)[number];

/** Kinds that only notify users: an assignment, and time logged on a task. */
export const PERSONAL_EVENT_KINDS = ['taskAssigned', 'timeEntryCreated'] as const;
export type PersonalEventKind = (typeof PERSONAL_EVENT_KINDS)[number];

/** Every kind a task event can have. */
export const EVENT_KINDS = [...TASK_EVENT_KINDS, ...PERSONAL_EVENT_KINDS] as const;
export type EventKind = TaskEventKind | PersonalEventKind;

export const isEventKind = (k: unknown): k is EventKind => (EVENT_KINDS as readonly unknown[]).includes(k);
/** True for the six kinds project integrations may receive. */
export const isIntegrationKind = (k: unknown): k is TaskEventKind => (TASK_EVENT_KINDS as readonly unknown[]).includes(k);

/** The wire name of each kind (the generic webhook's `event`, the delivery record's `event`). */
export const TASK_EVENT_NAMES: Record<EventKind, string> = {
  taskCreated: 'task.created',
  taskStatusChanged: 'task.status_changed',
  taskPriorityChanged: 'task.priority_changed',
  taskTitleChanged: 'task.title_changed',
  taskDescriptionChanged: 'task.description_changed',
  taskCommentCreated: 'task.comment_created',
  taskAssigned: 'task.assigned',
  timeEntryCreated: 'task.time_entry_created',
};

/**
 * History row type → event kind; history rows of other types (moved, unassigned, due date, …)
 * emit nothing. A time entry is not a history row: its event is written by the time entry's own
 * statement (timeEntryEventSql). An imported task is a creation like any other
 * (docs/compatibility.md, "Export and import").
 */
export const EVENT_KIND_OF_HISTORY: Record<string, EventKind> = {
  created: 'taskCreated',
  imported: 'taskCreated',
  status_changed: 'taskStatusChanged',
  priority_changed: 'taskPriorityChanged',
  title_changed: 'taskTitleChanged',
  description_changed: 'taskDescriptionChanged',
  comment: 'taskCommentCreated',
  assignee_changed: 'taskAssigned',
};

/**
 * The snapshot an event carries: everything its receivers are shown, as it was when the change
 * committed, so that a later change or a deletion does not alter what is delivered.
 */
export interface TaskEvent {
  /** The event id (= the history row's id, or the time entry's; the outbox row's and the BullMQ job's id). */
  id: string;
  kind: EventKind;
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
   * comment: `{commentId, content}`; assigned: `{oldUserId, newUserId}`; time entry:
   * `{timeEntryId, startTime, endTime, duration, description}`.
   */
  data: Record<string, unknown>;
}
