import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** An issue, branch or pull request of a git host tied to a task (written by imports and inbound webhooks). */
@Entity({ name: 'external_link' })
export class ExternalLink {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workspaceId: string;
  /** The project whose integration made the link (part of its identity). */
  @Column('uuid') projectId: string;
  @Column('uuid') taskId: string;
  @Column('uuid', { nullable: true }) integrationId: string | null;
  /** 'selfgit' | 'hostedgit' */
  @Column('text') source: string;
  @Column('text') repositoryKey: string;
  /** 'issue' | 'branch' | 'pull_request' */
  @Column('text') resourceType: string;
  @Column('text') externalId: string;
  @Column('text', { nullable: true }) url: string | null;
  @Column('text', { nullable: true }) title: string | null;
  @Column('jsonb', { default: {} }) metadata: Record<string, unknown>;
  @Column('timestamptz', { nullable: true }) linkCommentClaimedAt: Date | null;
  @Column('text', { nullable: true }) linkCommentId: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

/** An issue comment of a git host copied as a task comment (an activity row). */
@Entity({ name: 'external_comment' })
export class ExternalComment {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workspaceId: string;
  @Column('uuid') projectId: string;
  @Column('uuid') activityId: string;
  @Column('text') source: string;
  @Column('text') repositoryKey: string;
  @Column('text') externalId: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
