import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A user's global notification preferences (docs/notifications.md). Push tokens and webhook
 * signing secrets hold CryptoService ciphertext, never clear text.
 */
@Entity({ name: 'notification_preference' })
export class NotificationPreference {
  @PrimaryColumn('uuid') userId: string;
  @Column('boolean', { default: false }) emailEnabled: boolean;
  @Column('boolean', { default: false }) topicpushEnabled: boolean;
  @Column('text', { nullable: true }) topicpushServerUrl: string | null;
  @Column('text', { nullable: true }) topicpushTopic: string | null;
  @Column('text', { nullable: true }) topicpushToken: string | null;
  @Column('boolean', { default: false }) serverpushEnabled: boolean;
  @Column('text', { nullable: true }) serverpushServerUrl: string | null;
  @Column('text', { nullable: true }) serverpushToken: string | null;
  @Column('boolean', { default: false }) webhookEnabled: boolean;
  @Column('text', { nullable: true }) webhookUrl: string | null;
  @Column('text', { nullable: true }) webhookSecret: string | null;
  /** The signing secret before the last replacement, kept for 24 h of double signing. */
  @Column('text', { nullable: true }) webhookPreviousSecret: string | null;
  @Column('timestamptz', { nullable: true }) webhookSecretReplacedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
