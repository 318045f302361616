import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CryptoService } from '../../common/crypto/crypto.service';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { DestinationGuard, DestinationRefusedError } from '../../common/net/destination-guard';
import { isUuid } from '../../common/pipes/id.pipe';
import { secretChange } from '../integrations/secret-rotation';
import { MemberRepository } from '../organization/member.repository';
import { WorkspaceRepository } from '../organization/workspace.repository';
import { ProjectService } from '../project/project.service';
import { channelEnabled, ProjectMode, USER_CHANNELS } from './channel-rules';
import { UpdateNotificationPreferencesDto, WorkspaceRuleDto } from './dto/notification-preferences.dto';
import { DEFAULT_PREFERENCES, NotificationPreferencesRecord, PreferenceRow, RuleRow, toPreferencesRecord, toWorkspaceRuleRecord } from './notification-preferences.record';
import { NotificationPreferencesRepository, PreferenceColumns, RuleColumns } from './notification-preferences.repository';

export const WORKSPACE_NOT_FOUND = 'Workspace not found';
export const RULE_NOT_FOUND = 'Workspace rule not found';
export const SELECTED_WITHOUT_PROJECTS = 'selectedProjectIds must not be empty when projectMode is selected';
export const FOREIGN_PROJECT = 'selectedProjectIds must only hold projects of this workspace';
export const enableGloballyFirst = (channel: string) => `Enable ${channel} notifications globally before using them here`;

/** `""` and null both mean "none". */
const orNull = (v: string | null | undefined): string | null | undefined => (v === '' ? null : v);

/**
 * A user's notification preferences (docs/notifications.md): the global channels and the
 * workspace rules. Every operation answers the whole record. Tokens and secrets are encrypted
 * before they reach the repository and leave it only as masks; URLs pass the destination guard
 * before anything is written.
 */
