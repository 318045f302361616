import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { isUuid } from '../../common/pipes/id.pipe';
import { QueueName } from '../../queue/queues';
import { processorOptions, WorkerSettings } from '../../queue/worker-settings';
import { EmailComposerRegistry } from './email-composer.registry';
import { EmailJobRepository } from './email-job.repository';
import { isPermanentSmtpError, MailerService, smtpFailureReason } from './mailer.service';

export type EmailJobResult = { messageId: string } | { skipped: 'smtp-not-configured' | 'obsolete' };

/** Expired `email_job` rows are deleted at most this often by one worker process. */
const PRUNE_EVERY_MS = 3600_000;

/**
 * Sends the email of each job. The job carries only the random id of its `email_job` row (job
 * data `{emailJobId}`); the row says which composer renders it and from what (docs/decisions-local.md,
 * "Queued emails"). A failure that may pass (SMTP down, timeouts, 4xx) throws, so BullMQ retries
 * with the queue's backoff (src/queue/queues.ts); a permanent refusal stops the job. Either way
 * the failure reason BullMQ keeps and the log line are told by SMTP codes only, never by the
 * server's text, which quotes the recipient's address.
 */
@Processor(QueueName.Email, processorOptions())
export class EmailProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(EmailProcessor.name);
  private lastPrune = 0;

  constructor(
    private readonly composers: EmailComposerRegistry,
    private readonly jobs: EmailJobRepository,
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
    await this.pruneNowAndThen();
    const request = await this.request(job);
    if (!request) {
      this.logger.log(`email ${job.id} (${job.name}) skipped: no longer relevant`);
      return { skipped: 'obsolete' };
    }
    const compose = this.composers.get(request.kind);
    if (!compose) throw new UnrecoverableError(`No email composer for "${request.kind}"`);
    if (!this.mailer.configured) {
      this.logger.log(`email ${job.id} (${job.name}) skipped: SMTP_HOST is not set`);
      return { skipped: 'smtp-not-configured' };
    }
    const message = await compose(request.reference);
    if (!message) {
      this.logger.log(`email ${job.id} (${job.name}) skipped: no longer relevant`);
      return { skipped: 'obsolete' };
    }
    try {
      const sent = await this.mailer.send(message);
      this.logger.log(`email ${job.id} (${job.name}) sent`);
      return sent;
    } catch (err) {
      // A new error carrying only the codes: BullMQ keeps its message (failedReason) and its stack.
      const reason = smtpFailureReason(err);
      if (isPermanentSmtpError(err)) {
        this.logger.warn(`email ${job.id} (${job.name}) refused by the SMTP server: ${reason}`);
        throw new UnrecoverableError(reason);
      }
      this.logger.warn(`email ${job.id} (${job.name}) attempt ${job.attemptsMade + 1} failed, will retry: ${reason}`);
      throw new Error(reason);
    }
  }

  /**
   * The composer and what it reads: the job's `email_job` row, or null when it is gone (older than
   * the retention). A job queued before email_job existed carried the reference itself as its
   * data, under the composer's name: it is still sent.
   */
  private async request(job: Job): Promise<{ kind: string; reference: unknown } | null> {
    const id: unknown = job.data?.emailJobId;
    if (id === undefined) return { kind: job.name, reference: job.data };
    if (typeof id !== 'string' || !isUuid(id)) return null;
    const row = await this.jobs.find(id);
    return row ? { kind: row.kind, reference: row.reference } : null;
  }

  /** Deletes expired email_job rows, at most once an hour per process; a failure is logged, never the job's. */
  private async pruneNowAndThen(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    try {
      await this.jobs.pruneExpired();
    } catch (err) {
      this.logger.warn(`deleting expired email requests failed: ${(err as Error).message}`);
    }
  }
}
