import { Inject, Injectable, Logger } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { CryptoService } from '../../../common/crypto/crypto.service';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { UserRepository } from '../../auth/user.repository';
import { DELIVER_JOB, DeliveryJobData } from '../../integrations/channels/channels';
import { Verdict } from '../../integrations/channels/classify';
import type { DeliveryAttempt, DeliveryStatus } from '../../integrations/channels/delivery-work.repository';
import { TransientDeliveryError } from '../../integrations/channels/delivery.runner';
import { SigningSecretError } from '../../integrations/channels/generic-webhook.format';
import { channelsFor } from '../../notification-preferences/channel-rules';
import { PreferenceRow } from '../../notification-preferences/notification-preferences.record';
import { NotificationPreferencesRepository } from '../../notification-preferences/notification-preferences.repository';
import { MemberRepository } from '../../organization/member.repository';
import { BATCHED, UserDeliveryQueues } from './user-delivery-queues';
import { UserDeliveryRepository, UserDeliveryRow } from './user-delivery.repository';
import { UserChannelSender, UserTarget } from './user-channels';

export const RECIPIENT_LEFT = 'Recipient is no longer a member of the workspace';
export const RECIPIENT_GONE = 'Recipient no longer exists';
export const CHANNEL_OFF = 'Channel turned off or not configured for this notification';
const UNREADABLE = "The recipient's channel secrets could not be decrypted (was ENCRYPTION_KEY changed?)";

/** Most deliveries one message of a burst carries; the rest go in the next. */
export const MAX_BURST = 100;

export type UserDeliveryResult = { delivered: number; statusCode: number | null } | { skipped: 'gone' | 'not-pending' } | { failed: number; reason: string };

/**
 * One attempt of one of a user's channels (docs/notifications.md, "Delivery, retries and
 * records"): read the delivery the job names and, for a batched channel, every delivery of its
 * burst (user, channel, task) pending now; check that the user is still a member and still wants
 * this channel for each event (preferences and rule as they are now); send one message; record the
 * attempt on every delivery it carried; decide like the project integrations' deliveries
 * (delivered, retried, failed). When a burst is settled, the next one (deliveries that came while
 * it was being sent) is queued. Secrets are decrypted for the attempt only and never recorded.
 */
@Injectable()
export class UserDeliveryRunner {
  private readonly logger = new Logger('UserDelivery');

