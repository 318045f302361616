import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An email job waiting to be relayed to the queue (written in the requesting transaction). */
@Entity({ name: 'email_outbox' })
export class EmailOutbox {
  @PrimaryGeneratedColumn('uuid') id: string;
  /** BullMQ job name: selects the composer that renders the email. */
  @Column('text') jobName: string;
  /** Stable BullMQ job id: publishing the same row twice adds the job once. */
  @Column('text') jobId: string;
  @Column('jsonb') payload: Record<string, unknown>;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
