import { NO_ACTOR, taskUrl } from '../integrations/event-view';
import { truncate, utcMinute } from '../integrations/text';
import { mentionsAsText } from '../../task/mentions';
import { TASK_EVENT_NAMES, TaskEvent } from '../../task/task-event';

/**
 * What a user is told of an event, in plain text, from their side (docs/notifications.md,
 * "What each channel receives"): the in-app notification's title and content, and the pieces the
 * email and push formats are made of. Pure.
 */
export interface NotificationText {
  /** The event's wire name, e.g. `task.status_changed` (the in-app notification's `type`). */
  type: string;
  /** `[Apollo] #12 Launch`. */
  heading: string;
  /** `Ada changed the status of your task`. */
  title: string;
  /** What changed, one entry per line (may be empty). */
  details: string[];
  /** The heading and the details, one per line: the in-app notification's content. */
  content: string;
  /** One line for a list of several events: `Ada changed the status: to-do → done`. */
  line: string;
  taskUrl: string;
}

/** The notification type of a mention (the original service's name). */
export const MENTION_TYPE = 'task_mention';
/** The notification types of a due date coming up and of a due date passed (the original's names). */
export const REMINDER_TYPE = 'due_date_reminder';
export const OVERDUE_TYPE = 'task_overdue';
const TYPE_OF: Partial<Record<string, string>> = { taskDueSoon: REMINDER_TYPE, taskOverdue: OVERDUE_TYPE };

/**
 * Who a notification is for: the assignee (`your task`), a watcher (`a task you watch`), or
 * someone the event's text mentions (`task_mention`).
 */
export interface Audience {
  userId: string;
  mentioned: boolean;
}

/** Longest comment or description excerpt in a notification. */
export const EXCERPT = 500;
/** Longest excerpt in the one-line form. */
const LINE_EXCERPT = 120;

const str = (v: unknown): string => (v === null || v === undefined || v === '' ? '—' : String(v));
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `1 h 30 min`, `45 min`, `30 s`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 60) return `${Math.max(0, Math.floor(seconds || 0))} s`;
  const h = Math.floor(seconds / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  if (!h) return `${min} min`;
  return min ? `${h} h ${min} min` : `${h} h`;
}

/** A user's text as people read it: mentions shown as `@Name`, cut to `max`. */
const excerpt = (v: unknown, max: number) => truncate(mentionsAsText(str(v)), max);

/**
 * What `to` is told of `event` (without `to`: the assignee). A mention's text says where they were
 * mentioned and shows it; otherwise the title names the task as theirs or as one they watch.
 */
export function notificationText(event: TaskEvent, clientUrl: string, to?: Audience): NotificationText {
  const heading = `[${event.project.name}] #${event.task.number} ${event.task.title}`;
  const base = { heading, taskUrl: taskUrl(clientUrl, event) };
  if (to?.mentioned) {
    const m = mentionText(event);
    return { ...base, type: MENTION_TYPE, ...m, content: [heading, ...m.details].join('\n') };
  }
  const yours = !to || to.userId.toLowerCase() === event.task.assigneeId?.toLowerCase();
  const t = changeText(event, yours ? 'your task' : 'a task you watch');
  return { ...base, type: TYPE_OF[event.kind] ?? TASK_EVENT_NAMES[event.kind] ?? String(event.kind), ...t, content: [heading, ...t.details].join('\n') };
}

type Told = Pick<NotificationText, 'title' | 'details' | 'line'>;

/** Where the actor mentioned the reader, and the text around it. */
function mentionText(event: TaskEvent): Told {
  const actor = event.actor?.name || NO_ACTOR;
  const d = event.data ?? {};
  const inComment = event.kind === 'taskCommentCreated' || event.kind === 'taskCommentUpdated';
  const text = inComment ? d.content : event.kind === 'taskDescriptionChanged' ? d.newDescription : event.task.description;
  return {
    title: `${actor} mentioned you in ${inComment ? 'a comment' : 'a task description'}`,
    details: [excerpt(text, EXCERPT)],
    line: `${actor} mentioned you: ${truncate(oneLine(mentionsAsText(str(text))), LINE_EXCERPT)}`,
  };
}

