import { mentionedIds, newlyMentioned } from '../../task/mentions';
import { EventKind, TaskEvent } from '../../task/task-event';

/**
 * Who is notified of an event (docs/notifications.md, "Who hears of what"). Pure: the fan-out
 * reads the task's watchers and the members, then asks here.
 *
 * - Whoever a text of the event newly mentions (a new task's description, a description change,
 *   a comment, a comment edit) hears of it as a mention, whatever else they are.
 * - The assignee hears of a task created for them and of being assigned (DIRECT_KINDS), even when
 *   they do not watch the task.
 * - The watchers (the assignee among them, unless they unwatched) hear of status changes, comments
 *   and time logged (WATCHED_KINDS).
 * - A due-date reminder or overdue notice names whom it is for (the reminder scan chose them:
 *   REMINDER_KINDS, `data.userIds`).
 * - Never the actor of the change; title, priority, date and other changes notify nobody.
 */
export const REMINDER_KINDS: ReadonlySet<EventKind> = new Set<EventKind>(['taskDueSoon', 'taskOverdue']);
export const DIRECT_KINDS: ReadonlySet<EventKind> = new Set<EventKind>(['taskCreated', 'taskAssigned']);
export const WATCHED_KINDS: ReadonlySet<EventKind> = new Set<EventKind>(['taskStatusChanged', 'taskCommentCreated', 'timeEntryCreated']);

export interface Recipient {
  userId: string;
  /** Told as a mention (`task_mention`). */
  mentioned: boolean;
}

type EventHead = Pick<TaskEvent, 'kind' | 'task' | 'actor' | 'data'>;

/** The user ids the event's text mentions for the first time (not the actor). */
export function mentionsOf(event: EventHead): string[] {
  const d = event.data ?? {};
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  let ids: string[];
  switch (event.kind) {
    case 'taskCreated':
      ids = mentionedIds(event.task?.description);
      break;
    case 'taskDescriptionChanged':
      ids = newlyMentioned(text(d.oldDescription), text(d.newDescription));
      break;
    case 'taskCommentCreated':
      ids = mentionedIds(text(d.content));
      break;
    case 'taskCommentUpdated':
      ids = newlyMentioned(text(d.oldContent), text(d.content));
      break;
    default:
      ids = [];
  }
  const actor = event.actor?.id?.toLowerCase();
  return ids.filter((id) => id !== actor);
}

/** Whom a reminder event is for (its `data.userIds`, lower-case). */
const remindedOf = (event: EventHead): string[] => {
  const ids = event.data?.userIds;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string').map((id) => id.toLowerCase()) : [];
};

/** Whether the event's recipients include its task's watchers (read by the fan-out). */
export const reachesWatchers = (event: Pick<TaskEvent, 'kind'>): boolean => WATCHED_KINDS.has(event.kind);

/**
 * Who hears of `event`: the people it mentions, then its assignee for DIRECT_KINDS, then
 * `watchers` (the task's watchers, read for WATCHED_KINDS; ignored otherwise); each once, never
 * the actor. Membership is the caller's to check.
 */
export function recipientsOf(event: EventHead, watchers: readonly string[] = []): Recipient[] {
  const actor = event.actor?.id?.toLowerCase() ?? null;
  const out = new Map<string, Recipient>();
  const add = (id: string | null | undefined, mentioned: boolean) => {
    const userId = id?.toLowerCase();
    if (userId && userId !== actor && !out.has(userId)) out.set(userId, { userId, mentioned });
  };
  if (REMINDER_KINDS.has(event.kind)) return remindedOf(event).map((userId) => ({ userId, mentioned: false }));
  for (const id of mentionsOf(event)) add(id, true);
  if (DIRECT_KINDS.has(event.kind)) add(event.task?.assigneeId, false);
  if (WATCHED_KINDS.has(event.kind)) for (const id of watchers) add(id, false);
  return [...out.values()];
}

/**
 * Whether the event may have a recipient, judged from the event alone: someone it mentions, or an
 * assignee other than the actor (for WATCHED_KINDS the assignee is only likely a watcher; an event
 * with no such candidate needs its watchers read to tell).
 */
export function mayHaveRecipient(event: EventHead): boolean {
  if (REMINDER_KINDS.has(event.kind)) return remindedOf(event).length > 0;
  if (mentionsOf(event).length) return true;
  if (!DIRECT_KINDS.has(event.kind) && !WATCHED_KINDS.has(event.kind)) return false;
  const assignee = event.task?.assigneeId?.toLowerCase();
  return !!assignee && assignee !== event.actor?.id?.toLowerCase();
}
