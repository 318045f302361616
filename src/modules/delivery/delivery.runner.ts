import { Injectable, Logger } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import { Channel, DELIVER_JOB, DeliveryJobData, REDELIVER_JOB } from './channels';
import { statusAfter, Verdict, verdictOfError } from './delivery-policy';
import { DeliveryRecorder } from './delivery-recorder';
import { DeliveryTargetKinds } from './delivery-target-kinds';
import { AttemptPlan } from './target-kinds';
import { RetryAfterCarrier } from './worker-options';

export type DeliveryJobResult = { delivered: number; statusCode: number | null } | { skipped: 'gone' | 'not-pending' } | { failed: number; reason: string };

/** A failure worth retrying: BullMQ retries it with the delivery backoff (Retry-After when the receiver sent one). */
/** How long a job waits before trying again when another attempt is sending its deliveries (a person's burst). */
export const BUSY_RETRY_MS = 1_000;

export class TransientDeliveryError extends Error implements RetryAfterCarrier {
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

/**
 * One attempt of one delivery job, the same for every channel (docs/integrations.md, "Delivery
 * formats and retries"; docs/notifications.md, "Delivery, retries and records"): the channel's
 * target kind reads what to send, the deliveries it will not send are recorded as failed with the
 * reason, one message is sent, the attempt is recorded on every delivery it carried, and the
 * delivery policy decides (delivered, retried with the backoff, or failed for good). The delivery
 * row is the truth: a job whose row is no longer pending does nothing, however many jobs name it;
 * a job whose deliveries another attempt is sending (a person's burst) waits and tries again.
 * Secrets are decrypted for the attempt only; they are never in a job, a log line or a record.
 */
@Injectable()
export class DeliveryRunner {
  private readonly logger = new Logger('Delivery');

  constructor(
    private readonly kinds: DeliveryTargetKinds,
    private readonly recorder: DeliveryRecorder,
  ) {}

  async run(job: Job<DeliveryJobData>, channel: Channel, token?: string): Promise<DeliveryJobResult> {
    if (job.name !== DELIVER_JOB && job.name !== REDELIVER_JOB) throw new UnrecoverableError(`Unknown delivery job "${job.name}"`);
    const deliveryId = job.data?.deliveryId;
    if (typeof deliveryId !== 'string') throw new UnrecoverableError('Delivery job without a delivery id');
    const plan = await this.kinds.of(channel).prepare(deliveryId, channel);
    if ('skipped' in plan) return plan;
    if ('busy' in plan) {
      // Another attempt is sending these deliveries: try again shortly (no attempt spent); by then they are settled, or this job carries them.
      await job.moveToDelayed(Date.now() + BUSY_RETRY_MS, token);
      throw new DelayedError();
    }
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await plan.release?.();
    };
    try {
      return await this.attempt(job, plan, release);
    } finally {
      await release();
    }
  }

  private async attempt(job: Job<DeliveryJobData>, plan: AttemptPlan, release: () => Promise<void>): Promise<DeliveryJobResult> {
    for (const { ids, reason } of plan.dropped) {
      await this.recorder.record(ids, { at: new Date().toISOString(), statusCode: null, durationMs: 0, error: reason }, 'failed');
      this.logger.log(`${plan.label}: ${ids.length} not sent: ${reason}`);
    }
    if (!plan.ids.length) {
      await release();
      await plan.settled?.();
      return { failed: plan.dropped.reduce((n, d) => n + d.ids.length, 0), reason: plan.dropped.at(-1)?.reason ?? 'nothing to send' };
    }

    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const at = new Date().toISOString();
    const started = performance.now();
    let statusCode: number | null = null;
    let verdict: Verdict;
    try {
      ({ statusCode, verdict } = await plan.send());
    } catch (err) {
      verdict = verdictOfError(err, (kind) => this.logger.error(`${plan.label}: attempt failed unexpectedly: ${kind}`));
    }
    const status = statusAfter(verdict, lastAttempt);
    const error = verdict.outcome === 'delivered' ? null : verdict.error;
    await this.recorder.record(plan.ids, { at, statusCode, durationMs: Math.round(performance.now() - started), error }, status);
    await release();
    if (status !== 'pending') await plan.settled?.();

    const n = job.attemptsMade + 1;
    if (verdict.outcome === 'delivered') {
      this.logger.log(`${plan.label} delivered (attempt ${n}${statusCode ? `, ${statusCode}` : ''})`);
      return { delivered: plan.ids.length, statusCode };
    }
    if (verdict.outcome === 'permanent') {
      this.logger.warn(`${plan.label} failed for good (attempt ${n}): ${verdict.error}`);
      throw new UnrecoverableError(verdict.error);
    }
    this.logger.warn(`${plan.label} attempt ${n} failed${lastAttempt ? ', no attempt left' : ', will retry'}: ${verdict.error}`);
    throw new TransientDeliveryError(verdict.error, verdict.retryAfterMs);
  }
}
