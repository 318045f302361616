import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { FanOutPart } from '../../integrations/channels/fan-out-parts';
import { channelsFor } from '../../notification-preferences/channel-rules';
import { NotificationPreferencesRepository } from '../../notification-preferences/notification-preferences.repository';
import { MemberRepository } from '../../organization/member.repository';
import { TaskEvent } from '../../task/task-event';
import { notificationText } from './notification-text';
import { recipientOf } from './recipients';
import { UserDeliveryQueues } from './user-delivery-queues';
import { PendingUserDelivery, UserDeliveryRepository } from './user-delivery.repository';

/**
 * The users' part of the fan-out of task events (docs/notifications.md): the event's recipient
 * (the assignee, unless they made the change, and only while a member of the workspace) gets an
 * in-app notification and one delivery per channel that the global preferences and the workspace
 * rule allow, written in one statement that creates each once; then the jobs of what is pending
 * are queued. A re-run writes nothing twice and queues again what is still pending.
 */
@Injectable()
export class NotificationFanOut implements FanOutPart {
  readonly name = 'users';
  private readonly logger = new Logger(NotificationFanOut.name);

  constructor(
    private readonly deliveries: UserDeliveryRepository,
    private readonly prefs: NotificationPreferencesRepository,
    private readonly members: MemberRepository,
    private readonly queues: UserDeliveryQueues,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Only the event's recipient can be told (recipientOf); no recipient, nothing to do. */
  hears(event: TaskEvent): boolean {
    return recipientOf(event) !== null;
  }

  async fanOut(event: TaskEvent): Promise<number> {
    const userId = recipientOf(event);
    if (!userId) return 0;
    let pending: PendingUserDelivery[];
    if (await this.members.isMember(event.workspaceId, userId)) {
      const [global, rule] = await Promise.all([this.prefs.findPreferences(userId), this.prefs.findRule(event.workspaceId, userId)]);
      const channels = channelsFor(global, rule, event.project.id);
      pending = await this.deliveries.fanOut(event.workspaceId, userId, event, notificationText(event, this.config.clientUrl), channels);
    } else {
      // No longer a member: nothing new; what a first run wrote is still queued, and its delivery fails as undeliverable.
      pending = await this.deliveries.pendingOfEvent(event.id, userId);
    }
    for (const d of pending) await this.queues.schedule(d.target_type, d.id, userId, event.task.id);
    if (pending.length) this.logger.debug(`event ${event.id} (${event.kind}): ${pending.length} user deliveries queued`);
    return pending.length;
  }
}
