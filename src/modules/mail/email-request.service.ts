import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OutboxService } from '../../queue/outbox.service';
import { QueueName } from '../../queue/queues';
import { EmailJobRepository } from './email-job.repository';

/** What the email queue's job carries (docs/decisions-local.md, "Queued emails"): the random id of its `email_job` row, nothing else. */
export interface EmailJobData {
  emailJobId: string;
}

/**
 * How a feature asks for an email (both roles): in the transaction of the change that needs it,
 * a row of `email_job` holds what the email is about, and the outbox holds the job, named after
 * the kind and carrying only the row's random id (which is also the job id). The worker reads the
 * row when it sends, so neither the queue nor its dashboard ever holds an invitation id, an
 * address or a token.
 */
@Injectable()
export class EmailRequestService {
  constructor(
    private readonly jobs: EmailJobRepository,
    private readonly outbox: OutboxService,
  ) {}

  /** `kind` names the composer; `reference` is what it reads the email from. Answers the job id. */
  async request(m: EntityManager, kind: string, reference: Record<string, unknown>): Promise<string> {
    const id = await this.jobs.insert(kind, reference, m);
    await this.outbox.enqueue(m, { queue: QueueName.Email, name: kind, id, payload: { emailJobId: id } satisfies EmailJobData });
    return id;
  }
}
