import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * One notifying integration of a project (one row per project and type). Secrets (bot token,
 * webhook URL, signing secret and the replaced one) hold CryptoService ciphertext, never clear text.
 */
@Entity({ name: 'integration' })
export class Integration {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workspaceId: string;
  @Column('uuid') projectId: string;
  /** 'messenger' | 'teamchat' | 'communitychat' | 'generic-webhook' */
  @Column('text') type: string;
  @Column('boolean', { default: true }) isActive: boolean;
  @Column('jsonb') events: Record<string, boolean>;
  @Column('text', { nullable: true }) chatId: string | null;
  @Column('integer', { nullable: true }) threadId: number | null;
  @Column('text', { nullable: true }) chatLabel: string | null;
  @Column('text', { nullable: true }) channelName: string | null;
  @Column('text', { nullable: true }) botToken: string | null;
  @Column('text', { nullable: true }) webhookUrl: string | null;
  @Column('text', { nullable: true }) secret: string | null;
  /** The signing secret before the last replacement, kept for 24 h of double signing. */
  @Column('text', { nullable: true }) previousSecret: string | null;
  @Column('timestamptz', { nullable: true }) secretReplacedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
