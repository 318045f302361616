import { Injectable, NotFoundException } from '@nestjs/common';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { isUuid } from '../../common/pipes/id.pipe';
import { WorkspaceRepository } from '../organization/workspace.repository';
import { ListNotificationsQuery, NOTIFICATION_PAGE_DEFAULT } from './dto/list-notifications.dto';
import { NotificationRecord, toNotificationRecord } from './notification.record';
import { NotificationRepository } from './notification.repository';

export const NOTIFICATION_NOT_FOUND = 'Notification not found';

/**
 * The caller's in-app notifications (docs/notifications.md, "In-app notifications"). Only those
 * of workspaces the caller is still a member of are shown; anybody else's are "not found".
 */
@Injectable()
export class NotificationService {
  constructor(
    private readonly notifications: NotificationRepository,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  async list(user: AuthUser, q: ListNotificationsQuery): Promise<NotificationRecord[]> {
    const ws = await this.workspaceIds(user);
    const before = q.before?.toLowerCase();
    if (before !== undefined && !(isUuid(before) && (await this.notifications.findForUser(user.id, ws, before)))) {
      throw new NotFoundException(NOTIFICATION_NOT_FOUND);
    }
    return (await this.notifications.listForUser(user.id, ws, q.limit ?? NOTIFICATION_PAGE_DEFAULT, before)).map(toNotificationRecord);
  }

  async unreadCount(user: AuthUser): Promise<{ count: number }> {
    return { count: await this.notifications.countUnread(user.id, await this.workspaceIds(user)) };
  }

  async markRead(user: AuthUser, id: string): Promise<NotificationRecord> {
    const row = await this.notifications.markRead(user.id, await this.workspaceIds(user), id);
    if (!row) throw new NotFoundException(NOTIFICATION_NOT_FOUND);
    return toNotificationRecord(row);
  }

  async markAllRead(user: AuthUser): Promise<{ success: true }> {
    await this.notifications.markAllRead(user.id, await this.workspaceIds(user));
    return { success: true };
  }

  /** Deletes every one of the caller's notifications (hidden ones of workspaces they left too). */
  async clearAll(user: AuthUser): Promise<{ success: true }> {
    await this.notifications.deleteAllOfUser(user.id);
    return { success: true };
  }

  private async workspaceIds(user: AuthUser): Promise<string[]> {
    return (await this.workspaces.listOfUser(user.id)).map((w) => w.id);
  }
}
