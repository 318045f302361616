import { Injectable, OnModuleInit } from '@nestjs/common';
import { isUuid } from '../../../common/pipes/id.pipe';
import { OutboxFilters } from '../../../queue/outbox-filters';
import type { ClaimedOutboxRow } from '../../../queue/outbox.repository';
import { QueueName } from '../../../queue/queues';
import { isEventKind, isIntegrationKind, TaskEvent } from '../../task/task-event';
import { LISTENING_INTEGRATION_SQL } from './delivery-work.repository';
import { FanOutParts } from './fan-out-parts';

/**
 * Who hears of a task event, asked by the outbox relay before it queues the event
 * (docs/integrations.md, "Events nobody hears of"): a fan-out part that may have a target for it
 * (the assignee's notifications), or an active integration of the event's project whose flag for
 * the kind is on (asked in the relay's lease statement: LISTENING_INTEGRATION_SQL). An event nobody
 * hears is deleted from the outbox without a job; the change's history row stays its record. What
 * it cannot read (not a task event) is kept, so the fan-out records the failure.
 */
@Injectable()
export class TaskEventAudience implements OnModuleInit {
  constructor(
    private readonly filters: OutboxFilters,
    private readonly parts: FanOutParts,
  ) {}

  onModuleInit(): void {
    this.filters.register(QueueName.TaskEvents, { sql: LISTENING_INTEGRATION_SQL, keep: (rows) => this.heard(rows) });
  }

  /** The rows someone hears of; `hint` is LISTENING_INTEGRATION_SQL's answer for the row, from the lease statement. */
  heard(rows: readonly ClaimedOutboxRow[]): readonly ClaimedOutboxRow[] {
    return rows.filter((row) => {
      const event = row.payload as unknown as TaskEvent;
      if (!isEventKind(event?.kind) || !isUuid(event?.project?.id)) return true;
      return this.parts.list().some((p) => p.hears(event)) || (isIntegrationKind(event.kind) && row.hint === true);
    });
  }
}
