import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * One requested email (docs/decisions-local.md, "Queued emails"): what to send, looked up by the
 * worker through the row's random id. The email queue's job carries only that id (job data
 * `{emailJobId}`, job id the same) and the kind (job name), so nothing the queue dashboard or the
 * logs show names an invitation, an address or a token. Rows are kept EMAIL_JOB_RETENTION_DAYS.
 */
@Entity({ name: 'email_job' })
export class EmailJob {
  /** Random (gen_random_uuid()): also the BullMQ job id and the outbox row id. */
  @PrimaryColumn('uuid') id: string;
  /** The composer: `invitation`, `verify-email`, `reset-password`. */
  @Column('text') kind: string;
  /**
   * What the composer reads the email from: `{invitationId, send}`, `{email, callbackURL}`,
   * `{email, redirectTo}`. Never a token (the worker makes those when it sends).
   */
  @Column('jsonb') reference: Record<string, unknown>;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