  constructor(
    private readonly deliveries: UserDeliveryRepository,
    private readonly prefs: NotificationPreferencesRepository,
    private readonly members: MemberRepository,
    private readonly users: UserRepository,
    private readonly queues: UserDeliveryQueues,
    private readonly crypto: CryptoService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run(job: Job<DeliveryJobData>, sender: UserChannelSender): Promise<UserDeliveryResult> {
    if (job.name !== DELIVER_JOB) throw new UnrecoverableError(`Unknown delivery job "${job.name}"`);
    const deliveryId = job.data?.deliveryId;
    if (typeof deliveryId !== 'string') throw new UnrecoverableError('Delivery job without a delivery id');
    const lead = await this.deliveries.load(deliveryId);
    if (!lead || lead.target_type !== sender.channel) return { skipped: 'gone' };
    if (lead.status !== 'pending') return { skipped: 'not-pending' };
    const channel = sender.channel;
    const userId = lead.target_id;
    const taskId = String(lead.payload?.task?.id ?? '');
    const batched = BATCHED[channel] && taskId !== '';
    const items = batched ? await this.burstWith(lead, taskId) : [lead];
    const label = `delivery ${lead.id} (${channel}${items.length > 1 ? `, ${items.length} events` : ''})`;
    const now = () => new Date().toISOString();

    const [member, global, rule, user] = await Promise.all([
      this.members.isMember(lead.workspace_id, userId),
      this.prefs.findPreferences(userId),
      this.prefs.findRule(lead.workspace_id, userId),
      channel === 'email' ? this.users.findById(userId) : null,
    ]);
    const stop = async (ids: string[], error: string) => {
      await this.deliveries.recordAttempt(ids, { at: now(), statusCode: null, durationMs: 0, error }, 'failed');
      this.logger.log(`${label}: ${ids.length} not sent: ${error}`);
    };
    if (!member) {
      await stop(ids(items), RECIPIENT_LEFT);
      await this.next(batched, channel, userId, taskId);
      return { failed: items.length, reason: RECIPIENT_LEFT };
    }
    const wanted = items.filter((d) => channelsFor(global, rule, d.project_id ?? d.payload?.project?.id ?? null).includes(channel));
    const unwanted = items.filter((d) => !wanted.includes(d));
    if (unwanted.length) await stop(ids(unwanted), CHANNEL_OFF);
    if (!wanted.length) {
      await this.next(batched, channel, userId, taskId);
      return { failed: items.length, reason: CHANNEL_OFF };
    }

    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const startedAt = now();
    const started = performance.now();
    let statusCode: number | null = null;
    let verdict: Verdict;
    try {
      if (channel === 'email' && !user) throw new RecipientGone();
      const target = await this.target(global!, user?.email ?? null);
      const outcome = await sender.send(wanted, target, { clientUrl: this.config.clientUrl, nowSeconds: Math.floor(Date.now() / 1000) });
      statusCode = outcome.statusCode;
      verdict = outcome.verdict;
    } catch (err) {
      verdict = this.verdictOf(err);
    }

    const error = verdict.outcome === 'delivered' ? null : verdict.error;
    const attempt: DeliveryAttempt = { at: startedAt, statusCode, durationMs: Math.round(performance.now() - started), error };
    const status: DeliveryStatus = verdict.outcome === 'delivered' ? 'delivered' : verdict.outcome === 'permanent' || lastAttempt ? 'failed' : 'pending';
    await this.deliveries.recordAttempt(ids(wanted), attempt, status);
    if (status !== 'pending') await this.next(batched, channel, userId, taskId);

    const n = job.attemptsMade + 1;
    if (verdict.outcome === 'delivered') {
      this.logger.log(`${label} delivered (attempt ${n}${statusCode ? `, ${statusCode}` : ''})`);
      return { delivered: wanted.length, statusCode };
    }
    if (verdict.outcome === 'permanent') {
      this.logger.warn(`${label} failed for good (attempt ${n}): ${verdict.error}`);
      throw new UnrecoverableError(verdict.error);
    }
    this.logger.warn(`${label} attempt ${n} failed${lastAttempt ? ', no attempt left' : ', will retry'}: ${verdict.error}`);
    throw new TransientDeliveryError(verdict.error, verdict.retryAfterMs);
  }

  /** The burst's pending deliveries, oldest first, with the job's own delivery always among them. */
  private async burstWith(lead: UserDeliveryRow, taskId: string): Promise<UserDeliveryRow[]> {
    const burst = await this.deliveries.burst(lead.target_type, lead.target_id, taskId, MAX_BURST);
    return burst.some((d) => d.id === lead.id) ? burst : [lead, ...burst.slice(0, MAX_BURST - 1)];
  }

  /** Queues the next burst of the user, channel and task, if deliveries are pending there (they came while this one was being sent). */
  private async next(batched: boolean, channel: UserChannelSender['channel'], userId: string, taskId: string): Promise<void> {
    if (batched) await this.queues.scheduleBurst(channel, userId, taskId);
  }

  /** The user's channel settings with the secrets this attempt needs, decrypted. */
  private async target(p: PreferenceRow, email: string | null): Promise<UserTarget> {
    const open = (sealed: string | null): string | null => {
      try {
        return this.crypto.decryptNullable(sealed);
      } catch {
        throw new SecretsUnreadable();
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

  private verdictOf(err: unknown): Verdict {
    if (err instanceof RecipientGone) return { outcome: 'permanent', error: RECIPIENT_GONE };
    if (err instanceof SecretsUnreadable) return { outcome: 'permanent', error: UNREADABLE };
    if (err instanceof SigningSecretError) return { outcome: 'permanent', error: err.message };
    // Anything else is a fault of ours (a bug, not the receiver): retry, and name only its kind.
    this.logger.error(`user delivery attempt failed unexpectedly: ${(err as Error)?.name ?? 'error'}`);
    return { outcome: 'transient', error: 'Internal error while sending', retryAfterMs: null };
  }
}

class RecipientGone extends Error {}
class SecretsUnreadable extends Error {}

const ids = (rows: readonly UserDeliveryRow[]) => rows.map((d) => d.id);
