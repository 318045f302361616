import { Controller, Delete, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { Id } from '../../common/pipes/id.pipe';
import { ListNotificationsQuery } from './dto/list-notifications.dto';
import { NOTIFICATION_NOT_FOUND, NotificationService } from './notification.service';
import { SuccessAnswer } from '../../common/http/answers.schema';
import { NotificationRecordSchema, UnreadCountSchema } from '../notifications/notification.schema';

/**
 * The caller's in-app notifications (docs/notifications.md). Account routes: each user sees and
 * marks only their own; an API key limited to some resources is refused.
 */
@ApiTags('notification')
@ApiBearerAuth()
@Controller('notification')
export class NotificationController {
  constructor(private readonly notifications: NotificationService) {}

  @Get()
  @ApiAnswer('Notification[] (newest first)', [NotificationRecordSchema])
  @ApiErrors([400, 'limit must be an integer from 1 to 100'], [404, NOTIFICATION_NOT_FOUND])
  @ApiOperation({ summary: "The caller's notifications, newest first; `before` pages on" })
  list(@CurrentUser() user: AuthUser, @Query() q: ListNotificationsQuery) {
    return this.notifications.list(user, q);
  }

  @Get('unread-count')
  @ApiAnswer('{count: integer}', UnreadCountSchema)
  @ApiOperation({ summary: "How many of the caller's notifications are unread" })
  unreadCount(@CurrentUser() user: AuthUser) {
    return this.notifications.unreadCount(user);
  }

  @Patch('read-all')
  @ApiAnswer('{success: true}', SuccessAnswer)
  @ApiOperation({ summary: "Mark every one of the caller's notifications read" })
  markAllRead(@CurrentUser() user: AuthUser) {
    return this.notifications.markAllRead(user);
  }

  @Delete('clear-all')
  @ApiAnswer('{success: true}', SuccessAnswer)
  @ApiOperation({ summary: "Delete every one of the caller's notifications" })
  clearAll(@CurrentUser() user: AuthUser) {
    return this.notifications.clearAll(user);
  }

  @Patch(':id/read')
  @ApiAnswer('Notification', NotificationRecordSchema)
  @ApiErrors([404, NOTIFICATION_NOT_FOUND])
  @ApiOperation({ summary: 'Mark one notification read' })
  markRead(@CurrentUser() user: AuthUser, @Param('id', Id('Notification')) id: string) {
    return this.notifications.markRead(user, id);
  }
}
