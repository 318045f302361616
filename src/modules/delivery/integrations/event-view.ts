import { mentionsAsText } from '../../task/mentions';
import { integrationEventName, TaskEvent } from '../../task/task-event';
import { truncate, utcMinute } from './text';

/** One line of what changed, as plain (unescaped) text pieces; each format escapes and styles them. */
export type ChangeLine = { label: string; from: string; to: string } | { text: string };

/**
 * What every channel shows of an event, before any escaping: the same facts in each format
 * (docs/integrations.md, "Delivery formats and retries").
 */
export interface EventView {
  /** The wire name, e.g. `task.status_changed`. */
  event: string;
  /** `[Project] #12 Title`. */
  heading: string;
  /** `Ada changed the status`. */
  summary: string;
  changes: ChangeLine[];
  taskUrl: string;
  actorName: string;
  project: { id: string; name: string };
  task: { id: string; number: number; title: string; status: string; priority: string };
}

/** Who a change without a user behind it is shown as. */
export const NO_ACTOR = 'Tandem';
/** Long user text (a description, a comment) is cut to this many characters in chat messages. */
export const TEXT_EXCERPT = 500;

export const taskUrl = (clientUrl: string, event: Pick<TaskEvent, 'project' | 'task'>): string => `${clientUrl}/projects/${event.project.id}/tasks/${event.task.id}`;

const str = (v: unknown): string => (v === null || v === undefined || v === '' ? '—' : String(v));
/** A user's text (description, comment) as people read it: mentions as `@Name`, cut for a chat message. */
const userText = (v: unknown): string => truncate(mentionsAsText(str(v)), TEXT_EXCERPT);

export function eventView(event: TaskEvent, clientUrl: string): EventView {
  const actorName = event.actor?.name || NO_ACTOR;
  const d = event.data ?? {};
  let summary: string;
  let changes: ChangeLine[];
  switch (event.kind) {
    case 'taskCreated':
      summary = `${actorName} created the task`;
      changes = event.task.description ? [{ text: userText(event.task.description) }] : [];
      break;
    case 'taskStatusChanged':
      summary = `${actorName} changed the status`;
      changes = [{ label: 'Status', from: str(d.oldStatus), to: str(d.newStatus) }];
      break;
    case 'taskPriorityChanged':
      summary = `${actorName} changed the priority`;
      changes = [{ label: 'Priority', from: str(d.oldPriority), to: str(d.newPriority) }];
      break;
    case 'taskTitleChanged':
      summary = `${actorName} renamed the task`;
      changes = [{ label: 'Title', from: truncate(str(d.oldTitle), TEXT_EXCERPT), to: truncate(str(d.newTitle), TEXT_EXCERPT) }];
      break;
    case 'taskDescriptionChanged':
      summary = `${actorName} changed the description`;
      changes = [{ text: d.newDescription ? userText(d.newDescription) : '(description removed)' }];
      break;
    case 'taskCommentCreated':
      summary = `${actorName} commented`;
      changes = [{ text: userText(d.content) }];
      break;
    case 'taskDeleted':
      summary = `${actorName} deleted the task`;
      changes = [];
      break;
    case 'taskMoved':
      summary = `${actorName} moved the task here from another project`;
      changes = d.oldNumber !== undefined ? [{ label: 'Number', from: `#${str(d.oldNumber)}`, to: `#${str(d.newNumber)}` }] : [];
      break;
    case 'taskDueDateChanged':
      summary = d.newDueDate ? `${actorName} changed the due date` : `${actorName} removed the due date`;
      changes = [{ label: 'Due date', from: utcMinute(d.oldDueDate), to: utcMinute(d.newDueDate) }];
      break;
    case 'taskAssigned':
      summary = `${actorName} changed the assignee`;
      changes = [{ label: 'Assignee', from: str(d.oldUserName), to: str(d.newUserName) }];
      break;
    case 'dueDateReminder':
      summary = `The task is due ${utcMinute(d.dueDate)}`;
      changes = [];
      break;
    case 'taskUnassigned':
      summary = `${actorName} unassigned the task`;
      changes = [{ label: 'Assignee', from: str(d.oldUserName), to: '—' }];
      break;

    default:
      summary = `${actorName} changed the task`;
      changes = [];
  }
  return {
    event: integrationEventName(event.kind) ?? String(event.kind),
    heading: `[${event.project.name}] #${event.task.number} ${event.task.title}`,
    summary,
    changes,
    taskUrl: taskUrl(clientUrl, event),
    actorName,
    project: { id: event.project.id, name: event.project.name },
    task: {
      id: event.task.id,
      number: event.task.number,
      title: event.task.title,
      status: event.task.status,
      priority: event.task.priority,
    },
  };
}

/** A change line as plain text: `Status: to-do → done`. */
export const changeText = (c: ChangeLine, esc: (s: string) => string = (s) => s): string => ('text' in c ? esc(c.text) : `${esc(c.label)}: ${esc(c.from)} \u2192 ${esc(c.to)}`);
