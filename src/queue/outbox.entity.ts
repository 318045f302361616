import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A job waiting to be published to its queue, written in the transaction of the change that asks for it. */
@Entity({ name: 'outbox' })
export class Outbox {
  /** Also the BullMQ job id: publishing the same row twice adds the job once. */
  @PrimaryColumn('text') id: string;
  @Column('text') queue: string;
  /** BullMQ job name (e.g. the email composer). */
  @Column('text') name: string;
  @Column('jsonb') payload: Record<string, unknown>;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  /** Publications that failed so far (Redis unreachable), with the last reason. */
  @Column('integer', { default: 0 }) attempts: number;
  @Column('text', { nullable: true }) lastError: string | null;
}
