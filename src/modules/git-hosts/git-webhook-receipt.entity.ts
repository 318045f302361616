import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An inbound git-host webhook delivery already handled (replay protection). */
@Entity({ name: 'git_webhook_receipt' })
export class GitWebhookReceipt {
  @PrimaryGeneratedColumn('uuid') id: string;
  /** `selfgit:<integration id>` or `hostedgit`. */
  @Column('text') receiver: string;
  @Column('text') deliveryId: string;
  @Column('text') bodySha256: string;
  @Column('timestamptz') receivedAt: Date;
}
