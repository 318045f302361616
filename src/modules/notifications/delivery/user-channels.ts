import { Injectable } from '@nestjs/common';
import { classifyStatus, parseRetryAfter, scrub, Verdict } from '../../integrations/channels/classify';
import { SigningSecretError } from '../../integrations/channels/generic-webhook.format';
import { OutboundError, OutboundHttp, OutboundRequest } from '../../integrations/channels/outbound-http';
import { describeSmtpError, isPermanentSmtpError, MailerService } from '../../mail/mailer.service';
import { UserChannel } from '../../notification-preferences/channel-rules';
import { notificationEmail, preferencesUrl, ServerpushSettings, serverpushRequest, TopicpushSettings, topicpushRequest, userWebhookRequest } from './channel-messages';
import { messageText, notificationText } from './notification-text';
import { UserDeliveryRow } from './user-delivery.repository';

/** A user's channel settings with their secrets decrypted (they live only in memory, for one attempt). */
export interface UserTarget {
  /** The user's address, read when sending. */
  email: string | null;
  topicpush: TopicpushSettings | null;
  serverpush: ServerpushSettings | null;
  webhookUrl: string | null;
  /** The webhook's signing secrets, the current one first, then the previous one while it is still honoured. */
  signingSecrets: string[];
}

export interface UserSendContext {
  clientUrl: string;
  /** Unix seconds of this attempt. */
  nowSeconds: number;
}

export interface SendOutcome {
  /** The HTTP status, or the SMTP reply code for email; null when no answer came. */
  statusCode: number | null;
  verdict: Verdict;
}

/** How one channel sends one message about `items` (the deliveries of a burst, oldest first; one for the webhook). */
export interface UserChannelSender {
  readonly channel: UserChannel;
  send(items: readonly UserDeliveryRow[], target: UserTarget, ctx: UserSendContext): Promise<SendOutcome>;
}

/** Every secret an answer might echo, for scrubbing. */
function secretsOf(t: UserTarget): string[] {
  const out = [...t.signingSecrets];
  if (t.topicpush?.token) out.push(t.topicpush.token);
  if (t.serverpush?.token) out.push(t.serverpush.token, encodeURIComponent(t.serverpush.token));
  return out;
}

/** The message of a burst, from the events' snapshots. */
const message = (items: readonly UserDeliveryRow[], ctx: UserSendContext) => messageText(items.map((d) => notificationText(d.payload, ctx.clientUrl)));

/** POSTs through the destination guard and judges by status (Retry-After on a 429; an excerpt of the answer, secrets cut out, on failure). */
async function postGuarded(http: OutboundHttp, req: OutboundRequest, target: UserTarget): Promise<SendOutcome> {
  try {
    const res = await http.postGuarded(req);
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    return {
      statusCode: res.statusCode,
      verdict: classifyStatus(res.statusCode, { retryAfterMs: parseRetryAfter(res.headers['retry-after']), detail: ok ? undefined : scrub(res.body, secretsOf(target)) }),
    };
  } catch (err) {
    if (err instanceof OutboundError) {
      return { statusCode: null, verdict: err.permanent ? { outcome: 'permanent', error: err.message } : { outcome: 'transient', error: err.message, retryAfterMs: null } };
    }
    if (err instanceof SigningSecretError) return { statusCode: null, verdict: { outcome: 'permanent', error: err.message } };
    throw err;
  }
}

const unusable = (error: string): SendOutcome => ({ statusCode: null, verdict: { outcome: 'permanent', error } });

/** The four channel senders (docs/notifications.md, "What each channel receives"). */
@Injectable()
export class UserChannels {
  readonly email: UserChannelSender;
  readonly topicpush: UserChannelSender;
  readonly serverpush: UserChannelSender;
  readonly webhook: UserChannelSender;

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
        return postGuarded(http, userWebhookRequest(target.webhookUrl, target.signingSecrets, d.id, d.payload, ctx.clientUrl, ctx.nowSeconds), target);
      },
    };
  }

  of(channel: UserChannel): UserChannelSender {
    return this[channel];
  }
}
