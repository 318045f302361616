import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'time_entry' })
export class TimeEntry {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workspaceId: string;
  @Column('uuid') taskId: string;
  /** The author. */
  @Column('uuid', { nullable: true }) userId: string | null;
  @Column('text', { nullable: true }) description: string | null;
  @Column('timestamptz') startTime: Date;
  @Column('timestamptz', { nullable: true }) endTime: Date | null;
  /** Whole seconds from start to end; 0 while running. */
  @Column('integer', { default: 0 }) duration: number;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
