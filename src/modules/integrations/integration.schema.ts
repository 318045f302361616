import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { FlagProp, IdProp, IntProp, TextProp, TimeProp } from '../../common/http/schema-props';
import { EVENT_FLAGS } from '../task/task-event';

/** Events (docs/records.md, "Events"): the six kinds and the five more, each a boolean (declared from EVENT_FLAGS). */
@ApiSchema({ name: 'IntegrationEvents' })
export class IntegrationEventsSchema {}
for (const kind of EVENT_FLAGS) ApiProperty({ type: Boolean })(IntegrationEventsSchema.prototype, kind);

class IntegrationHead {
  @IdProp() id: string;
  @IdProp() projectId: string;
}

/** Messenger integration record (MessengerIntegrationRecord). */
@ApiSchema({ name: 'MessengerIntegration' })
export class MessengerIntegrationSchema extends IntegrationHead {
  @TextProp({ nullable: true }) chatId: string | null;
  @IntProp({ nullable: true }) threadId: number | null;
  @TextProp({ nullable: true }) chatLabel: string | null;
  @FlagProp() botTokenConfigured: boolean;
  @TextProp({ nullable: true }) maskedBotToken: string | null;
  @ApiProperty({ type: IntegrationEventsSchema }) events: IntegrationEventsSchema;
  @FlagProp() isActive: boolean;
  @TimeProp() createdAt: string;
  @TimeProp() updatedAt: string;
}

/** Generic webhook integration record (GenericWebhookIntegrationRecord). */
@ApiSchema({ name: 'GenericWebhookIntegration' })
export class GenericWebhookIntegrationSchema extends IntegrationHead {
  @FlagProp() webhookConfigured: boolean;
  @TextProp({ nullable: true }) maskedWebhookUrl: string | null;
  @FlagProp() secretConfigured: boolean;
  @TextProp({ nullable: true }) maskedSecret: string | null;
  @IntProp({ description: 'minutes before a due date that task.due_date_reminder goes out (default 1440)' }) dueDateReminderLeadTimeMinutes: number;
  @ApiProperty({ type: IntegrationEventsSchema }) events: IntegrationEventsSchema;
  @FlagProp() isActive: boolean;
  @TimeProp() createdAt: string;
  @TimeProp() updatedAt: string;
}

/** Teamchat and communitychat integration record (ChatWebhookIntegrationRecord, one shape). */
@ApiSchema({ name: 'ChatWebhookIntegration' })
export class ChatWebhookIntegrationSchema extends IntegrationHead {
  @TextProp({ nullable: true }) channelName: string | null;
  @FlagProp() webhookConfigured: boolean;
  @TextProp({ nullable: true }) maskedWebhookUrl: string | null;
  @ApiProperty({ type: IntegrationEventsSchema }) events: IntegrationEventsSchema;
  @FlagProp() isActive: boolean;
  @TimeProp() createdAt: string;
  @TimeProp() updatedAt: string;
}
