import { Webhook } from 'standardwebhooks';
import { integrationEventName, TaskEvent } from '../../task/task-event';
import { UnusableTargetError } from '../delivery-policy';
import { taskUrl } from './event-view';

/** The generic webhook's JSON body (docs/integrations.md, "Delivery formats and retries"). */
export interface GenericWebhookBody {
  event: string;
  timestamp: string;
  project: { id: string; name: string; workspaceId: string };
  task: { id: string; number: number; title: string; status: string; priority: string; url: string };
  actor: { id: string; name: string } | null;
  data: Record<string, unknown>;
}

/**
 * The body depends only on the event snapshot and CLIENT_URL, so every attempt and every
 * redelivery of one event sends the same bytes; `timestamp` is when the change happened. `name` is
 * the `event` value: an integration's wire name unless a person's webhook names its notification.
 */
export function genericWebhookBody(event: TaskEvent, clientUrl: string, name: string = integrationEventName(event.kind)): GenericWebhookBody {
  return {
    event: name,
    timestamp: event.occurredAt,
    project: { id: event.project.id, name: event.project.name, workspaceId: event.workspaceId },
    task: {
      id: event.task.id,
      number: event.task.number,
      title: event.task.title,
      status: event.task.status,
      priority: event.task.priority,
      url: taskUrl(clientUrl, event),
    },
    actor: event.actor ? { id: event.actor.id, name: event.actor.name } : null,
    data: publicData(event),
  };
}

/** `data` as receivers see it: whom a reminder is for (the ids the fan-out reads) is not theirs to know. */
function publicData(event: TaskEvent): Record<string, unknown> {
  const { userIds: _u, integrationIds: _i, ...rest } = event.data ?? {};
  return rest;
}

/** A signing secret that cannot be used (a `whsec_` secret that is not base64); the message names no secret. */
export class SigningSecretError extends UnusableTargetError {}

const WHSEC = 'whsec_';

/**
 * The Standard Webhooks signer for `secret`. The package reads a string secret as base64 (with or
 * without `whsec_`), and a "raw" string byte per UTF-16 unit; our contract is: `whsec_<base64>`
 * is the base64 of the key, anything else is the key as UTF-8 bytes, so plain secrets are handed
 * over as their UTF-8 bytes.
 */
function signer(secret: string): Webhook {
  if (secret.startsWith(WHSEC)) {
    const b64 = secret.slice(WHSEC.length);
    if (!b64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) {
      throw new SigningSecretError('The signing secret starts with whsec_ but the rest is not base64');
    }
    // Checked above: the package accepts exactly such base64 (and would throw a less clear error).
    return new Webhook(secret);
  }
  return new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
}

/**
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each secret, space-separated, in the
 * order given (the current secret first, then the previous one during its grace period); null
 * without a secret.
 */
export function webhookSignature(id: string, timestampSeconds: number, body: string, secrets: readonly string[]): string | null {
  if (!secrets.length) return null;
  const at = new Date(timestampSeconds * 1000);
  return secrets.map((s) => signer(s).sign(id, at, body)).join(' ');
}

/** The headers of one attempt: `webhook-id` (the delivery id), `webhook-timestamp` (now) and the signature when signed. */
export function genericWebhookHeaders(id: string, timestampSeconds: number, body: string, secrets: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
  };
  const signature = webhookSignature(id, timestampSeconds, body, secrets);
  if (signature) headers['webhook-signature'] = signature;
  return headers;
}
