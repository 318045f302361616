import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * One git-host integration of a project (one row per project and type, selfgit or hostedgit). The
 * selfgit access token and webhook secrets hold CryptoService ciphertext, never clear text.
 */
@Entity({ name: 'git_integration' })
export class GitIntegration {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workspaceId: string;
  @Column('uuid') projectId: string;
  /** 'selfgit' | 'hostedgit' */
  @Column('text') type: string;
  @Column('boolean', { default: true }) isActive: boolean;
  @Column('text', { nullable: true }) baseUrl: string | null;
  @Column('text', { nullable: true }) accessToken: string | null;
  @Column('text', { nullable: true }) webhookSecret: string | null;
  /** The selfgit webhook secret a rotation replaced (ciphertext); accepted for 24 h after webhookSecretReplacedAt. */
  @Column('text', { nullable: true }) webhookPreviousSecret: string | null;
  @Column('timestamptz', { nullable: true }) webhookSecretReplacedAt: Date | null;
  @Column('text') repositoryOwner: string;
  @Column('text') repositoryName: string;
  /** The repository's identity in lower case; one active integration per repository. */
  @Column('text') repositoryKey: string;
  @Column('bigint', { nullable: true }) installationId: string | null;
  @Column('text', { default: '{slug}-{number}' }) branchPattern: string;
  @Column('boolean', { default: false }) commentTaskLink: boolean;
  @Column('timestamptz', { nullable: true }) importStartedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
