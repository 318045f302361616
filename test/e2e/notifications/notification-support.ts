import { createHmac, timingSafeEqual } from 'node:crypto';
import { Auth } from '../../support/api';
import { TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { ReceivedRequest } from '../../support/http-receiver';
import { ReceivedMail, TestSmtpServer } from '../../support/smtp';
import { until } from '../../support/until';
import { createProject, createTask, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/**
 * A workspace where `owner` (the actor) changes tasks assigned to `bob` (the recipient), in
 * project `project` (and `other`, a second project of the same workspace).
 */
export async function team(t: TestApp, projectName = 'Apollo') {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const bob = await userWithRole(t, workspaceId, 'member');
  const project = await createProject(t, owner.token, workspaceId, { name: projectName });
  const other = await createProject(t, owner.token, workspaceId, { name: `${projectName} 2` });
  return { owner, bob, workspaceId, project, other };
}

/** A task in `projectId` assigned to `assignee` at creation by `actor` (a `task.created` for the assignee). */
export const taskFor = (t: TestApp, actor: Auth, projectId: string, assignee: Auth, fields: Record<string, unknown> = {}) =>
  createTask(t, actor.token, projectId, { title: 'Launch', userId: assignee.user.id, ...fields });

export async function savePreferences(t: TestApp, token: string, body: Record<string, unknown>) {
  const res = await t.api.put('/notification-preferences', body, token);
  if (res.status !== 200) throw new Error(`saving preferences failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function saveRule(t: TestApp, token: string, workspaceId: string, body: Record<string, unknown>) {
  const res = await t.api.put(`/notification-preferences/workspaces/${workspaceId}`, body, token);
  if (res.status !== 200) throw new Error(`saving the rule failed: ${res.status} ${res.text}`);
  return res.body;
}

export interface UserDeliveryRow {
  id: string;
  event_id: string;
  event: string;
  target_type: string;
  target_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Array<{ at: string; statusCode: number | null; durationMs: number; error: string | null }>;
  payload: any;
  delivered_at: Date | null;
}

/** The user's channel deliveries (optionally of one channel), oldest first. */
export const userDeliveries = (t: TestApp, userId: string, channel?: string): Promise<UserDeliveryRow[]> =>
  sql<UserDeliveryRow>(t.databaseUrl, `SELECT * FROM delivery WHERE target_id = $1 AND ($2::text IS NULL OR target_type = $2) ORDER BY created_at, payload->>'occurredAt', id`, [
    userId,
    channel ?? null,
  ]);

/** The user's in-app notification rows, oldest first. */
export const notificationRows = (t: TestApp, userId: string) => sql(t.databaseUrl, `SELECT * FROM notification WHERE user_id = $1 ORDER BY created_at, id`, [userId]);

/** Waits until the user has `n` in-app notifications: the fan-out of those events is done (a notification and its deliveries are written in one statement). */
export const notifiedTimes = (t: TestApp, userId: string, n: number, timeoutMs = 15_000) =>
  until(
    `${n} notification(s) of ${userId}`,
    async () => {
      const rows = await notificationRows(t, userId);
      return rows.length >= n && rows;
    },
    timeoutMs,
  );

/** Waits until every delivery of the user on `channel` is settled (delivered or failed) and there are `n` of them. */
export const settled = (t: TestApp, userId: string, channel: string, n: number, timeoutMs = 15_000) =>
  until(
    `${n} settled ${channel} deliveries of ${userId}`,
    async () => {
      const rows = await userDeliveries(t, userId, channel);
      return rows.length === n && rows.every((d) => d.status !== 'pending') && rows;
    },
    timeoutMs,
  );

/**
 * Standard Webhooks verification written here from the scheme, independently of the service's
 * signer: the key is the base64 after `whsec_` (else the secret's UTF-8 bytes); any `v1,` entry
 * of `webhook-signature` that matches the HMAC-SHA256 of `id.timestamp.body` verifies.
 */
export function verifies(secret: string, req: ReceivedRequest): boolean {
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
  const signed = `${req.headers['webhook-id']}.${req.headers['webhook-timestamp']}.${req.raw}`;
  const expected = Buffer.from(createHmac('sha256', key).update(signed).digest('base64'));
  return String(req.headers['webhook-signature'] ?? '')
    .split(' ')
    .some((s) => {
      const sig = Buffer.from(s.slice(3));
      return s.startsWith('v1,') && sig.length === expected.length && timingSafeEqual(sig, expected);
    });
}

/** The signatures of a request, each checked against the secrets: which secret made which entry. */
export const signers = (req: ReceivedRequest, secrets: Record<string, string>): string[] =>
  String(req.headers['webhook-signature'] ?? '')
    .split(' ')
    .map((entry) => Object.entries(secrets).find(([, s]) => verifies(s, { ...req, headers: { ...req.headers, 'webhook-signature': entry } }))?.[0] ?? '?');

/** The notification emails to `address` (their subject starts with the task heading `[Project] #n …`), leaving out the account's own emails (the address check after sign-up). */
export const taskMails = (smtp: TestSmtpServer, address: string): ReceivedMail[] => smtp.to(address).filter((m) => m.parsed.subject?.startsWith('['));

/** Waits until at least `n` notification emails reached `address`; resolves with them. */
export const waitForTaskMails = (smtp: TestSmtpServer, address: string, n = 1, timeoutMs = 15_000) =>
  until(`${n} notification email(s) to ${address}`, () => taskMails(smtp, address).length >= n && taskMails(smtp, address), timeoutMs);
