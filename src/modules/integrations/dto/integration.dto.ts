import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, Matches } from 'class-validator';
import { OptionalNotNull, OptionalNullable } from '../../../common/validation/dto-helpers';
import { IsLeadTime, MAX_REMINDER_LEAD_MINUTES } from '../../../common/validation/reminder-lead-time';
import { IsRequiredString } from '../../organization/dto/validators';
import { EventsDto } from './events.dto';
import { BOT_TOKEN, BOT_TOKEN_MESSAGE, IsEvents, IsIntInRange, IsText, IsWebhookUrl } from './validators';

/** Largest value of the integer column behind threadId. */
const INT_MAX = 2_147_483_647;

// ---- messenger ----

export class MessengerIntegrationDto {
  @ApiProperty({ example: '123456789:AAAAbbbbccccddddeeeeffffgggghhhwxyz', pattern: BOT_TOKEN.source, description: 'stored encrypted; never answered' })
  @Matches(BOT_TOKEN, { message: BOT_TOKEN_MESSAGE })
  botToken: string;

  @ApiProperty({ maxLength: 200, example: '-1001234567890' })
  @IsRequiredString({ max: 200 })
  chatId: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, nullable: true, description: 'a topic of the chat' })
  @OptionalNullable()
  @IsIntInRange(1, INT_MAX)
  threadId?: number | null;

  @ApiPropertyOptional({ type: String, maxLength: 200, nullable: true })
  @OptionalNullable()
  @IsText(200)
  chatLabel?: string | null;

  @ApiPropertyOptional({ type: EventsDto })
  @OptionalNotNull()
  @IsEvents()
  events?: EventsDto;
}

export class UpdateMessengerIntegrationDto {
  @ApiPropertyOptional({ pattern: BOT_TOKEN.source })
  @OptionalNotNull()
  @Matches(BOT_TOKEN, { message: BOT_TOKEN_MESSAGE })
  botToken?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalNotNull()
  @IsRequiredString({ max: 200 })
  chatId?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, nullable: true, description: 'null clears it' })
  @OptionalNullable()
  @IsIntInRange(1, INT_MAX)
  threadId?: number | null;

  @ApiPropertyOptional({ type: String, maxLength: 200, nullable: true, description: 'null clears it' })
  @OptionalNullable()
  @IsText(200)
  chatLabel?: string | null;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  isActive?: boolean;

  @ApiPropertyOptional({ type: EventsDto })
  @OptionalNotNull()
  @IsEvents()
  events?: EventsDto;
}

// ---- generic webhook ----

export class GenericWebhookIntegrationDto {
  @ApiProperty({ maxLength: 2048, example: 'https://example.com/hooks/tandem', description: 'http(s); checked by the destination guard; stored encrypted' })
  @IsWebhookUrl()
  webhookUrl: string;

  @ApiPropertyOptional({ type: String, maxLength: 1024, nullable: true, description: 'signing secret; stored encrypted; never answered; null or "" for none' })
  @OptionalNullable()
  @IsText(1024)
  secret?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_REMINDER_LEAD_MINUTES,
    description: 'minutes before a due date that task.due_date_reminder goes out (default 1440)',
  })
  @OptionalNotNull()
  @IsLeadTime()
  dueDateReminderLeadTimeMinutes?: number;

  @ApiPropertyOptional({ type: EventsDto })
  @OptionalNotNull()
  @IsEvents()
  events?: EventsDto;
}

export class UpdateGenericWebhookIntegrationDto {
  @ApiPropertyOptional({ maxLength: 2048 })
  @OptionalNotNull()
  @IsWebhookUrl()
  webhookUrl?: string;

  @ApiPropertyOptional({ type: String, maxLength: 1024, nullable: true, description: 'a new secret replaces the old one (which keeps signing for 24 h); null or "" removes it' })
  @OptionalNullable()
  @IsText(1024)
  secret?: string | null;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_REMINDER_LEAD_MINUTES })
  @OptionalNotNull()
  @IsLeadTime()
  dueDateReminderLeadTimeMinutes?: number;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  isActive?: boolean;

  @ApiPropertyOptional({ type: EventsDto })
  @OptionalNotNull()
  @IsEvents()
  events?: EventsDto;
}

// ---- teamchat and communitychat ----

export class ChatWebhookIntegrationDto {
  @ApiProperty({ maxLength: 2048, example: 'https://chat.example.com/hooks/T000/B000/XXXX', description: 'http(s); checked by the destination guard; stored encrypted' })
  @IsWebhookUrl()
  webhookUrl: string;

  @ApiPropertyOptional({ type: String, maxLength: 200, nullable: true })
  @OptionalNullable()
  @IsText(200)
  channelName?: string | null;

  @ApiPropertyOptional({ type: EventsDto })
  @OptionalNotNull()
  @IsEvents()
  events?: EventsDto;
}

export class UpdateChatWebhookIntegrationDto {
  @ApiPropertyOptional({ maxLength: 2048 })
  @OptionalNotNull()
  @IsWebhookUrl()
  webhookUrl?: string;

  @ApiPropertyOptional({ type: String, maxLength: 200, nullable: true, description: 'null clears it' })
  @OptionalNullable()
  @IsText(200)
  channelName?: string | null;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  isActive?: boolean;

  @ApiPropertyOptional({ type: EventsDto })
  @OptionalNotNull()
  @IsEvents()
  events?: EventsDto;
}

/** What any create-or-replace body may carry (each type's DTO allows its own subset). */
export type IntegrationInput = Partial<{
  botToken: string;
  chatId: string;
  threadId: number | null;
  chatLabel: string | null;
  channelName: string | null;
  webhookUrl: string;
  secret: string | null;
  dueDateReminderLeadTimeMinutes: number;
  events: EventsDto;
}>;

/** What any partial update may carry. */
export type IntegrationPatch = IntegrationInput & { isActive?: boolean };
