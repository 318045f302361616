import { Body, Controller, Delete, Get, Param, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { Id } from '../../common/pipes/id.pipe';
import { UpdateNotificationPreferencesDto, WorkspaceRuleDto } from './dto/notification-preferences.dto';
import { USER_CHANNELS } from './channel-rules';
import {
  enableGloballyFirst,
  FOREIGN_PROJECT,
  NotificationPreferencesService,
  RULE_NOT_FOUND,
  SELECTED_WITHOUT_PROJECTS,
  WORKSPACE_NOT_FOUND,
} from './notification-preferences.service';
import { NotificationPreferencesSchema } from '../notification-preferences/notification-preferences.schema';

const GUARD_400 = ['Webhook destination resolves to a non-routable address', 'Webhook destination host could not be resolved'];

/**
 * The caller's own notification preferences (docs/notifications.md). Account routes: any signed-in
 * user, for themselves only; an API key limited to some resources is refused (it names no
 * notification scope).
 */
@ApiTags('notification-preferences')
@ApiBearerAuth()
@Controller('notification-preferences')
export class NotificationPreferencesController {
  constructor(private readonly prefs: NotificationPreferencesService) {}

  @Get()
  @ApiAnswer('Notification preferences record (the defaults for a user who never saved any)', NotificationPreferencesSchema)
  @ApiOperation({ summary: "The caller's notification preferences with their workspace rules" })
  get(@CurrentUser() user: AuthUser) {
    return this.prefs.get(user);
  }

  @Put()
  @ApiAnswer('Notification preferences record', NotificationPreferencesSchema)
  @ApiErrors([
    400,
    'topicpushServerUrl must be an http(s) URL without a query or fragment',
    'serverpushServerUrl must be an http(s) URL without a query or fragment',
    'topicpushTopic must be 1-64 letters, digits, - or _',
    'webhookUrl must be an http(s) URL',
    ...GUARD_400,
  ])
  @ApiOperation({ summary: 'Change the global preferences: fields sent are merged; null or "" clears a URL, the topic, a token or the secret' })
  update(@CurrentUser() user: AuthUser, @Body() dto: UpdateNotificationPreferencesDto) {
    return this.prefs.update(user, dto);
  }

  @Put('workspaces/:workspaceId')
  @ApiAnswer('Notification preferences record', NotificationPreferencesSchema)
  @ApiErrors([400, ...USER_CHANNELS.map(enableGloballyFirst), SELECTED_WITHOUT_PROJECTS, FOREIGN_PROJECT], [404, WORKSPACE_NOT_FOUND])
  @ApiOperation({ summary: "Create or update the caller's rule for a workspace: fields sent are merged into the rule" })
  saveRule(@CurrentUser() user: AuthUser, @Param('workspaceId', Id('Workspace')) workspaceId: string, @Body() dto: WorkspaceRuleDto) {
    return this.prefs.saveRule(user, workspaceId, dto);
  }

  @Delete('workspaces/:workspaceId')
  @ApiAnswer('Notification preferences record', NotificationPreferencesSchema)
  @ApiErrors([404, WORKSPACE_NOT_FOUND, RULE_NOT_FOUND])
  @ApiOperation({ summary: "Delete the caller's rule for a workspace (the global preferences apply there again)" })
  deleteRule(@CurrentUser() user: AuthUser, @Param('workspaceId', Id('Workspace')) workspaceId: string) {
    return this.prefs.deleteRule(user, workspaceId);
  }
}