@Injectable()
export class NotificationPreferencesService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly prefs: NotificationPreferencesRepository,
    private readonly members: MemberRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly projects: ProjectService,
    private readonly crypto: CryptoService,
    private readonly destinations: DestinationGuard,
  ) {}

  async get(user: AuthUser): Promise<NotificationPreferencesRecord> {
    return this.record(user, await this.prefs.findPreferences(user.id));
  }

  /** Merges the fields sent into the stored preferences (created with the defaults on first save). */
  async update(user: AuthUser, dto: UpdateNotificationPreferencesDto): Promise<NotificationPreferencesRecord> {
    for (const url of [dto.topicpushServerUrl, dto.serverpushServerUrl, dto.webhookUrl]) if (url) await this.checkDestination(url);
    const row = await this.ds.transaction(async (m) => {
      const current = await this.prefs.lockPreferences(user.id, m);
      const values: Partial<PreferenceColumns> = {
        email_enabled: dto.emailEnabled,
        topicpush_enabled: dto.topicpushEnabled,
        topicpush_server_url: orNull(dto.topicpushServerUrl),
        topicpush_topic: orNull(dto.topicpushTopic),
        topicpush_token: this.sealed(dto.topicpushToken),
        serverpush_enabled: dto.serverpushEnabled,
        serverpush_server_url: orNull(dto.serverpushServerUrl),
        serverpush_token: this.sealed(dto.serverpushToken),
        webhook_enabled: dto.webhookEnabled,
        webhook_url: orNull(dto.webhookUrl),
        due_date_reminder_enabled: dto.dueDateReminderEnabled,
        due_date_reminder_lead_minutes: dto.dueDateReminderLeadTimeMinutes,
        ...(dto.webhookSecret === undefined ? {} : this.webhookSecretColumns(current, dto.webhookSecret || null)),
      };
      return this.prefs.updatePreferences(user.id, values, m);
    });
    return this.record(user, row);
  }

  /**
   * Creates or updates the caller's rule for the workspace. The fields sent are laid over the
   * stored rule, or over the defaults of a new one (active, each channel as it is globally, all
   * projects). A channel flag sent `true` must be on globally.
   */
  async saveRule(user: AuthUser, workspaceId: string, dto: WorkspaceRuleDto): Promise<NotificationPreferencesRecord> {
    await this.assertMember(workspaceId, user.id);
    const global = (await this.prefs.findPreferences(user.id)) ?? DEFAULT_PREFERENCES;
    const off = USER_CHANNELS.filter((c) => dto[`${c}Enabled`] === true && !channelEnabled(global, c));
    if (off.length) throw new BadRequestException(off.map(enableGloballyFirst).join(', '));
    if (dto.selectedProjectIds?.length) {
      const ids = dto.selectedProjectIds;
      if (!ids.every(isUuid) || !(await this.projects.allInWorkspace(workspaceId, ids))) throw new BadRequestException(FOREIGN_PROJECT);
    }
    await this.ds.transaction(async (m) => {
      const current = await this.prefs.lockRule(workspaceId, user.id, m);
      const base: RuleColumns = current ?? {
        is_active: true,
        email_enabled: global.email_enabled,
        topicpush_enabled: global.topicpush_enabled,
        serverpush_enabled: global.serverpush_enabled,
        webhook_enabled: global.webhook_enabled,
        project_mode: 'all',
        selected_project_ids: [],
      };
      const mode: ProjectMode = dto.projectMode ?? (dto.selectedProjectIds ? (dto.selectedProjectIds.length ? 'selected' : 'all') : base.project_mode);
      const selected = mode === 'all' ? [] : [...new Set((dto.selectedProjectIds ?? base.selected_project_ids).map((id) => id.toLowerCase()))];
      if (mode === 'selected' && !selected.length) throw new BadRequestException(SELECTED_WITHOUT_PROJECTS);
      await this.prefs.saveRule(
        workspaceId,
        user.id,
        {
          is_active: dto.isActive ?? base.is_active,
          email_enabled: dto.emailEnabled ?? base.email_enabled,
          topicpush_enabled: dto.topicpushEnabled ?? base.topicpush_enabled,
          serverpush_enabled: dto.serverpushEnabled ?? base.serverpush_enabled,
          webhook_enabled: dto.webhookEnabled ?? base.webhook_enabled,
          project_mode: mode,
          selected_project_ids: selected,
        },
        m,
      );
    });
    return this.get(user);
  }

  async deleteRule(user: AuthUser, workspaceId: string): Promise<NotificationPreferencesRecord> {
    await this.assertMember(workspaceId, user.id);
    if (!(await this.prefs.deleteRule(workspaceId, user.id))) throw new NotFoundException(RULE_NOT_FOUND);
    return this.get(user);
  }

  /** A workspace the caller is not a member of does not exist for them (also a malformed id). */
  private async assertMember(workspaceId: string, userId: string): Promise<void> {
    if (!isUuid(workspaceId) || !(await this.members.isMember(workspaceId.toLowerCase(), userId))) throw new NotFoundException(WORKSPACE_NOT_FOUND);
  }

  /** The whole record: the rules of the workspaces the user is a member of, with their names. */
  private async record(user: AuthUser, row: PreferenceRow | undefined): Promise<NotificationPreferencesRecord> {
    const [rules, workspaces] = await Promise.all([this.prefs.listRules(user.id), this.workspaces.listOfUser(user.id)]);
    const names = new Map(workspaces.map((w) => [w.id, w.name]));
    const visible = rules.filter((r: RuleRow) => names.has(r.workspace_id)).map((r) => toWorkspaceRuleRecord(r, names.get(r.workspace_id)!));
    return toPreferencesRecord(
      user.email,
      row,
      {
        topicpushToken: this.crypto.decryptNullable(row?.topicpush_token),
        serverpushToken: this.crypto.decryptNullable(row?.serverpush_token),
        webhookSecret: this.crypto.decryptNullable(row?.webhook_secret),
      },
      visible,
    );
  }

  /** A token as written: undefined = unchanged, null or "" = removed, else sealed. */
  private sealed(v: string | null | undefined): string | null | undefined {
    return v === undefined ? undefined : this.crypto.encryptNullable(v);
  }

  /** The webhook secret columns for a write naming `next` (null = none), rotating as docs/notifications.md says. */
  private webhookSecretColumns(current: PreferenceRow, next: string | null): Partial<PreferenceColumns> {
    switch (secretChange(this.crypto.decryptNullable(current.webhook_secret), next)) {
      case 'keep':
        return {};
      case 'set':
        return { webhook_secret: this.crypto.encrypt(next!), webhook_previous_secret: null, webhook_secret_replaced_at: null };
      case 'replace':
        return { webhook_secret: this.crypto.encrypt(next!), webhook_previous_secret: current.webhook_secret, webhook_secret_replaced_at: 'now' };
      case 'remove':
        return { webhook_secret: null, webhook_previous_secret: null, webhook_secret_replaced_at: null };
    }
  }

  /** The destination guard's save-time check; a refusal is a 400 with its message (which holds no secret). */
  private async checkDestination(url: string): Promise<void> {
    try {
      await this.destinations.check(url);
    } catch (err) {
      if (err instanceof DestinationRefusedError) throw new BadRequestException(err.message);
      throw err;
    }
  }
}
