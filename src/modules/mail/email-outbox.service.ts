import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EmailJobRequest } from './email.types';

/** The API side of the email outbox: an email is requested inside the transaction of the change. */
@Injectable()
export class EmailOutboxService {
  /**
   * Writes the email job with `manager` (the caller's transaction): it becomes visible to the
   * relay only if that transaction commits, and it survives a Redis outage because it is in Postgres.
   */
  async request(manager: EntityManager, job: EmailJobRequest): Promise<void> {
    if (job.jobId.includes(':')) throw new Error('BullMQ custom job ids must not contain ":"');
    await manager.query(
      `INSERT INTO email_outbox (job_name, job_id, payload) VALUES ($1, $2, $3) ON CONFLICT (job_id) DO NOTHING`,
      [job.name, job.jobId, JSON.stringify(job.data)],
    );
  }
}
