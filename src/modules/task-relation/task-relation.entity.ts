import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A relation between two tasks of one workspace (docs/compatibility.md, "Task relations"). */
@Entity({ name: 'task_relation' })
export class TaskRelation {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workspaceId: string;
  @Column('uuid') sourceTaskId: string;
  @Column('uuid') targetTaskId: string;
  @Column('text') relationType: string;
  @Column('uuid', { nullable: true }) createdById: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
