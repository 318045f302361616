import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { isUuid } from '../../../common/pipes/id.pipe';
import { OutboxFilters } from '../../../queue/outbox-filters';
import type { ClaimedOutboxRow } from '../../../queue/outbox.repository';
import { QueueName } from '../../../queue/queues';
import { isEventKind, isIntegrationKind, TaskEvent } from '../../task/task-event';
import { DeliveryWorkRepository } from './delivery-work.repository';
import { FanOutParts } from './fan-out-parts';

/**
 * Who hears of a task event, asked by the outbox relay before it queues the event
 * (docs/integrations.md, "Events nobody hears of"): a fan-out part that may have a target for it
 * (the assignee's notifications), or an active integration of the event's project whose flag for
 * the kind is on. An event nobody hears is deleted from the outbox without a job; the change's
 * history row stays its record. One statement per relayed batch, and none when a part hears every
 * event. What it cannot read (not a task event) is kept, so the fan-out records the failure.
 */
@Injectable()
export class TaskEventAudience implements OnModuleInit {
  constructor(
    private readonly filters: OutboxFilters,
    private readonly parts: FanOutParts,
    private readonly deliveries: DeliveryWorkRepository,
  ) {}

  onModuleInit(): void {
    this.filters.register(QueueName.TaskEvents, (rows, m) => this.heard(rows, m));
  }

  async heard(rows: readonly ClaimedOutboxRow[], m: EntityManager): Promise<readonly ClaimedOutboxRow[]> {
    const unsure = new Map<ClaimedOutboxRow, { projectId: string; kind: string }>();
    const keep = new Set<ClaimedOutboxRow>();
    for (const row of rows) {
      const event = row.payload as unknown as TaskEvent;
      const projectId = event?.project?.id;
      if (!isEventKind(event?.kind) || !isUuid(projectId)) keep.add(row);
      else if (this.parts.list().some((p) => p.hears(event))) keep.add(row);
      else if (isIntegrationKind(event.kind)) unsure.set(row, { projectId, kind: event.kind });
    }
    if (unsure.size) {
      const listening = await this.deliveries.listening([...unsure.values()], m);
      for (const [row, { projectId, kind }] of unsure) if (listening.has(`${projectId.toLowerCase()} ${kind}`)) keep.add(row);
    }
    return rows.filter((r) => keep.has(r));
  }
}
