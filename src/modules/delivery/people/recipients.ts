import { EventKind, TaskEvent } from '../../task/task-event';

/**
 * Who is notified of an event (docs/notifications.md, "Who hears of what"): the task's assignee, of a
 * task created for them, of being assigned, and of status changes, comments and time logged by
 * someone else. Title, description and priority changes notify nobody. Pure.
 */
export const NOTIFYING_KINDS: ReadonlySet<EventKind> = new Set<EventKind>(['taskCreated', 'taskAssigned', 'taskStatusChanged', 'taskCommentCreated', 'timeEntryCreated']);

/** The user to notify of `event`, or null: nobody is assigned, the kind notifies nobody, or the assignee made the change. */
export function recipientOf(event: Pick<TaskEvent, 'kind' | 'task' | 'actor'>): string | null {
  if (!NOTIFYING_KINDS.has(event.kind)) return null;
  const assignee = event.task?.assigneeId ?? null;
  if (!assignee) return null;
  // The actor never notifies themself.
  if (event.actor?.id === assignee) return null;
  return assignee;
}
