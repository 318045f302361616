import { changeText, EventView } from './event-view';
import { escapeHtml, truncate } from './text';

/** The messenger's sendMessage body (docs/integrations.md, "Delivery formats and retries"). */
export interface MessengerMessage {
  chat_id: string;
  text: string;
  parse_mode: 'HTML';
  message_thread_id?: number;
}

/** The messenger refuses longer messages; the user text in a view is already cut well below it. */
const MAX_TEXT = 4096;

/**
 * `<b>[Project] #12 Title</b>`, the summary, a line per change and a link to the task; every
 * user-supplied value HTML-escaped. The thread id is sent only when the integration has one.
 */
export function messengerMessage(view: EventView, target: { chatId: string; threadId: number | null }): MessengerMessage {
  const lines = [
    `<b>${escapeHtml(truncate(view.heading, 300))}</b>`,
    escapeHtml(view.summary),
    ...view.changes.map((c) => changeText(c, escapeHtml)),
    `<a href="${escapeHtml(view.taskUrl)}">Open task</a>`,
  ];
  let text = lines.join('\n');
  // Only reachable with pathological input (each piece is already cut): drop the change lines.
  if (text.length > MAX_TEXT) text = [lines[0], lines[1], lines[lines.length - 1]].join('\n');
  const message: MessengerMessage = { chat_id: target.chatId, text, parse_mode: 'HTML' };
  if (target.threadId !== null && target.threadId !== undefined) message.message_thread_id = target.threadId;
  return message;
}
