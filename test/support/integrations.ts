import { randomUUID } from 'node:crypto';
import { TestApp } from './app';
import { sql } from './fixtures';

/** A bot token of the accepted shape: 9 digits, a colon, 35 characters. */
export const BOT_TOKEN = '123456789:AAAAbbbbccccddddeeeeffffgggghhhwxyz';
export const MASKED_BOT_TOKEN = '123456789:AAAA\u2026wxyz';

export const DEFAULT_EVENTS = {
  taskCreated: true,
  taskStatusChanged: true,
  taskPriorityChanged: false,
  taskTitleChanged: false,
  taskDescriptionChanged: false,
  taskCommentCreated: true,
  taskDeleted: false,
  taskMoved: false,
  taskDueDateChanged: false,
  taskAssigneeChanged: false,
  dueDateReminder: false,
};

export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The integration row as stored (secret columns hold ciphertext). */
export async function integrationRow(t: TestApp, projectId: string, type: string) {
  const [row] = await sql(t.databaseUrl, `SELECT * FROM integration WHERE project_id = $1 AND type = $2`, [projectId, type]);
  return row;
}

export interface DeliveryFixture {
  workspaceId: string;
  projectId: string;
  targetType: string;
  targetId?: string;
  event?: string;
  status?: 'pending' | 'delivered' | 'failed';
  attempts?: unknown[];
  createdAt?: string;
  deliveredAt?: string | null;
  id?: string;
}

/**
 * A delivery row written directly (the fan-out and the delivery workers write them in the
 * service); answers its id.
 */
export async function insertDelivery(t: TestApp, d: DeliveryFixture): Promise<string> {
  const [row] = await sql(
    t.databaseUrl,
    `INSERT INTO delivery (id, workspace_id, project_id, event_id, event, target_type, target_id, payload, status, attempts, created_at, delivered_at)
     VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7, $8, $9, $10, coalesce($11::timestamptz, now()), $12)
     RETURNING id`,
    [
      d.id ?? null,
      d.workspaceId,
      d.projectId,
      randomUUID(),
      d.event ?? 'task.created',
      d.targetType,
      d.targetId ?? randomUUID(),
      JSON.stringify({ secretPayload: 'never answered' }),
      d.status ?? 'delivered',
      JSON.stringify(d.attempts ?? []),
      d.createdAt ?? null,
      d.deliveredAt === undefined ? (d.status === 'delivered' || d.status === undefined ? new Date().toISOString() : null) : d.deliveredAt,
    ],
  );
  return row.id;
}
