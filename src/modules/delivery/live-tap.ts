import { Injectable, OnModuleInit } from '@nestjs/common';
import { isUuid } from '../../common/pipes/id.pipe';
import { OutboxFilters } from '../../queue/outbox-filters';
import type { ClaimedOutboxRow } from '../../queue/outbox.repository';
import { QueueName } from '../../queue/queues';
import { liveData } from '../../redis/live-entry';
import { LiveEntry, LiveStreams } from '../../redis/live-streams';
import { isEventKind, TASK_EVENT_NAMES, TaskEvent } from '../task/task-event';

/**
 * Appends every committed task event to its workspace's live stream (docs/live-events.md), as the
 * relay claims it: before the event filter, since a member's open board receives every event,
 * whether or not an integration or a person's channel would. A batch whose append fails stays in
 * the outbox and comes again (an event appended twice is sent once: the stream skips an id it has
 * just sent).
 */
@Injectable()
export class LiveTap implements OnModuleInit {
  constructor(
    private readonly filters: OutboxFilters,
    private readonly live: LiveStreams,
  ) {}

  onModuleInit(): void {
    this.filters.tap(QueueName.TaskEvents, (rows) => this.append(rows));
  }

  async append(rows: readonly ClaimedOutboxRow[]): Promise<void> {
    const byWorkspace = new Map<string, LiveEntry[]>();
    for (const row of rows) {
      const event = row.payload as unknown as TaskEvent;
      if (!isEventKind(event?.kind) || !isUuid(event.workspaceId) || !isUuid(event.id)) continue;
      const entry: LiveEntry = { id: event.id, event: TASK_EVENT_NAMES[event.kind], data: liveData(event), userId: null };
      byWorkspace.set(event.workspaceId, [...(byWorkspace.get(event.workspaceId) ?? []), entry]);
    }
    await this.live.append(byWorkspace);
  }
}
