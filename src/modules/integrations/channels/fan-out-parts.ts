import { Injectable } from '@nestjs/common';
import { TaskEvent } from '../../task/task-event';

/**
 * Another kind of target of task events, beside the project integrations: the fan-out hands every
 * event to each registered part after the integrations' deliveries are written and queued. A part
 * must be idempotent (a re-run of the fan-out calls it again with the same event) and answers how
 * many deliveries it queued. Users' notifications register one (docs/notifications.md).
 */
export interface FanOutPart {
  readonly name: string;
  /**
   * Whether the part may have a target for `event`, judged from the event alone (no I/O). An event
   * that no part and no integration hears is never queued (TaskEventAudience), so true must be
   * answered whenever fanOut could deliver anything.
   */
  hears(event: TaskEvent): boolean;
  fanOut(event: TaskEvent): Promise<number>;
}

/** Where parts register (in onModuleInit), so the fan-out knows nothing of their tables. */
@Injectable()
export class FanOutParts {
  private readonly parts: FanOutPart[] = [];

  register(part: FanOutPart): void {
    if (this.parts.some((p) => p.name === part.name)) throw new Error(`Fan-out part "${part.name}" registered twice`);
    this.parts.push(part);
  }

  list(): readonly FanOutPart[] {
    return this.parts;
  }
}
