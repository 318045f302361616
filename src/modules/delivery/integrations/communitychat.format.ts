import { EventKind } from '../../task/task-event';
import { changeText, EventView } from './event-view';
import { charLength, neutraliseMentions, truncate } from './text';

/** The communitychat's limits (characters). */
export const COMMUNITYCHAT_LIMITS = { content: 2000, title: 256, description: 4096, fieldName: 256, fieldValue: 1024, footer: 2048, embedTotal: 6000 };

const COLORS: Partial<Record<EventKind, number>> = {
  taskCreated: 0x2ecc71,
  taskStatusChanged: 0x3498db,
  taskPriorityChanged: 0xe67e22,
  taskTitleChanged: 0x95a5a6,
  taskDescriptionChanged: 0x95a5a6,
  taskCommentCreated: 0x9b59b6,
  taskDeleted: 0xe74c3c,
  taskMoved: 0x1abc9c,
  taskDueDateChanged: 0xf1c40f,
  taskAssigned: 0x34495e,
  taskUnassigned: 0x34495e,
  dueDateReminder: 0xe67e22,
};

export interface CommunitychatMessage {
  content: string;
  embeds: Array<{
    title: string;
    description: string;
    url: string;
    color: number;
    fields: Array<{ name: string; value: string; inline: boolean }>;
    footer: { text: string };
  }>;
  allowed_mentions: { parse: never[] };
}

/** User text: mentions neutralised, then cut to `max`. */
const safe = (s: string, max: number) => truncate(neutraliseMentions(s || '—'), max);

/**
 * A webhook message with one embed. Every piece of user text has its mentions neutralised, and
 * `allowed_mentions: {parse: []}` tells the service to ping nobody even if one got through.
 * Lengths respect the service's limits (title 256, description 4096, field value 1024, an embed
 * 6000 in all), cut with ….
 */
export function communitychatMessage(view: EventView, kind: EventKind): CommunitychatMessage {
  const L = COMMUNITYCHAT_LIMITS;
  const title = safe(view.heading, L.title);
  const fields = [
    { name: 'Status', value: safe(view.task.status, L.fieldValue), inline: true },
    { name: 'Priority', value: safe(view.task.priority, L.fieldValue), inline: true },
    { name: 'Project', value: safe(view.project.name, L.fieldValue), inline: true },
  ];
  const footer = { text: safe(`Triggered by ${view.actorName}`, L.footer) };
  const used = charLength(title) + fields.reduce((n, f) => n + charLength(f.name) + charLength(f.value), 0) + charLength(footer.text);
  const description = safe([view.summary, ...view.changes.map((c) => changeText(c))].join('\n'), Math.min(L.description, L.embedTotal - used));
  return {
    content: safe(`${view.summary}: ${view.heading}`, L.content),
    embeds: [{ title, description, url: view.taskUrl, color: COLORS[kind] ?? 0x95a5a6, fields, footer }],
    allowed_mentions: { parse: [] },
  };
}
