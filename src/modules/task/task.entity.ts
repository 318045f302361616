import { Column, CreateDateColumn, Entity, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'task' })
export class Task {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workspaceId: string;
  @Column('uuid') projectId: string;
  @Column('integer') number: number;
  @Column('integer', { default: 0 }) position: number;
  /** The assignee. */
  @Column('uuid', { nullable: true }) userId: string | null;
  @Column('uuid', { nullable: true }) createdById: string | null;
  @Column('text') title: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text') status: string;
  @Column('text', { default: 'no-priority' }) priority: string;
  @Column('timestamptz', { nullable: true }) startDate: Date | null;
  @Column('timestamptz', { nullable: true }) dueDate: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

/** The searchable text of a task, kept in step with `task` by database triggers (never written by code). */
@Entity({ name: 'task_text' })
export class TaskText {
  @PrimaryColumn('uuid') taskId: string;
  @Column('uuid') workspaceId: string;
  @Column('timestamptz') createdAt: Date;
  @Column('text') title: string;
  @Column('text', { nullable: true }) description: string | null;
}
