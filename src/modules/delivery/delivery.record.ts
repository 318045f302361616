import { iso } from '../../database/sql';

/** delivery as selected by DELIVERY_FIELDS (the payload is never selected: it is not answered). */
export interface DeliveryRow {
  id: string;
  event_id: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: unknown;
  created_at: Date;
  delivered_at: Date | null;
}

export const DELIVERY_FIELDS = 'id, event_id, event, status, attempts, created_at, delivered_at';

/** One attempt to deliver (written by the delivery workers). */
export interface DeliveryAttempt {
  at: string | null;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
}

/** Delivery record (docs/integrations.md, "Delivery log"). */
export interface DeliveryRecord {
  id: string;
  eventId: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
  createdAt: string;
  deliveredAt: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Exactly the four fields of each attempt, whatever else the worker stored with it. */
const toAttempt = (a: any): DeliveryAttempt => ({ at: str(a?.at), statusCode: num(a?.statusCode), durationMs: num(a?.durationMs), error: str(a?.error) });

export const toDeliveryRecord = (r: DeliveryRow): DeliveryRecord => ({
  id: r.id,
  eventId: r.event_id,
  event: r.event,
  status: r.status,
  attempts: Array.isArray(r.attempts) ? r.attempts.map(toAttempt) : [],
  createdAt: iso(r.created_at)!,
  deliveredAt: iso(r.delivered_at),
});
