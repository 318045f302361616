/**
 * Task events (docs/integrations.md, "Events"): what every task change tells the world. The write
 * path stores one per event-worthy history row, in the same statement as the change, as an outbox
 * row of the task-events queue (job id = event id = the history row's id), so an event exists iff
 * its change committed.
 *
 * TASK_EVENT_KINDS are the six kinds of the spec; EVENT_FLAGS are the flags a project
 * integration's `events` may hold: the six and five more (all off by default: a deletion, a move,
 * a due date change, an assignee change, a due-date reminder). FLAG_OF_KIND says which flag
 * selects each kind; a kind without one (a time entry, a comment edit) is only ever told to people
 * (docs/notifications.md), never to a project integration.
 */
export const TASK_EVENT_KINDS = ['taskCreated', 'taskStatusChanged', 'taskPriorityChanged', 'taskTitleChanged', 'taskDescriptionChanged', 'taskCommentCreated'] as const;
export type TaskEventKind = (typeof TASK_EVENT_KINDS)[number];

/** The flags beyond the six (the original service's names), all false unless chosen. */
export const EXTRA_EVENT_FLAGS = ['taskDeleted', 'taskMoved', 'taskDueDateChanged', 'taskAssigneeChanged', 'dueDateReminder'] as const;
/** Every member of an integration's `events`. */
export const EVENT_FLAGS = [...TASK_EVENT_KINDS, ...EXTRA_EVENT_FLAGS] as const;
export type EventFlag = (typeof EVENT_FLAGS)[number];

/** Kinds beyond the six that a flag selects. */
export const MORE_INTEGRATION_KINDS = ['taskDeleted', 'taskMoved', 'taskDueDateChanged', 'taskAssigned', 'taskUnassigned', 'dueDateReminder'] as const;

/**
 * Kinds that only notify users: time logged on a task, a comment edited (which can mention someone
 * new), and a person's due-date reminder and overdue notice (written by the reminder scheduler).
 */
export const PERSONAL_EVENT_KINDS = ['timeEntryCreated', 'taskCommentUpdated', 'taskDueSoon', 'taskOverdue'] as const;
export type PersonalEventKind = (typeof PERSONAL_EVENT_KINDS)[number];

/** Every kind a task event can have. */
export const EVENT_KINDS = [...TASK_EVENT_KINDS, ...MORE_INTEGRATION_KINDS, ...PERSONAL_EVENT_KINDS] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** The integration flag that selects each kind; null: no integration receives it. */
export const FLAG_OF_KIND: Record<EventKind, EventFlag | null> = {
  taskCreated: 'taskCreated',
  taskStatusChanged: 'taskStatusChanged',
  taskPriorityChanged: 'taskPriorityChanged',
  taskTitleChanged: 'taskTitleChanged',
  taskDescriptionChanged: 'taskDescriptionChanged',
  taskCommentCreated: 'taskCommentCreated',
  taskDeleted: 'taskDeleted',
  taskMoved: 'taskMoved',
  taskDueDateChanged: 'taskDueDateChanged',
  taskAssigned: 'taskAssigneeChanged',
  taskUnassigned: 'taskAssigneeChanged',
  dueDateReminder: 'dueDateReminder',
  timeEntryCreated: null,
  taskCommentUpdated: null,
  taskDueSoon: null,
  taskOverdue: null,
};

export const isEventKind = (k: unknown): k is EventKind => (EVENT_KINDS as readonly unknown[]).includes(k);
/** True for the kinds some project integration flag selects. */
export const isIntegrationKind = (k: unknown): k is EventKind => isEventKind(k) && FLAG_OF_KIND[k] !== null;

/** The wire name of each kind (the generic webhook's `event`, the delivery record's `event`, the live stream's). */
export const TASK_EVENT_NAMES: Record<EventKind, string> = {
  taskCreated: 'task.created',
  taskStatusChanged: 'task.status_changed',
  taskPriorityChanged: 'task.priority_changed',
  taskTitleChanged: 'task.title_changed',
  taskDescriptionChanged: 'task.description_changed',
  taskCommentCreated: 'task.comment_created',
  taskDeleted: 'task.deleted',
  taskMoved: 'task.moved',
  taskDueDateChanged: 'task.due_date_changed',
  taskAssigned: 'task.assigned',
  taskUnassigned: 'task.unassigned',
  dueDateReminder: 'task.due_date_reminder',
  timeEntryCreated: 'task.time_entry_created',
  taskCommentUpdated: 'task.comment_updated',
  taskDueSoon: 'task.due_date_reminder',
  taskOverdue: 'task.overdue',
};

/**
 * The wire name a project integration receives: a person hears `task.assigned` (they were given
 * the task), an integration `task.assignee_changed` (the original's name for the same change).
 */
export const integrationEventName = (kind: EventKind): string => (kind === 'taskAssigned' ? 'task.assignee_changed' : TASK_EVENT_NAMES[kind]);

/**
 * History row type → event kind; history rows of other types (a start date, labels, relations, …)
 * emit nothing. A time entry is not a history row: its event is written by the time entry's own
 * statement (timeEntryEventSql), and a deletion by the delete's (taskDeletedEventsSql). An
 * imported task is a creation like any other (docs/compatibility.md, "Export and import").
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
  unassigned: 'taskUnassigned',
  due_date_changed: 'taskDueDateChanged',
  moved: 'taskMoved',
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
    /** Absent in events written before due dates were part of the snapshot. */
    dueDate?: string | null;
  };
  /** null when the change has no user behind it. */
  actor: { id: string; name: string } | null;
  /**
   * Old and new values: `{oldStatus, newStatus}`, `{oldPriority, newPriority}`, `{oldTitle,
   * newTitle}`, `{oldDescription, newDescription}`; created: `{number, status, priority, userId}`;
   * comment: `{commentId, content}`; assigned and unassigned: `{oldUserId, newUserId, oldUserName,
   * newUserName}`; due date:
   * `{oldDueDate, newDueDate}`; moved: `{sourceProjectId, destinationProjectId, oldNumber,
   * newNumber, oldStatus, newStatus}`; deleted: `{}`; comment edited: `{commentId, oldContent,
   * content}`; time entry: `{timeEntryId, startTime, endTime, duration, description}`; a reminder or
   * an overdue notice: `{dueDate, leadTimeMinutes?, userIds | integrationIds}` (who it is for).
   */
  data: Record<string, unknown>;
}
