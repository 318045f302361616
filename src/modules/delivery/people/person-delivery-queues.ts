import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { RedisService } from '../../../redis/redis.service';
import { CHANNELS, DELIVER_JOB, DeliveryJobData, PersonChannel } from '../channels';
import { DeliveryQueues } from '../delivery-queues';
import { PersonDeliveryRepository } from './person-delivery.repository';

/**
 * One step, atomic in Redis: when the burst's window key is absent, sets it for the window and
 * answers 0 (the burst's first message goes out now); else answers how long the window still
 * runs (its messages wait for its end). KEYS[1] the window key, ARGV[1] the window in ms.
 */
const OPEN_OR_WAIT = `
  if redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX') then return 0 end
  local left = redis.call('PTTL', KEYS[1])
  if left < 0 then return 0 end
  return left`;

/**
 * Takes the lock of a burst for an attempt, atomically: free (or already this attempt's own, as
 * when a stalled job runs again) → taken for ARGV[2] ms, 1; held by another attempt → 0.
 * KEYS[1] the lock key, ARGV[1] the holder (the job's delivery id).
 */
const LOCK = `
  if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
  if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 1 end
  return 0`;

/** Frees the lock only if ARGV[1] still holds it (it may have expired and been taken by another attempt). */
const UNLOCK = `
  if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
  return 0`;

/**
 * How long a burst's lock lives at most: longer than an attempt can take (an HTTP request times
 * out well within it, an SMTP conversation too), so it only expires on its own when the worker
 * holding it died.
 */
const BURST_LOCK_MS = 120_000;

/**
 * Queues the jobs of people's channel deliveries. A channel that does not gather bursts (the
 * webhook) gets a job per delivery (job id = the delivery id). A channel that does gets one job
 * per burst (docs/notifications.md, "Bursts"): it names the oldest pending delivery of the user,
 * channel and task (job id = that delivery's id, so asking again while it waits adds nothing); the
 * job then sends every delivery of the burst pending by then. It runs:
 * - for a channel that sends the first at once (the pushes): now when the burst's window is closed,
 *   else when it ends. The window is a Redis key per (channel, user, task) living for
 *   NOTIFICATION_BATCH_WINDOW_MS from the last message sent: opening it is one atomic step (SET NX),
 *   so of several workers asking at once exactly one sends now and the others wait for its end.
 * - for email: when the window after the oldest pending delivery closes (by the database's clock).
 * Two jobs may still name the same burst (two fan-outs on two workers, each seeing a different
 * oldest delivery): an attempt holds the burst's lock (lockBurst) from reading the burst until its
 * outcome is recorded, so the other job waits and then finds the deliveries settled (or carries
 * what is left): nothing is sent twice.
 */
@Injectable()
export class PersonDeliveryQueues {
  constructor(
    private readonly deliveries: PersonDeliveryRepository,
    private readonly queues: DeliveryQueues,
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Queues the job that will send delivery `deliveryId` of `channel` to `userId` about task `taskId`. */
  async schedule(channel: PersonChannel, deliveryId: string, userId: string, taskId: string): Promise<void> {
    if (!CHANNELS[channel].gathersBursts) return this.add(channel, deliveryId, 0);
    await this.scheduleBurst(channel, userId, taskId);
  }

  /** Queues the job of the burst (user, channel, task) that is pending now, if any. */
  async scheduleBurst(channel: PersonChannel, userId: string, taskId: string): Promise<void> {
    const first = await this.deliveries.firstOfBurst(channel, userId, taskId, this.config.notificationBatchWindowMs);
    if (!first) return;
    const delay = CHANNELS[channel].sendsFirstAtOnce ? await this.openOrWait(channel, userId, taskId) : first.delay_ms;
    await this.add(channel, first.id, delay);
  }

  /**
   * A message of the burst (user, channel, task) is going out: for a channel that sends the first
   * at once, its window starts again from now, so what comes meanwhile is gathered into the next
   * message (at most one message per window).
   */
  async messageSent(channel: PersonChannel, userId: string, taskId: string): Promise<void> {
    const windowMs = this.config.notificationBatchWindowMs;
    if (!CHANNELS[channel].sendsFirstAtOnce || windowMs <= 0) return;
    await this.redis.client.set(this.windowKey(channel, userId, taskId), '1', 'PX', windowMs);
  }

  /** OPEN_OR_WAIT: 0 when the burst's window was closed (it is open now), else how long it still runs. */
  private async openOrWait(channel: PersonChannel, userId: string, taskId: string): Promise<number> {
    const windowMs = this.config.notificationBatchWindowMs;
    if (windowMs <= 0) return 0;
    return Number(await this.redis.client.eval(OPEN_OR_WAIT, 1, this.windowKey(channel, userId, taskId), windowMs));
  }

  /** Takes the lock of the burst (user, channel, task) for the attempt of the job of `holder`; false when another attempt holds it. */
  async lockBurst(channel: PersonChannel, userId: string, taskId: string, holder: string): Promise<boolean> {
    return Number(await this.redis.client.eval(LOCK, 1, this.lockKey(channel, userId, taskId), holder, BURST_LOCK_MS)) === 1;
  }

  /** Frees the burst's lock if `holder` still holds it. */
  async unlockBurst(channel: PersonChannel, userId: string, taskId: string, holder: string): Promise<void> {
    await this.redis.client.eval(UNLOCK, 1, this.lockKey(channel, userId, taskId), holder);
  }

  private lockKey(channel: PersonChannel, userId: string, taskId: string): string {
    return this.redis.key('notify-sending', channel, userId, taskId);
  }

  private windowKey(channel: PersonChannel, userId: string, taskId: string): string {
    return this.redis.key('notify-window', channel, userId, taskId);
  }

  private async add(channel: PersonChannel, deliveryId: string, delay: number): Promise<void> {
    await this.queues.of(channel).add(DELIVER_JOB, { deliveryId } satisfies DeliveryJobData, { jobId: deliveryId, delay });
  }
}
