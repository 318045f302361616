import { TaskEvent } from '../../task/task-event';
import { classifyStatus, parseRetryAfter, scrub, UnusableTargetError, Verdict } from '../delivery-policy';
import { communitychatMessage } from './communitychat.format';
import { eventView } from './event-view';
import { genericWebhookBody, genericWebhookHeaders } from './generic-webhook.format';
import { IntegrationChannel } from '../channels';
import { messengerMessage } from './messenger.format';
import { OutboundRequest, OutboundResponse } from '../../../common/net/outbound-http';
import { teamchatMessage } from './teamchat.format';

/** An integration's settings with its secrets decrypted (they live only in memory, for one attempt). */
export interface Target {
  chatId: string | null;
  threadId: number | null;
  botToken: string | null;
  webhookUrl: string | null;
  /** Signing secrets, the current one first, then the previous one while it is still honoured. */
  signingSecrets: string[];
}

export interface SendContext {
  deliveryId: string;
  event: TaskEvent;
  clientUrl: string;
  messengerApiBaseUrl: string;
  /** Unix seconds of this attempt. */
  nowSeconds: number;
}

/** How one channel turns an event into a request and judges the answer. */
export interface ChannelFormat {
  type: IntegrationChannel;
  /** `guarded`: a user-supplied URL, through the destination guard; `operator`: a URL the operator configured. */
  destination: 'guarded' | 'operator';
  request(target: Target, ctx: SendContext): OutboundRequest;
  judge(res: OutboundResponse, secrets: readonly string[]): Verdict;
}

const JSON_HEADERS = { 'content-type': 'application/json', 'user-agent': 'Tandem-Delivery' };

const json = (body: string): any => {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
};

/** Default judgement: by status code, with Retry-After on a 429 and a scrubbed excerpt of the answer on failure. */
function byStatus(res: OutboundResponse, secrets: readonly string[]): Verdict {
  const ok = res.statusCode >= 200 && res.statusCode < 300;
  return classifyStatus(res.statusCode, {
    retryAfterMs: parseRetryAfter(res.headers['retry-after']),
    detail: ok ? undefined : scrub(res.body, secrets),
  });
}

function webhookUrl(target: Target): string {
  if (!target.webhookUrl) throw new UnusableTargetError('The integration has no webhook URL');
  return target.webhookUrl;
}

export const MESSENGER: ChannelFormat = {
  type: 'messenger',
  destination: 'operator',
  request(target, ctx) {
    if (!target.botToken) throw new UnusableTargetError('The integration has no bot token');
    if (!target.chatId) throw new UnusableTargetError('The integration has no chat id');
    const message = messengerMessage(eventView(ctx.event, ctx.clientUrl), { chatId: target.chatId, threadId: target.threadId });
    return { url: `${ctx.messengerApiBaseUrl}/bot${target.botToken}/sendMessage`, headers: JSON_HEADERS, body: JSON.stringify(message) };
  },
  /** The messenger answers `{ok: true, …}` on success, `{ok: false, description, parameters: {retry_after}}` otherwise. */
  judge(res, secrets) {
    const answer = json(res.body);
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    if (ok && answer?.ok === true) return { outcome: 'delivered' };
    if (ok) return { outcome: 'permanent', error: `HTTP ${res.statusCode}: the messenger API did not answer ok: true` };
    const retryAfterSeconds = Number(answer?.parameters?.retry_after);
    const retryAfterMs = parseRetryAfter(res.headers['retry-after']) ?? (Number.isFinite(retryAfterSeconds) && retryAfterSeconds >= 0 ? retryAfterSeconds * 1000 : null);
    const detail = typeof answer?.description === 'string' ? scrub(answer.description, secrets) : scrub(res.body, secrets);
    return classifyStatus(res.statusCode, { retryAfterMs, detail });
  },
};

export const TEAMCHAT: ChannelFormat = {
  type: 'teamchat',
  destination: 'guarded',
  request(target, ctx) {
    return { url: webhookUrl(target), headers: JSON_HEADERS, body: JSON.stringify(teamchatMessage(eventView(ctx.event, ctx.clientUrl))) };
  },
  judge: byStatus,
};

export const COMMUNITYCHAT: ChannelFormat = {
  type: 'communitychat',
  destination: 'guarded',
  request(target, ctx) {
    const body = communitychatMessage(eventView(ctx.event, ctx.clientUrl), ctx.event.kind);
    return { url: webhookUrl(target), headers: JSON_HEADERS, body: JSON.stringify(body) };
  },
  judge: byStatus,
};

export const GENERIC_WEBHOOK: ChannelFormat = {
  type: 'generic-webhook',
  destination: 'guarded',
  request(target, ctx) {
    const body = JSON.stringify(genericWebhookBody(ctx.event, ctx.clientUrl));
    const headers = { 'user-agent': JSON_HEADERS['user-agent'], ...genericWebhookHeaders(ctx.deliveryId, ctx.nowSeconds, body, target.signingSecrets) };
    return { url: webhookUrl(target), headers, body };
  },
  judge: byStatus,
};

/** Each integration channel's format: TypeScript requires one for every integration channel of the channel table (../channels.ts). */
export const INTEGRATION_FORMATS: Readonly<Record<IntegrationChannel, ChannelFormat>> = {
  messenger: MESSENGER,
  teamchat: TEAMCHAT,
  communitychat: COMMUNITYCHAT,
  'generic-webhook': GENERIC_WEBHOOK,
};
