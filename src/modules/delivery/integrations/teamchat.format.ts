import { changeText, EventView } from './event-view';
import { escapeMrkdwn, fitEscaped } from './text';

/** Limits of the teamchat's blocks: a section's text, a field's text. */
const SECTION_MAX = 3000;
const FIELD_MAX = 2000;
const FALLBACK_MAX = 3000;

export interface TeamchatMessage {
  text: string;
  blocks: unknown[];
}

/**
 * An incoming-webhook message: `text` is the plain fallback line (notifications, old clients);
 * blocks: a section with the linked title and what changed, a section with the fields Task,
 * Project, Status and Priority, and a context line naming who triggered it. User text has `&`,
 * `<` and `>` escaped, as mrkdwn requires (they would otherwise open links and mentions).
 */
export function teamchatMessage(view: EventView): TeamchatMessage {
  const body = [view.summary, ...view.changes.map((c) => changeText(c))].join('\n');
  const titleLink = `*<${view.taskUrl}|${fitEscaped(view.heading, 500, escapeMrkdwn)}>*`;
  const field = (label: string, value: string) => ({ type: 'mrkdwn', text: `*${label}*\n${fitEscaped(value || '—', FIELD_MAX - label.length - 4, escapeMrkdwn)}` });
  return {
    text: fitEscaped(`${view.summary}: ${view.heading}`, FALLBACK_MAX, escapeMrkdwn),
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `${titleLink}\n${fitEscaped(body, SECTION_MAX - titleLink.length - 1, escapeMrkdwn)}` },
      },
      {
        type: 'section',
        fields: [
          field('Task', `#${view.task.number} ${view.task.title}`),
          field('Project', view.project.name),
          field('Status', view.task.status),
          field('Priority', view.task.priority),
        ],
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: fitEscaped(`Triggered by ${view.actorName}`, FIELD_MAX, escapeMrkdwn) }] },
    ],
  };
}
