import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Coalescer } from '../../../common/concurrency/coalescer';
import { CryptoService } from '../../../common/crypto/crypto.service';
import { OutboundHttp } from '../../../common/net/outbound-http';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { FLAG_OF_KIND, isIntegrationKind, TaskEvent } from '../../task/task-event';
import { Channel, DELIVER_JOB, DeliveryJobData, IntegrationChannel } from '../channels';
import { UnusableTargetError, urlSecrets } from '../delivery-policy';
import { DeliveryQueues } from '../delivery-queues';
import { DeliveryTargets, nothingToSend, Preparation, SendOutcome } from '../target-kinds';
import { INTEGRATION_FORMATS, Target } from './channel-formats';
import { DeliveryWithTarget, IntegrationDeliveriesRepository } from './integration-deliveries.repository';

export const INTEGRATION_REMOVED = 'Integration removed';
export const INTEGRATION_INACTIVE = 'Integration inactive';

/**
 * The project integrations as delivery targets (docs/integrations.md): a delivery per event and
 * active integration of the event's project whose flag for the event's kind is on (FLAG_OF_KIND;
 * a time entry or a comment edit reaches people only), and one message per
 * delivery in the integration's channel format.
 *
 * The attempts running at once (every channel's, up to each queue's concurrency) read their
 * deliveries together: a read asked for while the previous one is in flight joins the next
 * statement (Coalescer), so under load a delivery costs a share of one statement instead of a round
 * trip of its own, and idle it costs the same.
 */
@Injectable()
export class IntegrationTargets implements DeliveryTargets {
  readonly kind = 'integration';
  private readonly reads: Coalescer<string, DeliveryWithTarget | undefined>;

  constructor(
    private readonly deliveries: IntegrationDeliveriesRepository,
    private readonly queues: DeliveryQueues,
    private readonly crypto: CryptoService,
    private readonly http: OutboundHttp,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.reads = new Coalescer((ids) => this.deliveries.withTargets(ids));
  }

  /** Events of the integration kinds whose project has an active integration that wants the kind: one statement for all of them. */
  async mayDeliver(events: readonly TaskEvent[], m: EntityManager): Promise<ReadonlySet<TaskEvent>> {
    const candidates = events.filter((e) => isIntegrationKind(e.kind));
    if (!candidates.length) return new Set();
    const listening = await this.deliveries.listening(
      candidates.map((e) => ({ projectId: e.project.id, flag: FLAG_OF_KIND[e.kind]! })),
      m,
    );
    return new Set(candidates.filter((e) => listening.has(`${e.project.id.toLowerCase()} ${FLAG_OF_KIND[e.kind]}`)));
  }

  /** The deliveries of a batch of events in one statement, then one job per pending delivery on its channel's queue (job id = delivery id). */
  async fanOut(events: readonly TaskEvent[]): Promise<number> {
    const pending = await this.deliveries.fanOutMany(events.filter((e) => isIntegrationKind(e.kind)));
    const byChannel = new Map<IntegrationChannel, string[]>();
    for (const d of pending) byChannel.set(d.target_type, [...(byChannel.get(d.target_type) ?? []), d.id]);
    await Promise.all(
      [...byChannel].map(([channel, ids]) =>
        this.queues.of(channel).addBulk(ids.map((deliveryId) => ({ name: DELIVER_JOB, data: { deliveryId } satisfies DeliveryJobData, opts: { jobId: deliveryId } }))),
      ),
    );
    return pending.length;
  }

  async prepare(deliveryId: string, channel: Channel): Promise<Preparation> {
    const d = await this.reads.submit(deliveryId);
    if (!d) return { skipped: 'gone' };
    if (d.status !== 'pending') return { skipped: 'not-pending' };
    const label = `delivery ${d.id} (${channel}, event ${d.event_id})`;
    if (!d.integration_id || !d.is_active) {
      return nothingToSend(label, [{ ids: [d.id], reason: d.integration_id ? INTEGRATION_INACTIVE : INTEGRATION_REMOVED }]);
    }
    const format = INTEGRATION_FORMATS[d.target_type];
    return {
      label,
      dropped: [],
      ids: [d.id],
      send: async (): Promise<SendOutcome> => {
        const target = this.decrypt(d);
        const request = format.request(target, {
          deliveryId: d.id,
          event: d.payload,
          clientUrl: this.config.clientUrl,
          messengerApiBaseUrl: this.config.messengerApiBaseUrl,
          nowSeconds: Math.floor(Date.now() / 1000),
        });
        const res = format.destination === 'operator' ? await this.http.postOperator(request) : await this.http.postGuarded(request);
        return { statusCode: res.statusCode, verdict: format.judge(res, secretsOf(target)) };
      },
    };
  }

  private decrypt(d: DeliveryWithTarget): Target {
    const open = (sealed: string | null): string | null => {
      try {
        return this.crypto.decryptNullable(sealed);
      } catch {
        throw new UnusableTargetError("The integration's secrets could not be decrypted (was ENCRYPTION_KEY changed?)");
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
}

/** Every secret an answer might echo, for scrubbing: the bot token, the webhook URL and its path with its query, the signing secrets. */
function secretsOf(t: Target): string[] {
  const out = [...t.signingSecrets];
  if (t.botToken) out.push(t.botToken);
  if (t.webhookUrl) out.push(...urlSecrets(t.webhookUrl));
  return out;
}
