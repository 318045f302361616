import { maskSecret } from '../../common/crypto/mask';
import { DEFAULT_REMINDER_LEAD_MINUTES } from '../../common/validation/reminder-lead-time';
import { iso } from '../../database/sql';
import { channelConfigured, GlobalChannels, ProjectMode, RuleChannels } from './channel-rules';

/** notification_preference as selected by PREFERENCE_FIELDS; the token and secret columns hold ciphertext. */
export interface PreferenceRow extends GlobalChannels {
  user_id: string;
  topicpush_token: string | null;
  webhook_secret: string | null;
  webhook_previous_secret: string | null;
  webhook_secret_replaced_at: Date | null;
  /** Due-date reminders and overdue notices (docs/notifications.md, "Due dates"). */
  due_date_reminder_enabled: boolean;
  /** How long before the due date the reminder comes, in minutes. */
  due_date_reminder_lead_minutes: number;
  created_at: Date;
  updated_at: Date;
}

export const PREFERENCE_FIELDS =
  'user_id, email_enabled, topicpush_enabled, topicpush_server_url, topicpush_topic, topicpush_token, serverpush_enabled, serverpush_server_url, serverpush_token, ' +
  'webhook_enabled, webhook_url, webhook_secret, webhook_previous_secret, webhook_secret_replaced_at, due_date_reminder_enabled, due_date_reminder_lead_minutes, created_at, updated_at';

/** notification_rule as selected by RULE_FIELDS. */
export interface RuleRow extends RuleChannels {
  id: string;
  user_id: string;
  workspace_id: string;
  project_mode: ProjectMode;
  selected_project_ids: string[];
  created_at: Date;
  updated_at: Date;
}

export const RULE_FIELDS =
  'id, user_id, workspace_id, is_active, email_enabled, topicpush_enabled, serverpush_enabled, webhook_enabled, project_mode, selected_project_ids, created_at, updated_at';

/** The preferences of a user who never saved any: every channel off, nothing configured. */
export const DEFAULT_PREFERENCES: Readonly<Omit<PreferenceRow, 'user_id' | 'created_at' | 'updated_at'>> = Object.freeze({
  email_enabled: false,
  topicpush_enabled: false,
  topicpush_server_url: null,
  topicpush_topic: null,
  topicpush_token: null,
  serverpush_enabled: false,
  serverpush_server_url: null,
  serverpush_token: null,
  webhook_enabled: false,
  webhook_url: null,
  webhook_secret: null,
  webhook_previous_secret: null,
  webhook_secret_replaced_at: null,
  due_date_reminder_enabled: true,
  due_date_reminder_lead_minutes: DEFAULT_REMINDER_LEAD_MINUTES,
});

/** Workspace rule (docs/notifications.md, "Records"). */
export interface WorkspaceRuleRecord {
  id: string;
  workspaceId: string;
  workspaceName: string;
  isActive: boolean;
  emailEnabled: boolean;
  topicpushEnabled: boolean;
  serverpushEnabled: boolean;
  webhookEnabled: boolean;
  projectMode: ProjectMode;
  selectedProjectIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** Notification preferences record (docs/notifications.md, "Records"). */
export interface NotificationPreferencesRecord {
  emailAddress: string;
  emailEnabled: boolean;
  topicpushEnabled: boolean;
  topicpushConfigured: boolean;
  topicpushServerUrl: string | null;
  topicpushTopic: string | null;
  topicpushTokenConfigured: boolean;
  maskedTopicpushToken: string | null;
  serverpushEnabled: boolean;
  serverpushConfigured: boolean;
  serverpushServerUrl: string | null;
  serverpushTokenConfigured: boolean;
  maskedServerpushToken: string | null;
  webhookEnabled: boolean;
  webhookConfigured: boolean;
  webhookUrl: string | null;
  webhookSecretConfigured: boolean;
  maskedWebhookSecret: string | null;
  dueDateReminderEnabled: boolean;
  dueDateReminderLeadTimeMinutes: number;
  workspaces: WorkspaceRuleRecord[];
  createdAt: string | null;
  updatedAt: string | null;
}

/** The secrets of a preferences row, decrypted: only ever used to compute masks, never answered. */
export interface ClearPreferenceSecrets {
  topicpushToken: string | null;
  serverpushToken: string | null;
  webhookSecret: string | null;
}

const masked = (v: string | null) => (v === null ? null : maskSecret(v));

export const toWorkspaceRuleRecord = (r: RuleRow, workspaceName: string): WorkspaceRuleRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  workspaceName,
  isActive: r.is_active,
  emailEnabled: r.email_enabled,
  topicpushEnabled: r.topicpush_enabled,
  serverpushEnabled: r.serverpush_enabled,
  webhookEnabled: r.webhook_enabled,
  projectMode: r.project_mode,
  selectedProjectIds: r.selected_project_ids,
  createdAt: iso(r.created_at)!,
  updatedAt: iso(r.updated_at)!,
});

/** The record of a user's preferences (`row` undefined: never saved, the defaults, timestamps null). */
export function toPreferencesRecord(
  emailAddress: string,
  row: PreferenceRow | undefined,
  clear: ClearPreferenceSecrets,
  workspaces: WorkspaceRuleRecord[],
): NotificationPreferencesRecord {
  const p = row ?? DEFAULT_PREFERENCES;
  return {
    emailAddress,
    emailEnabled: p.email_enabled,
    topicpushEnabled: p.topicpush_enabled,
    topicpushConfigured: channelConfigured(p, 'topicpush'),
    topicpushServerUrl: p.topicpush_server_url,
    topicpushTopic: p.topicpush_topic,
    topicpushTokenConfigured: clear.topicpushToken !== null,
    maskedTopicpushToken: masked(clear.topicpushToken),
    serverpushEnabled: p.serverpush_enabled,
    serverpushConfigured: channelConfigured(p, 'serverpush'),
    serverpushServerUrl: p.serverpush_server_url,
    serverpushTokenConfigured: clear.serverpushToken !== null,
    maskedServerpushToken: masked(clear.serverpushToken),
    webhookEnabled: p.webhook_enabled,
    webhookConfigured: channelConfigured(p, 'webhook'),
    webhookUrl: p.webhook_url,
    webhookSecretConfigured: clear.webhookSecret !== null,
    maskedWebhookSecret: masked(clear.webhookSecret),
    dueDateReminderEnabled: p.due_date_reminder_enabled,
    dueDateReminderLeadTimeMinutes: p.due_date_reminder_lead_minutes,
    workspaces,
    createdAt: iso(row?.created_at),
    updatedAt: iso(row?.updated_at),
  };
}
