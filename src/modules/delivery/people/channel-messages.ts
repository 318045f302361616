import { escapeHtml } from '../../../common/text/html';
import { genericWebhookBody, genericWebhookHeaders } from '../integrations/generic-webhook.format';
import { OutboundRequest } from '../../../common/net/outbound-http';
import { truncate } from '../integrations/text';
import { EmailMessage } from '../../mail/email.types';
import { TaskEvent } from '../../task/task-event';
import { MessageText } from './notification-text';

/**
 * What each of a user's channels receives (docs/notifications.md, "What each channel receives"):
 * the topicpush and serverpush requests, the user webhook's signed request and the email. Pure.
 */

const USER_AGENT = 'Tandem-Delivery';

/** Where a user chooses which notifications they get (the link in every email's footer). */
export const preferencesUrl = (clientUrl: string): string => `${clientUrl}/settings/notifications`;

/** A push body stays well under the topicpush servers' 4096-byte message limit (4 bytes per character at most). */
export const PUSH_BODY_MAX = 1000;
const PUSH_TITLE_MAX = 200;

/** `server` with the path `tail` appended (one slash between them). */
const under = (server: string, tail: string) => `${server.replace(/\/+$/, '')}/${tail}`;

/**
 * A header value from user text: no line breaks or control characters; printable ASCII as it is,
 * anything else as an RFC 2047 encoded word (`=?UTF-8?B?…?=`), which the topicpush servers decode.
 */
export function headerText(s: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
  const flat = s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return /^[\x20-\x7e]*$/.test(flat) ? flat : `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}

/** A URL as an ASCII header value (non-ASCII hosts and paths encoded). */
const asciiUrl = (url: string): string => {
  try {
    return new URL(url).href;
  } catch {
    return headerText(url);
  }
};

export interface TopicpushSettings {
  serverUrl: string;
  topic: string;
  token: string | null;
}

/** `POST {server}/{topic}`: the message as plain text, `Title`, `Click` (the task), `Authorization: Bearer` when a token is set. */
export function topicpushRequest(s: TopicpushSettings, msg: MessageText): OutboundRequest {
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    'user-agent': USER_AGENT,
    Title: headerText(truncate(msg.title, PUSH_TITLE_MAX)),
    Click: asciiUrl(msg.taskUrl),
  };
  if (s.token) headers.Authorization = `Bearer ${s.token}`;
  return { url: under(s.serverUrl, encodeURIComponent(s.topic)), headers, body: truncate(msg.body, PUSH_BODY_MAX) };
}

export interface ServerpushSettings {
  serverUrl: string;
  token: string;
}

/** `POST {server}/message?token=…` with `{title, message, priority: 5}`. */
export function serverpushRequest(s: ServerpushSettings, msg: MessageText): OutboundRequest {
  return {
    url: under(s.serverUrl, `message?token=${encodeURIComponent(s.token)}`),
    headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
    body: JSON.stringify({ title: truncate(msg.title, PUSH_TITLE_MAX), message: truncate(`${msg.body}\n${msg.taskUrl}`, PUSH_BODY_MAX), priority: 5 }),
  };
}

/**
 * The user webhook: the generic webhook's body, its `event` the notification's type (the event's
 * wire name, or `task_mention`), and Standard Webhooks headers (webhook-id = the delivery id,
 * signed with the current secret and, within 24 h of a replacement, the previous one).
 */
export function userWebhookRequest(
  url: string,
  secrets: readonly string[],
  delivery: { id: string; event: string; payload: TaskEvent },
  clientUrl: string,
  nowSeconds: number,
): OutboundRequest {
  const body = JSON.stringify(genericWebhookBody(delivery.payload, clientUrl, delivery.event));
  return { url, headers: { 'user-agent': USER_AGENT, ...genericWebhookHeaders(delivery.id, nowSeconds, body, secrets) }, body };
}

/** A subject line: no line breaks, bounded. */
const subjectLine = (s: string, max = 200) =>
  truncate(
    s
      .replace(/[\r\n\t]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
    max,
  );

/** The notification email: plain text and HTML, the task link, and the preferences link in the footer. */
export function notificationEmail(to: string, msg: MessageText, prefsUrl: string): EmailMessage {
  const subject = subjectLine(msg.count === 1 ? `${msg.heading}: ${msg.title}` : `${msg.heading}: ${msg.count} updates`);
  const bullet = msg.count > 1 ? '- ' : '';
  const text = [
    `${msg.title}.`,
    '',
    msg.heading,
    ...msg.lines.map((l) => `${bullet}${l}`),
    '',
    `Open the task: ${msg.taskUrl}`,
    '',
    '-- ',
    'You get this email because a task assigned to you changed on Tandem.',
    `Choose which notifications you get, or turn emails off: ${prefsUrl}`,
    '',
  ].join('\n');
  const e = escapeHtml;
  const lines =
    msg.count > 1 ? `<ul>${msg.lines.map((l) => `<li>${e(l)}</li>`).join('')}</ul>` : msg.lines.map((l) => `<p style="white-space: pre-wrap">${e(l)}</p>`).join('\n    ');
  const html = `<!doctype html>
<html>
  <body style="font-family: sans-serif; line-height: 1.5">
    <p>${e(msg.title)}.</p>
    <p><strong>${e(msg.heading)}</strong></p>
    ${lines}
    <p><a href="${e(msg.taskUrl)}">Open the task</a></p>
    <hr>
    <p style="color: #666; font-size: small">You get this email because a task assigned to you changed on Tandem.
    <a href="${e(prefsUrl)}">Choose which notifications you get, or turn emails off</a>.</p>
  </body>
</html>
`;
  return { to, subject, text, html };
}
