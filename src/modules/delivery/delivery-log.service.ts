import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { isUuid } from '../../common/pipes/id.pipe';
import { OutboxService } from '../../queue/outbox.service';
import { IntegrationChannel, queueOf, REDELIVER_JOB } from './channels';
import { DELIVERY_PAGE_DEFAULT, ListDeliveriesQuery } from './delivery-log.dto';
import { DeliveryLogRepository } from './delivery-log.repository';
import { DeliveryRecord, toDeliveryRecord } from './delivery.record';

export const DELIVERY_NOT_FOUND = 'Delivery not found';

/**
 * The delivery log of a project's integration (docs/integrations.md, "Delivery log"): pages of
 * its deliveries, newest first, and redelivery of one of them (both roles: the API serves it, and
 * a worker takes the redelivery from the channel's queue).
 */
@Injectable()
export class DeliveryLogService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly deliveries: DeliveryLogRepository,
    private readonly outbox: OutboxService,
  ) {}

  async list(workspaceId: string, projectId: string, type: IntegrationChannel, q: ListDeliveriesQuery): Promise<{ deliveries: DeliveryRecord[] }> {
    const before = q.before?.toLowerCase();
    if (before !== undefined && !(isUuid(before) && (await this.deliveries.findForTarget(workspaceId, projectId, type, before)))) {
      throw new NotFoundException(DELIVERY_NOT_FOUND);
    }
    const rows = await this.deliveries.listForTarget(workspaceId, projectId, type, q.limit ?? DELIVERY_PAGE_DEFAULT, before);
    return { deliveries: rows.map(toDeliveryRecord) };
  }

  /**
   * Sets the delivery back to pending and queues its redelivery through the outbox, in one
   * transaction: the job exists iff the status changed. The worker sends the same body again
   * (same webhook-id), so receivers that deduplicate see it once.
   */
  async redeliver(workspaceId: string, projectId: string, type: IntegrationChannel, deliveryId: string): Promise<DeliveryRecord> {
    return this.ds.transaction(async (m) => {
      const row = await this.deliveries.markPending(workspaceId, projectId, type, deliveryId, m);
      if (!row) throw new NotFoundException(DELIVERY_NOT_FOUND);
      await this.outbox.enqueue(m, { queue: queueOf(type), name: REDELIVER_JOB, payload: { deliveryId: row.id }, id: `redeliver-${randomUUID()}` });
      return toDeliveryRecord(row);
    });
  }
}
