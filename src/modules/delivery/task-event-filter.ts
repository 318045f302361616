import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { isUuid } from '../../common/pipes/id.pipe';
import { OutboxFilters } from '../../queue/outbox-filters';
import type { ClaimedOutboxRow } from '../../queue/outbox.repository';
import { QueueName } from '../../queue/queues';
import { isEventKind, TaskEvent } from '../task/task-event';
import { DeliveryTargetKinds } from './delivery-target-kinds';

/**
 * Keeps out of the task-events queue the events no target would receive, asked by the outbox
 * relay before it queues a batch (docs/integrations.md, "Events nobody receives"): each target
 * kind says which events it may deliver (people: the event has a recipient, judged from the event
 * alone; integrations: an active integration of the event's project wants the kind, one statement
 * for the batch, asked only about the events people left). An event no kind may deliver is deleted
 * from the outbox without a job; the change's history row stays its record. What it cannot read
 * (not a task event) is kept, so the fan-out records the failure.
 */
@Injectable()
export class TaskEventFilter implements OnModuleInit {
  constructor(
    private readonly filters: OutboxFilters,
    private readonly kinds: DeliveryTargetKinds,
  ) {}

  onModuleInit(): void {
    this.filters.register(QueueName.TaskEvents, (rows, m) => this.deliverable(rows, m));
  }

  async deliverable(rows: readonly ClaimedOutboxRow[], m: EntityManager): Promise<readonly ClaimedOutboxRow[]> {
    const keep = new Set<ClaimedOutboxRow>();
    const eventOf = new Map<TaskEvent, ClaimedOutboxRow>();
    for (const row of rows) {
      const event = row.payload as unknown as TaskEvent;
      if (!isEventKind(event?.kind) || !isUuid(event?.project?.id)) keep.add(row);
      else eventOf.set(event, row);
    }
    let undecided = [...eventOf.keys()];
    for (const kind of this.kinds.all) {
      if (!undecided.length) break;
      const yes = await kind.mayDeliver(undecided, m);
      for (const event of yes) keep.add(eventOf.get(event)!);
      undecided = undecided.filter((e) => !yes.has(e));
    }
    return rows.filter((r) => keep.has(r));
  }
}
