import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CryptoService } from '../../../common/crypto/crypto.service';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { liveData } from '../../../redis/live-entry';
import { LiveEntry, LiveStreams } from '../../../redis/live-streams';
import { UserRepository } from '../../auth/user.repository';
import { channelsFor } from '../../notification-preferences/channel-rules';
import { PreferenceRow } from '../../notification-preferences/notification-preferences.record';
import { NotificationPreferencesRepository } from '../../notification-preferences/notification-preferences.repository';
import { MemberRepository } from '../../organization/member.repository';
import { NotificationRow, toNotificationRecord } from '../../notifications/notification.record';
import { TaskEvent } from '../../task/task-event';
import { Channel, CHANNELS, PersonChannel } from '../channels';
import { UnusableTargetError } from '../delivery-policy';
import { DeliveryTargets, Dropped, nothingToSend, Preparation } from '../target-kinds';
import { notificationText } from './notification-text';
import { PersonChannels, PersonTarget } from './person-channels';
import { PersonDeliveryQueues } from './person-delivery-queues';
import { PersonDeliveryRepository, PersonDeliveryRow } from './person-delivery.repository';
import { TaskWatchersRepository } from '../../task/task-watchers.repository';
import { mayHaveRecipient, reachesWatchers, Recipient, recipientsOf } from './recipients';

export const RECIPIENT_LEFT = 'Recipient is no longer a member of the workspace';
export const RECIPIENT_GONE = 'Recipient no longer exists';
export const CHANNEL_OFF = 'Channel turned off or not configured for this notification';
const UNREADABLE = "The recipient's channel secrets could not be decrypted (was ENCRYPTION_KEY changed?)";

/** Most deliveries one message of a burst carries; the rest go in the next. */
export const MAX_BURST = 100;

/**
 * People as delivery targets (docs/notifications.md): each recipient of an event (recipientsOf:
 * people mentioned, the assignee, the watchers, or whom a reminder names; never the actor, and
 * only while a member of the workspace) gets an in-app notification and one delivery per channel
 * that their global preferences and workspace rule allow, written for all of them in one
 * statement that creates each once; a re-run writes nothing twice and queues again what is still
 * pending.
 *
 * An attempt reads the delivery the job names and, for a channel that gathers bursts, every
 * delivery of its burst (user, channel, task) pending now; checks that the user is still a member
 * and still wants this channel for each event (preferences and rule as they are now); and sends one
 * message for all of them. When a burst is settled, the next one (deliveries that came while it was
 * being sent) is queued; a push's message starts its window again (PersonDeliveryQueues).
 */
@Injectable()
export class PersonTargets implements DeliveryTargets {
  readonly kind = 'person';
  private readonly logger = new Logger('PersonDelivery');

