import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One in-app notification of a user: one per event and user (docs/notifications.md). */
@Entity({ name: 'notification' })
export class Notification {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workspaceId: string;
  @Column('uuid') userId: string;
  @Column('uuid') eventId: string;
  @Column('text') type: string;
  @Column('text') title: string;
  @Column('text') content: string;
  @Column('boolean', { default: false }) isRead: boolean;
  @Column('uuid', { nullable: true }) taskId: string | null;
  @Column('uuid', { nullable: true }) projectId: string | null;
  @Column('uuid', { nullable: true }) actorId: string | null;
  @Column('text', { nullable: true }) actorName: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
