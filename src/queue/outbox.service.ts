import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OutboxRepository } from './outbox.repository';
import { QueueName } from './queues';

export interface OutboxJob {
  queue: QueueName;
  /** BullMQ job name (for the email queue: the composer). */
  name: string;
  /** What the job needs; stored as JSON. */
  payload: Record<string, unknown>;
  /**
   * The row id, which is also the BullMQ job id. Give one when the same job may be asked for
   * twice (a stable key): the second request adds nothing. Default: a random UUID.
   */
  id?: string;
}

/** Writing side of the transactional outbox (both roles); OutboxRelay publishes (worker role). */
@Injectable()
export class OutboxService {
  constructor(private readonly outbox: OutboxRepository) {}

  /**
   * Writes the job with `m`, the transaction of the change that asks for it: the job exists iff
   * that transaction commits, and it survives a Redis outage because it is in Postgres. Answers
   * the row id (= job id).
   */
  async enqueue(m: EntityManager, job: OutboxJob): Promise<string> {
    if (job.id !== undefined) assertJobId(job.id);
    return this.outbox.insert({ id: job.id, queue: job.queue, name: job.name, payload: job.payload }, m);
  }
}

/** BullMQ refuses custom job ids that are integers or hold ':' (the table checks the same). */
function assertJobId(id: string): void {
  if (!id || /^-?\d+$/.test(id) || id.includes(':')) throw new Error(`Outbox job id "${id}" must not be empty, an integer or contain ":"`);
}
