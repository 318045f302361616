import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { QueueName } from '../../queue/queues';
import { processorOptions, WorkerSettings } from '../../queue/worker-settings';
import { EmailComposerRegistry } from './email-composer.registry';
import { isPermanentSmtpError, MailerService } from './mailer.service';

export type EmailJobResult = { messageId: string } | { skipped: 'smtp-not-configured' | 'obsolete' };

/**
 * Sends the email of each job. A failure that may pass (SMTP down, timeouts, 4xx) throws, so
 * BullMQ retries with the queue's backoff (src/queue/queues.ts); a permanent refusal stops the job.
 * Job names select the composer: other features add emails by registering a composer.
 */
@Processor(QueueName.Email, processorOptions())
export class EmailProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(EmailProcessor.name);

  constructor(
    private readonly composers: EmailComposerRegistry,
    private readonly mailer: MailerService,
    private readonly settings: WorkerSettings,
  ) {
    super();
  }

  /** Starts consuming with the configured concurrency (QUEUE_CONCURRENCY, default 4). */
  onApplicationBootstrap(): void {
    this.settings.start(this, QueueName.Email);
  }

  async process(job: Job): Promise<EmailJobResult> {
    const compose = this.composers.get(job.name);
    if (!compose) throw new UnrecoverableError(`No email composer for job "${job.name}"`);
    if (!this.mailer.configured) {
      this.logger.log(`email ${job.id} (${job.name}) skipped: SMTP_HOST is not set`);
      return { skipped: 'smtp-not-configured' };
    }
    const message = await compose(job.data);
    if (!message) {
      this.logger.log(`email ${job.id} (${job.name}) skipped: no longer relevant`);
      return { skipped: 'obsolete' };
    }
    try {
      const sent = await this.mailer.send(message);
      this.logger.log(`email ${job.id} (${job.name}) sent`);
      return sent;
    } catch (err) {
      const reason = (err as Error).message;
      if (isPermanentSmtpError(err)) {
        this.logger.warn(`email ${job.id} (${job.name}) refused by the SMTP server: ${reason}`);
        throw new UnrecoverableError(reason);
      }
      this.logger.warn(`email ${job.id} (${job.name}) attempt ${job.attemptsMade + 1} failed, will retry: ${reason}`);
      throw err;
    }
  }
}
