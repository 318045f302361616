import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A user's rule for one workspace: narrows the global preferences there (docs/notifications.md). */
@Entity({ name: 'notification_rule' })
export class NotificationRule {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') userId: string;
  @Column('uuid') workspaceId: string;
  @Column('boolean', { default: true }) isActive: boolean;
  @Column('boolean', { default: false }) emailEnabled: boolean;
  @Column('boolean', { default: false }) topicpushEnabled: boolean;
  @Column('boolean', { default: false }) serverpushEnabled: boolean;
  @Column('boolean', { default: false }) webhookEnabled: boolean;
  /** 'all' | 'selected' */
  @Column('text', { default: 'all' }) projectMode: string;
  @Column('uuid', { array: true, default: () => "'{}'" }) selectedProjectIds: string[];
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
