import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, rows } from '../../database/sql';
import { ProjectMode } from './channel-rules';
import { PREFERENCE_FIELDS, PreferenceRow, RULE_FIELDS, RuleRow } from './notification-preferences.record';

/** Preference columns to write. Secret columns take ciphertext; `webhook_secret_replaced_at: 'now'` writes the database's now(). */
export interface PreferenceColumns {
  email_enabled: boolean;
  topicpush_enabled: boolean;
  topicpush_server_url: string | null;
  topicpush_topic: string | null;
  topicpush_token: string | null;
  serverpush_enabled: boolean;
  serverpush_server_url: string | null;
  serverpush_token: string | null;
  webhook_enabled: boolean;
  webhook_url: string | null;
  webhook_secret: string | null;
  webhook_previous_secret: string | null;
  webhook_secret_replaced_at: 'now' | null;
  due_date_reminder_enabled: boolean;
  due_date_reminder_lead_minutes: number;
}

const PREFERENCE_COLUMNS = [
  'email_enabled',
  'topicpush_enabled',
  'topicpush_server_url',
  'topicpush_topic',
  'topicpush_token',
  'serverpush_enabled',
  'serverpush_server_url',
  'serverpush_token',
  'webhook_enabled',
  'webhook_url',
  'webhook_secret',
  'webhook_previous_secret',
  'webhook_secret_replaced_at',
  'due_date_reminder_enabled',
  'due_date_reminder_lead_minutes',
] as const satisfies readonly (keyof PreferenceColumns)[];

/** A rule's columns, all written on every save. */
export interface RuleColumns {
  is_active: boolean;
  email_enabled: boolean;
  topicpush_enabled: boolean;
  serverpush_enabled: boolean;
  webhook_enabled: boolean;
  project_mode: ProjectMode;
  selected_project_ids: string[];
}

/**
 * A user's notification preferences (one row per user who saved any) and their workspace rules
 * (one per user and workspace). Rules take the workspace first, as every tenant's data does.
 */
@Injectable()
export class NotificationPreferencesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  findPreferences(userId: string, m: EntityManager = this.ds.manager): Promise<PreferenceRow | undefined> {
    return firstRow<PreferenceRow>(m, `SELECT ${PREFERENCE_FIELDS} FROM notification_preference WHERE user_id = $1`, [userId]);
  }

  /** The user's row, created with the defaults when missing, locked until the transaction of `m` ends. */
  async lockPreferences(userId: string, m: EntityManager): Promise<PreferenceRow> {
    await rows(m, `INSERT INTO notification_preference (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING`, [userId]);
    return (await firstRow<PreferenceRow>(m, `SELECT ${PREFERENCE_FIELDS} FROM notification_preference WHERE user_id = $1 FOR UPDATE`, [userId]))!;
  }

  /** Writes the given columns (undefined = unchanged) and updated_at. */
  async updatePreferences(userId: string, values: Partial<PreferenceColumns>, m: EntityManager): Promise<PreferenceRow> {
    const params: unknown[] = [userId];
    const set = PREFERENCE_COLUMNS.filter((c) => values[c] !== undefined).map((c) => {
      if (c === 'webhook_secret_replaced_at' && values[c] === 'now') return `${c} = now()`;
      params.push(values[c]);
      return `${c} = $${params.length}`;
    });
    return (await firstRow<PreferenceRow>(
      m,
      `UPDATE notification_preference SET ${[...set, 'updated_at = now()'].join(', ')} WHERE user_id = $1 RETURNING ${PREFERENCE_FIELDS}`,
      params,
    ))!;
  }

  /** Whether the user's webhook's previous secret still signs (replaced less than 24 h ago, by the database's clock). */
  async previousWebhookSecretCurrent(userId: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    const row = await firstRow<{ current: boolean }>(
      m,
      `SELECT (webhook_previous_secret IS NOT NULL AND webhook_secret_replaced_at > now() - interval '24 hours') AS current
         FROM notification_preference WHERE user_id = $1`,
      [userId],
    );
    return row?.current ?? false;
  }

  /** The user's rules, oldest first. */
  listRules(userId: string, m: EntityManager = this.ds.manager): Promise<RuleRow[]> {
    return rows<RuleRow>(m, `SELECT ${RULE_FIELDS} FROM notification_rule WHERE user_id = $1 ORDER BY created_at, id`, [userId]);
  }

  /** The preferences of each of `userIds` who saved any, by user (one statement). */
  async preferencesOf(userIds: readonly string[], m: EntityManager = this.ds.manager): Promise<Map<string, PreferenceRow>> {
    if (!userIds.length) return new Map();
    const found = await rows<PreferenceRow>(m, `SELECT ${PREFERENCE_FIELDS} FROM notification_preference WHERE user_id = ANY($1::uuid[])`, [userIds]);
    return new Map(found.map((r) => [r.user_id, r]));
  }

  /** The rules of `userIds` in the workspace, by user (one statement). */
  async rulesOf(workspaceId: string, userIds: readonly string[], m: EntityManager = this.ds.manager): Promise<Map<string, RuleRow>> {
    if (!userIds.length) return new Map();
    const found = await rows<RuleRow>(m, `SELECT ${RULE_FIELDS} FROM notification_rule WHERE workspace_id = $1 AND user_id = ANY($2::uuid[])`, [workspaceId, userIds]);
    return new Map(found.map((r) => [r.user_id, r]));
  }

  findRule(workspaceId: string, userId: string, m: EntityManager = this.ds.manager): Promise<RuleRow | undefined> {
    return firstRow<RuleRow>(m, `SELECT ${RULE_FIELDS} FROM notification_rule WHERE workspace_id = $1 AND user_id = $2`, [workspaceId, userId]);
  }

  /** The rule, locked until the transaction of `m` ends (saves of the same rule queue behind it). */
  lockRule(workspaceId: string, userId: string, m: EntityManager): Promise<RuleRow | undefined> {
    return firstRow<RuleRow>(m, `SELECT ${RULE_FIELDS} FROM notification_rule WHERE workspace_id = $1 AND user_id = $2 FOR UPDATE`, [workspaceId, userId]);
  }

  /** Creates the rule or overwrites it (a concurrent create lands on the same row). */
  async saveRule(workspaceId: string, userId: string, v: RuleColumns, m: EntityManager): Promise<RuleRow> {
    return (await firstRow<RuleRow>(
      m,
      `INSERT INTO notification_rule (workspace_id, user_id, is_active, email_enabled, topicpush_enabled, serverpush_enabled, webhook_enabled, project_mode, selected_project_ids)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::uuid[])
       ON CONFLICT (user_id, workspace_id) DO UPDATE SET
         is_active = EXCLUDED.is_active, email_enabled = EXCLUDED.email_enabled, topicpush_enabled = EXCLUDED.topicpush_enabled,
         serverpush_enabled = EXCLUDED.serverpush_enabled, webhook_enabled = EXCLUDED.webhook_enabled,
         project_mode = EXCLUDED.project_mode, selected_project_ids = EXCLUDED.selected_project_ids, updated_at = now()
       RETURNING ${RULE_FIELDS}`,
      [workspaceId, userId, v.is_active, v.email_enabled, v.topicpush_enabled, v.serverpush_enabled, v.webhook_enabled, v.project_mode, v.selected_project_ids],
    ))!;
  }

  /** True when there was one to delete. */
  async deleteRule(workspaceId: string, userId: string): Promise<boolean> {
    return (await rows(this.ds.manager, `DELETE FROM notification_rule WHERE workspace_id = $1 AND user_id = $2 RETURNING id`, [workspaceId, userId])).length > 0;
  }
}
