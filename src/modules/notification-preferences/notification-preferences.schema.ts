import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { FlagProp, IdProp, IntProp, TextProp, TimeProp } from '../../common/http/schema-props';
import { PROJECT_MODES, ProjectMode } from './channel-rules';

/** Workspace rule (WorkspaceRuleRecord; docs/records.md, "Workspace rule"). */
@ApiSchema({ name: 'WorkspaceRule' })
export class WorkspaceRuleSchema {
  @IdProp() id: string;
  @IdProp() workspaceId: string;
  @TextProp() workspaceName: string;
  @FlagProp() isActive: boolean;
  @FlagProp() emailEnabled: boolean;
  @FlagProp() topicpushEnabled: boolean;
  @FlagProp() serverpushEnabled: boolean;
  @FlagProp() webhookEnabled: boolean;
  @ApiProperty({ enum: [...PROJECT_MODES] }) projectMode: ProjectMode;
  @ApiProperty({ type: 'array', items: { type: 'string', format: 'uuid' } }) selectedProjectIds: string[];
  @TimeProp() createdAt: string;
  @TimeProp() updatedAt: string;
}

/** Notification preferences record (NotificationPreferencesRecord; docs/records.md). */
@ApiSchema({ name: 'NotificationPreferences' })
export class NotificationPreferencesSchema {
  @TextProp() emailAddress: string;
  @FlagProp() emailEnabled: boolean;
  @FlagProp() topicpushEnabled: boolean;
  @FlagProp() topicpushConfigured: boolean;
  @TextProp({ nullable: true }) topicpushServerUrl: string | null;
  @TextProp({ nullable: true }) topicpushTopic: string | null;
  @FlagProp() topicpushTokenConfigured: boolean;
  @TextProp({ nullable: true }) maskedTopicpushToken: string | null;
  @FlagProp() serverpushEnabled: boolean;
  @FlagProp() serverpushConfigured: boolean;
  @TextProp({ nullable: true }) serverpushServerUrl: string | null;
  @FlagProp() serverpushTokenConfigured: boolean;
  @TextProp({ nullable: true }) maskedServerpushToken: string | null;
  @FlagProp() webhookEnabled: boolean;
  @FlagProp() webhookConfigured: boolean;
  @TextProp({ nullable: true }) webhookUrl: string | null;
  @FlagProp() webhookSecretConfigured: boolean;
  @TextProp({ nullable: true }) maskedWebhookSecret: string | null;
  @FlagProp() dueDateReminderEnabled: boolean;
  @IntProp({ description: 'minutes before the due date' }) dueDateReminderLeadTimeMinutes: number;
  @ApiProperty({ type: [WorkspaceRuleSchema] }) workspaces: WorkspaceRuleSchema[];
  @TimeProp({ nullable: true, description: 'null for a user who never saved any' }) createdAt: string | null;
  @TimeProp({ nullable: true, description: 'null for a user who never saved any' }) updatedAt: string | null;
}