  constructor(
    private readonly deliveries: PersonDeliveryRepository,
    private readonly prefs: NotificationPreferencesRepository,
    private readonly members: MemberRepository,
    private readonly users: UserRepository,
    private readonly queues: PersonDeliveryQueues,
    private readonly channels: PersonChannels,
    private readonly crypto: CryptoService,
    private readonly live: LiveStreams,
    private readonly watchers: TaskWatchersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Events that may have a recipient: judged from the event alone (a mention, an assignee other
   * than the actor), else, for the kinds watchers hear of, by whether the task has a watcher other
   * than the actor (one statement for the batch).
   */
  async mayDeliver(events: readonly TaskEvent[], m: EntityManager): Promise<ReadonlySet<TaskEvent>> {
    const yes = new Set(events.filter(mayHaveRecipient));
    const ask = events.filter((e) => !yes.has(e) && reachesWatchers(e));
    if (ask.length) {
      const watched = await this.watchers.watchedBesides(
        ask.map((e) => ({ taskId: e.task.id, actorId: e.actor?.id ?? null })),
        m,
      );
      for (const e of ask) if (watched.has(e.task.id.toLowerCase())) yes.add(e);
    }
    return yes;
  }

  /**
   * A job's events: the watchers of their tasks read once for all of them, then for each event
   * with recipients (recipientsOf: people mentioned, the assignee, the watchers) their
   * notifications and deliveries (fanOutOne), then the jobs of every delivery of those events still
   * pending. An event without recipients costs no statement of its own.
   */
  async fanOut(events: readonly TaskEvent[]): Promise<number> {
    const watching = await this.watchers.watchingMany(events.filter(reachesWatchers).map((e) => e.task.id));
    const told: TaskEvent[] = [];
    for (const event of events) {
      const recipients = recipientsOf(event, watching.get(event.task.id.toLowerCase()) ?? []);
      if (!recipients.length) continue;
      await this.fanOutOne(event, recipients);
      told.push(event);
    }
    // Every delivery of those events still pending, new or left by a run that stopped before queueing it.
    const taskOf = new Map(told.map((e) => [e.id, e.task.id]));
    const pending = told.length ? await this.deliveries.pendingOfEvents([...taskOf.keys()]) : [];
    for (const d of pending) await this.queues.schedule(d.target_type, d.id, d.target_id, taskOf.get(d.event_id)!);
    if (pending.length) this.logger.debug(`${told.length} events: ${pending.length} person deliveries queued`);
    return pending.length;
  }

  /**
   * One event's recipients, members only, with the channels their preferences and workspace rule
   * allow: the notification and deliveries of all of them in one statement, their open streams
   * told of what was written. People mentioned watch the task from then on (unless they unwatched
   * it). A re-run writes nothing twice.
   */
  async fanOutOne(event: TaskEvent, recipients: readonly Recipient[]): Promise<void> {
    const ids = recipients.map((r) => r.userId);
    const [members, prefs, rules] = await Promise.all([
      this.members.membersAmong(event.workspaceId, ids),
      this.prefs.preferencesOf(ids),
      this.prefs.rulesOf(event.workspaceId, ids),
    ]);
    // No longer a member: nothing new; what a first run wrote is queued, and fails as undeliverable.
    const told = recipients.filter((r) => members.has(r.userId));
    const written = await this.deliveries.fanOutMany(
      event,
      told.map((r) => ({
        userId: r.userId,
        text: notificationText(event, this.config.clientUrl, r),
        channels: channelsFor(prefs.get(r.userId), rules.get(r.userId), event.project.id),
      })),
    );
    // The recipients' open event streams get each new notification as the list shows it (docs/live-events.md).
    if (written.length) await this.live.append(new Map([[event.workspaceId, written.map((n) => liveNotification(event.id, n))]]));
    await this.watchers.addMentioned(
      event.task.id,
      told.filter((r) => r.mentioned).map((r) => r.userId),
    );
  }

  async prepare(deliveryId: string, jobChannel: Channel): Promise<Preparation> {
    const first = await this.deliveries.load(deliveryId);
    if (!first || first.target_type !== jobChannel) return { skipped: 'gone' };
    if (first.status !== 'pending') return { skipped: 'not-pending' };
    const channel: PersonChannel = first.target_type;
    const userId = first.target_id;
    const taskId = String(first.payload?.task?.id ?? '');
    const burst = CHANNELS[channel].gathersBursts && taskId !== '';
    // One attempt at a time reads and sends a burst: another job naming it waits (PersonDeliveryQueues).
    if (burst && !(await this.queues.lockBurst(channel, userId, taskId, first.id))) return { busy: true };
    const release = burst ? () => this.queues.unlockBurst(channel, userId, taskId, first.id) : undefined;
    try {
      // Read again under the lock: the attempt that held it may have sent this delivery meanwhile.
      const current = burst ? await this.deliveries.load(deliveryId) : first;
      if (current?.status !== 'pending') {
        await release?.();
        return { skipped: 'not-pending' };
      }
      return await this.plan(current, channel, userId, taskId, burst, release);
    } catch (err) {
      await release?.();
      throw err;
    }
  }

  private async plan(first: PersonDeliveryRow, channel: PersonChannel, userId: string, taskId: string, burst: boolean, release?: () => Promise<void>): Promise<Preparation> {
    const items = burst ? await this.burstWith(first, taskId) : [first];
    const label = `delivery ${first.id} (${channel}${items.length > 1 ? `, ${items.length} events` : ''})`;
    // When this attempt's deliveries are settled, the deliveries that came meanwhile go as the next burst.
    const settled = burst ? () => this.queues.scheduleBurst(channel, userId, taskId) : undefined;

    const [member, global, rule, user] = await Promise.all([
      this.members.isMember(first.workspace_id, userId),
      this.prefs.findPreferences(userId),
      this.prefs.findRule(first.workspace_id, userId),
      channel === 'email' ? this.users.findById(userId) : null,
    ]);
    if (!member) return nothingToSend(label, [{ ids: ids(items), reason: RECIPIENT_LEFT }], settled, release);
    const wanted = items.filter((d) => channelsFor(global, rule, d.project_id ?? d.payload?.project?.id ?? null).includes(channel));
    const dropped: Dropped[] = wanted.length < items.length ? [{ ids: ids(items.filter((d) => !wanted.includes(d))), reason: CHANNEL_OFF }] : [];
    if (!wanted.length) return nothingToSend(label, dropped, settled, release);
    const sender = this.channels.of(channel);
    return {
      label,
      dropped,
      ids: ids(wanted),
      settled,
      release,
      send: async () => {
        if (channel === 'email' && !user) throw new UnusableTargetError(RECIPIENT_GONE);
        const target = await this.target(global!, user?.email ?? null);
        // A push's window starts again as its message goes out: what comes meanwhile waits for the next one.
        if (burst) await this.queues.messageSent(channel, userId, taskId);
        return sender.send(wanted, target, { clientUrl: this.config.clientUrl, nowSeconds: Math.floor(Date.now() / 1000) });
      },
    };
  }

  /** The burst's pending deliveries, oldest first, with the job's own delivery always among them. */
  private async burstWith(first: PersonDeliveryRow, taskId: string): Promise<PersonDeliveryRow[]> {
    const burst = await this.deliveries.burst(first.target_type, first.target_id, taskId, MAX_BURST);
    return burst.some((d) => d.id === first.id) ? burst : [first, ...burst.slice(0, MAX_BURST - 1)];
  }

  /** The user's channel settings with the secrets this attempt needs, decrypted. */
  private async target(p: PreferenceRow, email: string | null): Promise<PersonTarget> {
    const open = (sealed: string | null): string | null => {
      try {
        return this.crypto.decryptNullable(sealed);
      } catch {
        throw new UnusableTargetError(UNREADABLE);
      }
    };
    const previousCurrent = p.webhook_previous_secret ? await this.prefs.previousWebhookSecretCurrent(p.user_id) : false;
    const serverpushToken = open(p.serverpush_token);
    return {
      email,
      topicpush: p.topicpush_server_url && p.topicpush_topic ? { serverUrl: p.topicpush_server_url, topic: p.topicpush_topic, token: open(p.topicpush_token) } : null,
      serverpush: p.serverpush_server_url && serverpushToken ? { serverUrl: p.serverpush_server_url, token: serverpushToken } : null,
      webhookUrl: p.webhook_url,
      signingSecrets: [open(p.webhook_secret), previousCurrent ? open(p.webhook_previous_secret) : null].filter((s): s is string => !!s),
    };
  }
}

const ids = (rows: readonly PersonDeliveryRow[]) => rows.map((d) => d.id);

/** The live stream's entry of an in-app notification: the record the notification list shows. */
function liveNotification(eventId: string, row: NotificationRow): LiveEntry {
  return { id: `${eventId}:notification`, event: 'notification', data: liveData(toNotificationRecord(row)), userId: row.user_id };
}
