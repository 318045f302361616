import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { firstRow } from '../../database/sql';

/** How long a handled delivery is remembered (a replay after that is handled again). */
export const RECEIPT_RETENTION_DAYS = 90;

/**
 * Inbound git-host webhook deliveries already handled (docs/git-hosts.md, "Inbound webhooks"). A delivery
 * is recorded in the transaction of the changes it makes, so it is remembered iff they committed.
 */
@Injectable()
export class GitWebhookReceiptRepository {
  /**
   * Records the delivery; false when `receiver` handled the same delivery id or the same body
   * before (a concurrent duplicate waits for the first transaction and then finds its row).
   * Also forgets, a hundred at a time, receipts older than the retention.
   */
  async record(receiver: string, deliveryId: string, bodySha256: string, m: EntityManager): Promise<boolean> {
    const row = await firstRow(
      m,
      `WITH forgotten AS (
         DELETE FROM git_webhook_receipt
          WHERE id IN (SELECT id FROM git_webhook_receipt WHERE received_at < now() - interval '${RECEIPT_RETENTION_DAYS} days' LIMIT 100)
       )
       INSERT INTO git_webhook_receipt (receiver, delivery_id, body_sha256) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [receiver, deliveryId, bodySha256],
    );
    return row !== undefined;
  }
}