/** The change from the reader's side: `whose` is `your task` or `a task you watch`. */
function changeText(event: TaskEvent, whose: string): Told {
  const actor = event.actor?.name || NO_ACTOR;
  const d = event.data ?? {};
  let title: string;
  let details: string[];
  let line: string;
  switch (event.kind) {
    case 'taskCreated':
      title = `${actor} created a task for you`;
      details = event.task.description ? [excerpt(event.task.description, EXCERPT)] : [];
      line = `${actor} created the task`;
      break;
    case 'taskAssigned':
      title = `${actor} assigned a task to you`;
      details = [];
      line = `${actor} assigned it to you`;
      break;
    case 'taskStatusChanged':
      title = `${actor} changed the status of ${whose}`;
      details = [`Status: ${str(d.oldStatus)} \u2192 ${str(d.newStatus)}`];
      line = `${actor} changed the status: ${str(d.oldStatus)} \u2192 ${str(d.newStatus)}`;
      break;
    case 'taskCommentCreated':
      title = `${actor} commented on ${whose}`;
      details = [excerpt(d.content, EXCERPT)];
      line = `${actor} commented: ${truncate(oneLine(mentionsAsText(str(d.content))), LINE_EXCERPT)}`;
      break;
    case 'timeEntryCreated': {
      title = `${actor} logged time on ${whose}`;
      const running = d.endTime === null || d.endTime === undefined;
      const span = running ? `timer started ${utcMinute(d.startTime)}` : `${formatDuration(Number(d.duration))} from ${utcMinute(d.startTime)}`;
      details = [`Time: ${span}`, ...(d.description ? [excerpt(d.description, EXCERPT)] : [])];
      line = running ? `${actor} started a timer` : `${actor} logged ${formatDuration(Number(d.duration))}`;
      break;
    }
    case 'taskDueSoon':
      title = `${cap(whose)} is due ${utcMinute(d.dueDate)}`;
      details = [`Due: ${utcMinute(d.dueDate)}`];
      line = `Due ${utcMinute(d.dueDate)}`;
      break;
    case 'taskOverdue':
      title = `${cap(whose)} is overdue`;
      details = [`Due: ${utcMinute(d.dueDate)}`];
      line = `Overdue since ${utcMinute(d.dueDate)}`;
      break;
    default:
      title = `${actor} changed ${whose}`;
      details = [];
      line = `${actor} changed the task`;
  }
  return { title, details, line };
}

/** Lines listed in one message about several events; the rest are counted. */
export const BATCH_LINES = 20;

/** One message about one or several events of one task (a burst), for the email and push channels. */
export interface MessageText {
  /** The push title; the email's first line. */
  title: string;
  /** The task heading (of the latest event: the task as it is now). */
  heading: string;
  /** The lines under the heading: the details of one event, or one line per event of a burst. */
  lines: string[];
  /** Heading and lines, one per line: the push message. */
  body: string;
  taskUrl: string;
  count: number;
}

/** The message for `texts` (oldest first, at least one). */
export function messageText(texts: readonly NotificationText[]): MessageText {
  const last = texts[texts.length - 1];
  if (texts.length === 1) {
    return { title: last.title, heading: last.heading, lines: last.details, body: last.content, taskUrl: last.taskUrl, count: 1 };
  }
  const listed = texts.slice(0, BATCH_LINES).map((t) => t.line);
  if (texts.length > BATCH_LINES) listed.push(`\u2026 and ${texts.length - BATCH_LINES} more`);
  return {
    title: `${texts.length} updates on your task`,
    heading: last.heading,
    lines: listed,
    body: [last.heading, ...listed].join('\n'),
    taskUrl: last.taskUrl,
    count: texts.length,
  };
}
