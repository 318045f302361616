import { maskBotToken, maskSecret, maskUrl } from '../../common/crypto/mask';
import { iso } from '../../database/sql';
import { INTEGRATION_CHANNELS, IntegrationChannel } from '../delivery/channels';
import { EVENT_FLAGS, EventFlag } from '../task/task-event';

/** The notifying integrations of a project (docs/integrations.md), one of each per project: the delivery channels to an integration (src/modules/delivery/channels.ts). */
export const INTEGRATION_TYPES: readonly IntegrationType[] = INTEGRATION_CHANNELS;
export type IntegrationType = IntegrationChannel;

/** Which task events an integration forwards: the six kinds and the five more, each a boolean. */
export type Events = Record<EventFlag, boolean>;

/** The events of an integration created without `events` (docs/integrations.md, "Events selection"). */
export const DEFAULT_EVENTS: Readonly<Events> = Object.freeze({
  taskCreated: true,
  taskStatusChanged: true,
  taskPriorityChanged: false,
  taskTitleChanged: false,
  taskDescriptionChanged: false,
  taskCommentCreated: true,
  taskDeleted: false,
  taskMoved: false,
  taskDueDateChanged: false,
  taskAssigneeChanged: false,
  dueDateReminder: false,
});

/** Exactly the flags, as booleans, whatever else a stored object holds (a flag never stored is false). */
export const eventsOf = (stored: Partial<Record<string, unknown>> | null | undefined): Events => Object.fromEntries(EVENT_FLAGS.map((k) => [k, stored?.[k] === true])) as Events;

/** integration as selected by INTEGRATION_FIELDS; the secret columns hold ciphertext. */
export interface IntegrationRow {
  id: string;
  workspace_id: string;
  project_id: string;
  type: IntegrationType;
  is_active: boolean;
  events: Record<string, unknown>;
  chat_id: string | null;
  thread_id: number | null;
  chat_label: string | null;
  channel_name: string | null;
  bot_token: string | null;
  webhook_url: string | null;
  secret: string | null;
  previous_secret: string | null;
  secret_replaced_at: Date | null;
  /** How long before a due date the reminder goes out (the generic webhook chooses it; the others a day). */
  due_date_reminder_lead_minutes: number;
  created_at: Date;
  updated_at: Date;
}

export const INTEGRATION_FIELDS =
  'id, workspace_id, project_id, type, is_active, events, chat_id, thread_id, chat_label, channel_name, bot_token, webhook_url, secret, previous_secret, secret_replaced_at, due_date_reminder_lead_minutes, created_at, updated_at';

/** The secrets of a row, decrypted: only ever used to compute masks and compare, never answered. */
export interface ClearSecrets {
  botToken: string | null;
  webhookUrl: string | null;
  secret: string | null;
}

interface Common {
  id: string;
  projectId: string;
  events: Events;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Messenger integration record (docs/integrations.md, "Records"). */
export interface MessengerIntegrationRecord extends Common {
  chatId: string | null;
  threadId: number | null;
  chatLabel: string | null;
  botTokenConfigured: boolean;
  maskedBotToken: string | null;
}

/** Generic webhook integration record. */
export interface GenericWebhookIntegrationRecord extends Common {
  webhookConfigured: boolean;
  maskedWebhookUrl: string | null;
  secretConfigured: boolean;
  maskedSecret: string | null;
  /** Minutes before a due date that `task.due_date_reminder` goes out. */
  dueDateReminderLeadTimeMinutes: number;
}

/** Teamchat and communitychat integration record (same shape). */
export interface ChatWebhookIntegrationRecord extends Common {
  channelName: string | null;
  webhookConfigured: boolean;
  maskedWebhookUrl: string | null;
}

export type IntegrationRecord = MessengerIntegrationRecord | GenericWebhookIntegrationRecord | ChatWebhookIntegrationRecord;

/** The record of a row of any type, field for field in the order docs/integrations.md lists them. */
export function toIntegrationRecord(r: IntegrationRow, clear: ClearSecrets): IntegrationRecord {
  const head = { id: r.id, projectId: r.project_id };
  const tail = { events: eventsOf(r.events), isActive: r.is_active, createdAt: iso(r.created_at)!, updatedAt: iso(r.updated_at)! };
  const webhook = { webhookConfigured: clear.webhookUrl !== null, maskedWebhookUrl: clear.webhookUrl === null ? null : maskUrl(clear.webhookUrl) };
  switch (r.type) {
    case 'messenger':
      return {
        ...head,
        chatId: r.chat_id,
        threadId: r.thread_id,
        chatLabel: r.chat_label,
        botTokenConfigured: clear.botToken !== null,
        maskedBotToken: clear.botToken === null ? null : maskBotToken(clear.botToken),
        ...tail,
      };
    case 'generic-webhook':
      return {
        ...head,
        ...webhook,
        secretConfigured: clear.secret !== null,
        maskedSecret: clear.secret === null ? null : maskSecret(clear.secret),
        dueDateReminderLeadTimeMinutes: r.due_date_reminder_lead_minutes,
        ...tail,
      };
    default:
      return { ...head, channelName: r.channel_name, ...webhook, ...tail };
  }
}
