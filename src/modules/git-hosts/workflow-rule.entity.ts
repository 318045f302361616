import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** Which column a git event moves a project's tasks to (docs/git-hosts.md, "Workflow rules"). */
@Entity({ name: 'workflow_rule' })
export class WorkflowRule {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workspaceId: string;
  @Column('uuid') projectId: string;
  /** 'hostedgit' | 'selfgit' */
  @Column('text') integrationType: string;
  /** One of WORKFLOW_EVENTS. */
  @Column('text') eventType: string;
  /** A column of the same project; the rule goes with it. */
  @Column('uuid') columnId: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
