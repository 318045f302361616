import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';
import { MAX_ID_LENGTH, OptionalNotNull, OptionalNullable } from '../../../common/validation/dto-helpers';
import { IsText } from '../../integrations/dto/validators';
import { PROJECT_MODES, ProjectMode } from '../channel-rules';
import { IsLeadTime, MAX_REMINDER_LEAD_MINUTES } from '../../../common/validation/reminder-lead-time';

/** An absolute http(s) URL without a query or fragment (a path is appended to it). */
const SERVER_URL = /^https?:\/\/[^\s/?#]+[^\s?#]*$/i;
/** An absolute http(s) URL. */
const WEB_URL = /^https?:\/\/[^\s/?#]+[^\s]*$/i;
/** A topic name as the topicpush servers accept it. */
export const TOPIC = /^[A-Za-z0-9_-]{1,64}$/;

/** A string that is `""` (clears the field) or matches `pattern`, at most `max` characters; one message per failure. */
const IsClearableString = (max: number, pattern: RegExp, patternMessage: string, options?: ValidationOptions) => {
  const problem = (v: unknown): string | null => {
    if (typeof v !== 'string') return 'must be a string';
    if (v === '') return null;
    if (v.length > max) return `must be at most ${max} characters`;
    return pattern.test(v) ? null : patternMessage;
  };
  return ValidateBy(
    {
      name: 'isClearableString',
      constraints: [max],
      validator: {
        validate: (v: unknown) => problem(v) === null,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} ${problem(args?.value)}`,
      },
    },
    options,
  );
};

const IsServerUrl = () => IsClearableString(2048, SERVER_URL, 'must be an http(s) URL without a query or fragment');
const IsWebhookUrl = () => IsClearableString(2048, WEB_URL, 'must be an http(s) URL');

/**
 * `PUT /notification-preferences` (docs/notifications.md, "Preferences"): every field optional,
 * merged into what is stored. `null` or `""` clears a URL, the topic, a token or the secret.
 */
export class UpdateNotificationPreferencesDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  emailEnabled?: boolean;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  topicpushEnabled?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 2048,
    example: 'https://ntfy.example.com',
    description: 'http(s), no query; checked by the destination guard; null or "" clears it',
  })
  @OptionalNullable()
  @IsServerUrl()
  topicpushServerUrl?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, pattern: TOPIC.source, example: 'tandem-ada', description: 'null or "" clears it' })
  @OptionalNullable()
  @IsClearableString(64, TOPIC, 'must be 1-64 letters, digits, - or _')
  topicpushTopic?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1024, description: 'access token; stored encrypted, never answered; null or "" removes it' })
  @OptionalNullable()
  @IsText(1024)
  topicpushToken?: string | null;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  serverpushEnabled?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 2048,
    example: 'https://push.example.com',
    description: 'http(s), no query; checked by the destination guard; null or "" clears it',
  })
  @OptionalNullable()
  @IsServerUrl()
  serverpushServerUrl?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1024, description: 'application token; stored encrypted, never answered; null or "" removes it' })
  @OptionalNullable()
  @IsText(1024)
  serverpushToken?: string | null;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  webhookEnabled?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 2048,
    example: 'https://example.com/hooks/me',
    description: 'http(s); checked by the destination guard; null or "" clears it',
  })
  @OptionalNullable()
  @IsWebhookUrl()
  webhookUrl?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 1024,
    description: 'signing secret; stored encrypted, never answered; a new one replaces the old (which keeps signing for 24 h); null or "" removes it',
  })
  @OptionalNullable()
  @IsText(1024)
  webhookSecret?: string | null;

  @ApiPropertyOptional({ description: 'reminders before a due date and notices when it passes (default true)' })
  @OptionalNotNull()
  @IsBoolean()
  dueDateReminderEnabled?: boolean;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_REMINDER_LEAD_MINUTES, description: 'how many minutes before the due date the reminder comes (default 1440)' })
  @OptionalNotNull()
  @IsLeadTime()
  dueDateReminderLeadTimeMinutes?: number;
}

/** At most this many projects in a rule. */
export const MAX_SELECTED_PROJECTS = 500;

/** `selectedProjectIds`: an array of strings (ids are checked against the workspace by the service). */
const IsProjectIdList = (options?: ValidationOptions) => {
  const problem = (v: unknown): string | null => {
    if (!Array.isArray(v)) return 'must be an array of project ids';
    if (v.length > MAX_SELECTED_PROJECTS) return `must hold at most ${MAX_SELECTED_PROJECTS} projects`;
    if (!v.every((id) => typeof id === 'string')) return 'must be an array of project ids';
    return v.some((id: string) => id.length > MAX_ID_LENGTH) ? `must hold project ids of at most ${MAX_ID_LENGTH} characters` : null;
  };
  return ValidateBy(
    {
      name: 'isProjectIdList',
      validator: {
        validate: (v: unknown) => problem(v) === null,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} ${problem(args?.value)}`,
      },
    },
    options,
  );
};

/**
 * `PUT /notification-preferences/workspaces/:workspaceId`: creates or updates the rule; fields
 * sent are merged into the stored rule (docs/notifications.md, "Workspace rules").
 */
export class WorkspaceRuleDto {
  @ApiPropertyOptional({ description: 'false mutes the workspace' })
  @OptionalNotNull()
  @IsBoolean()
  isActive?: boolean;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  emailEnabled?: boolean;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  topicpushEnabled?: boolean;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  serverpushEnabled?: boolean;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  webhookEnabled?: boolean;

  @ApiPropertyOptional({ enum: PROJECT_MODES, description: 'omitted: `selected` when selectedProjectIds is sent non-empty, `all` when it is sent empty, else unchanged' })
  @OptionalNotNull()
  @IsIn(PROJECT_MODES as unknown as string[])
  projectMode?: ProjectMode;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_SELECTED_PROJECTS, description: 'projects of this workspace' })
  @OptionalNotNull()
  @IsProjectIdList()
  selectedProjectIds?: string[];
}
