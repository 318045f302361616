import { Inject, Injectable, Logger } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { Coalescer } from '../../../common/concurrency/coalescer';
import { CryptoService } from '../../../common/crypto/crypto.service';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { ChannelFormat, Target, TargetUnusableError } from './channel-formats';
import { DELIVER_JOB, DeliveryJobData, REDELIVER_JOB } from './channels';
import { Verdict } from './classify';
import { AttemptRecord, DeliveryAttempt, DeliveryStatus, DeliveryWithTarget, DeliveryWorkRepository } from './delivery-work.repository';
import { SigningSecretError } from './generic-webhook.format';
import { OutboundError, OutboundHttp, OutboundRequest } from './outbound-http';
import { RetryAfterCarrier } from './worker-options';

export const INTEGRATION_REMOVED = 'Integration removed';
export const INTEGRATION_INACTIVE = 'Integration inactive';

export type DeliveryJobResult =
  { delivered: true; statusCode: number } | { skipped: 'gone' | 'not-pending' } | { failed: typeof INTEGRATION_REMOVED | typeof INTEGRATION_INACTIVE };

/** A failure worth retrying: BullMQ retries it with the delivery backoff (Retry-After when the receiver sent one). */
export class TransientDeliveryError extends Error implements RetryAfterCarrier {
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

/**
 * One attempt of one delivery, the same for every channel (docs/integrations.md,
 * "Delivery formats and retries"): read the delivery and its integration, send, record the
 * attempt, decide. The delivery row is the truth: a job whose row is no longer pending does
 * nothing, however many jobs name it. Secrets are decrypted for the attempt only; they are never
 * in a job, a log line or a delivery record (errors are built without URLs, and answers quoted in
 * errors have every secret cut out).
 *
 * The attempts running at once (every channel's, up to each queue's concurrency) read their
 * deliveries and record their attempts together: a read or a record asked for while the previous
 * one is in flight joins the next statement (Coalescer), so under load a delivery costs a share of
 * two statements instead of two round trips of its own, and idle it costs the same.
 */
@Injectable()
export class DeliveryRunner {
  private readonly logger = new Logger('Delivery');
  private readonly reads: Coalescer<string, DeliveryWithTarget | undefined>;
  private readonly records: Coalescer<AttemptRecord, undefined>;

  constructor(
    private readonly deliveries: DeliveryWorkRepository,
    private readonly crypto: CryptoService,
    private readonly http: OutboundHttp,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.reads = new Coalescer((ids) => this.deliveries.withTargets(ids));
    this.records = new Coalescer(async (records) => {
      await this.deliveries.recordAttempts(records);
      return records.map(() => undefined);
    });
  }

  private record(deliveryId: string, attempt: DeliveryAttempt, status: DeliveryStatus): Promise<undefined> {
    return this.records.submit({ deliveryId, attempt, status });
  }

  async run(job: Job<DeliveryJobData>, channel: ChannelFormat): Promise<DeliveryJobResult> {
    if (job.name !== DELIVER_JOB && job.name !== REDELIVER_JOB) throw new UnrecoverableError(`Unknown delivery job "${job.name}"`);
    const deliveryId = job.data?.deliveryId;
    if (typeof deliveryId !== 'string') throw new UnrecoverableError('Delivery job without a delivery id');
    const d = await this.reads.submit(deliveryId);
    if (!d) return { skipped: 'gone' };
    if (d.status !== 'pending') return { skipped: 'not-pending' };
    const label = `delivery ${d.id} (${channel.type}, event ${d.event_id})`;

    if (!d.integration_id || !d.is_active) {
      const error = d.integration_id ? INTEGRATION_INACTIVE : INTEGRATION_REMOVED;
      await this.record(d.id, { at: new Date().toISOString(), statusCode: null, durationMs: 0, error }, 'failed');
      this.logger.log(`${label} not sent: ${error}`);
      return { failed: error };
    }

    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const startedAt = new Date();
    const started = performance.now();
    let statusCode: number | null = null;
    let verdict: Verdict;
    try {
      const target = this.decrypt(d);
      const request: OutboundRequest = channel.request(target, {
        deliveryId: d.id,
        event: d.payload,
        clientUrl: this.config.clientUrl,
        messengerApiBaseUrl: this.config.messengerApiBaseUrl,
        nowSeconds: Math.floor(Date.now() / 1000),
      });
      const res = channel.destination === 'operator' ? await this.http.postOperator(request) : await this.http.postGuarded(request);
      statusCode = res.statusCode;
      verdict = channel.judge(res, secretsOf(target));
    } catch (err) {
      verdict = this.verdictOf(err);
    }

    const error = verdict.outcome === 'delivered' ? null : verdict.error;
    const attempt: DeliveryAttempt = { at: startedAt.toISOString(), statusCode, durationMs: Math.round(performance.now() - started), error };
    const status: DeliveryStatus = verdict.outcome === 'delivered' ? 'delivered' : verdict.outcome === 'permanent' || lastAttempt ? 'failed' : 'pending';
    await this.record(d.id, attempt, status);

    const n = job.attemptsMade + 1;
    if (verdict.outcome === 'delivered') {
      this.logger.log(`${label} delivered (attempt ${n}, HTTP ${statusCode})`);
      return { delivered: true, statusCode: statusCode! };
    }
    if (verdict.outcome === 'permanent') {
      this.logger.warn(`${label} failed for good (attempt ${n}): ${verdict.error}`);
      throw new UnrecoverableError(verdict.error);
    }
    this.logger.warn(`${label} attempt ${n} failed${lastAttempt ? ', no attempt left' : ', will retry'}: ${verdict.error}`);
    throw new TransientDeliveryError(verdict.error, verdict.retryAfterMs);
  }

  private decrypt(d: DeliveryWithTarget): Target {
    const open = (sealed: string | null): string | null => {
      try {
        return this.crypto.decryptNullable(sealed);
      } catch {
        throw new TargetUnusableError("The integration's secrets could not be decrypted (was ENCRYPTION_KEY changed?)");
      }
    };
    const secret = open(d.secret);
    const previous = d.previous_secret_current ? open(d.previous_secret) : null;
    return {
      chatId: d.chat_id,
      threadId: d.thread_id,
      botToken: open(d.bot_token),
      webhookUrl: open(d.webhook_url),
      signingSecrets: [secret, previous].filter((s): s is string => !!s),
    };
  }

  /** An attempt that ended without an answer to judge. */
  private verdictOf(err: unknown): Verdict {
    if (err instanceof OutboundError) {
      return err.permanent ? { outcome: 'permanent', error: err.message } : { outcome: 'transient', error: err.message, retryAfterMs: null };
    }
    if (err instanceof TargetUnusableError || err instanceof SigningSecretError) return { outcome: 'permanent', error: err.message };
    // Anything else is a fault of ours (a bug, not the receiver): retry, and name only its kind.
    this.logger.error(`delivery attempt failed unexpectedly: ${(err as Error)?.name ?? 'error'}`);
    return { outcome: 'transient', error: 'Internal error while sending', retryAfterMs: null };
  }
}

/** Every secret an answer might echo, for scrubbing: the bot token, the webhook URL and its path, the signing secrets. */
function secretsOf(t: Target): string[] {
  const out = [...t.signingSecrets];
  if (t.botToken) out.push(t.botToken);
  if (t.webhookUrl) {
    out.push(t.webhookUrl);
    try {
      const u = new URL(t.webhookUrl);
      if (u.pathname.length > 1) out.push(u.pathname + u.search);
    } catch {
      /* not a URL: the whole value is already listed */
    }
  }
  return out;
}
