import { Injectable } from '@nestjs/common';
import { OutboundHttp, OutboundRequest } from '../../../common/net/outbound-http';
import { describeSmtpError, isPermanentSmtpError, MailerService } from '../../mail/mailer.service';
import { PersonChannel } from '../channels';
import { classifyStatus, parseRetryAfter, scrub, urlSecrets } from '../delivery-policy';
import { SendOutcome } from '../target-kinds';
import { notificationEmail, preferencesUrl, ServerpushSettings, serverpushRequest, TopicpushSettings, topicpushRequest, userWebhookRequest } from './channel-messages';
import { MENTION_TYPE, messageText, notificationText } from './notification-text';
import { PersonDeliveryRow } from './person-delivery.repository';

/** A user's channel settings with their secrets decrypted (they live only in memory, for one attempt). */
export interface PersonTarget {
  /** The user's address, read when sending. */
  email: string | null;
  topicpush: TopicpushSettings | null;
  serverpush: ServerpushSettings | null;
  webhookUrl: string | null;
  /** The webhook's signing secrets, the current one first, then the previous one while it is still honoured. */
  signingSecrets: string[];
}

export interface PersonSendContext {
  clientUrl: string;
  /** Unix seconds of this attempt. */
  nowSeconds: number;
}

/** How one channel sends one message about `items` (the deliveries of a burst, oldest first; one for the webhook). */
export interface PersonChannelSender {
  readonly channel: PersonChannel;
  send(items: readonly PersonDeliveryRow[], target: PersonTarget, ctx: PersonSendContext): Promise<SendOutcome>;
}

/** Every secret an answer might echo, for scrubbing: the push tokens, the webhook URL and its path with its query, the signing secrets. */
function secretsOf(t: PersonTarget): string[] {
  const out = [...t.signingSecrets];
  if (t.webhookUrl) out.push(...urlSecrets(t.webhookUrl));
  if (t.topicpush?.token) out.push(t.topicpush.token);
  if (t.serverpush?.token) out.push(t.serverpush.token, encodeURIComponent(t.serverpush.token));
  return out;
}

/** The message of a burst, from the events' snapshots. */
const message = (items: readonly PersonDeliveryRow[], ctx: PersonSendContext) =>
  messageText(items.map((d) => notificationText(d.payload, ctx.clientUrl, { userId: d.target_id, mentioned: d.event === MENTION_TYPE })));

/**
 * POSTs through the destination guard and judges by status (Retry-After on a 429; an excerpt of
 * the answer, secrets cut out, on failure). A failure without an answer is thrown, for the
 * delivery policy to classify.
 */
async function postGuarded(http: OutboundHttp, req: OutboundRequest, target: PersonTarget): Promise<SendOutcome> {
  const res = await http.postGuarded(req);
  const ok = res.statusCode >= 200 && res.statusCode < 300;
  return {
    statusCode: res.statusCode,
    verdict: classifyStatus(res.statusCode, { retryAfterMs: parseRetryAfter(res.headers['retry-after']), detail: ok ? undefined : scrub(res.body, secretsOf(target)) }),
  };
}

const unusable = (error: string): SendOutcome => ({ statusCode: null, verdict: { outcome: 'permanent', error } });

/** The senders of a person's channels (docs/notifications.md, "What each channel receives"); TypeScript requires one per person channel of the channel table (../channels.ts). */
@Injectable()
export class PersonChannels {
  readonly email: PersonChannelSender;
  readonly topicpush: PersonChannelSender;
  readonly serverpush: PersonChannelSender;
  readonly webhook: PersonChannelSender;

  constructor(http: OutboundHttp, mailer: MailerService) {
    this.email = {
      channel: 'email',
      async send(items, target, ctx) {
        if (!mailer.configured) return unusable('Email is not set up on this server (SMTP_HOST is not set)');
        if (!target.email) return unusable('The recipient has no email address');
        try {
          const sent = await mailer.send(notificationEmail(target.email, message(items, ctx), preferencesUrl(ctx.clientUrl)));
          return { statusCode: sent.smtpCode, verdict: { outcome: 'delivered' } };
        } catch (err) {
          const reply = Number((err as any)?.responseCode);
          const error = describeSmtpError(err);
          return {
            statusCode: reply >= 200 && reply < 600 ? reply : null,
            verdict: isPermanentSmtpError(err) ? { outcome: 'permanent', error } : { outcome: 'transient', error, retryAfterMs: null },
          };
        }
      },
    };
    this.topicpush = {
      channel: 'topicpush',
      send: async (items, target, ctx) =>
        target.topicpush ? postGuarded(http, topicpushRequest(target.topicpush, message(items, ctx)), target) : unusable('The topicpush channel is not configured'),
    };
    this.serverpush = {
      channel: 'serverpush',
      send: async (items, target, ctx) =>
        target.serverpush ? postGuarded(http, serverpushRequest(target.serverpush, message(items, ctx)), target) : unusable('The serverpush channel is not configured'),
    };
    this.webhook = {
      channel: 'webhook',
      send: async (items, target, ctx) => {
        if (!target.webhookUrl) return unusable('The webhook is not configured');
        const [d] = items;
        return postGuarded(http, userWebhookRequest(target.webhookUrl, target.signingSecrets, d, ctx.clientUrl, ctx.nowSeconds), target);
      },
    };
  }

  of(channel: PersonChannel): PersonChannelSender {
    return this[channel];
  }
}
