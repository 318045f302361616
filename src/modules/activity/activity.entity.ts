import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** One entry of a task's history (a change, or a comment: type `comment`). Written by the task write path. */
@Entity({ name: 'activity' })
export class Activity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workspaceId: string;
  @Column('uuid') taskId: string;
  @Column('text') type: string;
  @Column('uuid', { nullable: true }) userId: string | null;
  @Column('text', { nullable: true }) content: string | null;
  @Column('jsonb', { nullable: true }) eventData: Record<string, unknown> | null;
  @Column('text', { nullable: true }) externalUserName: string | null;
  @Column('text', { nullable: true }) externalUserAvatar: string | null;
  @Column('text', { nullable: true }) externalSource: string | null;
  @Column('text', { nullable: true }) externalUrl: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
