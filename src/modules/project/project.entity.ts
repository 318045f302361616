import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A project of a workspace; its slug is the task key (e.g. `API` in `API-12`). */
@Entity({ name: 'project' })
export class Project {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workspaceId: string;
  @Column('text') slug: string;
  @Column('text') name: string;
  @Column('text', { nullable: true }) icon: string | null;
  @Column('text', { nullable: true }) description: string | null;
  @Column('boolean', { default: false }) isPublic: boolean;
  @Column('timestamptz', { nullable: true }) archivedAt: Date | null;
  /** Place among the workspace's projects (0-based; GET /project sorts by it). */
  @Column('integer', { default: 0 }) position: number;
  /** Last task number handed out (only the task write path increments it). */
  @Column('integer', { default: 0 }) taskCounter: number;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
