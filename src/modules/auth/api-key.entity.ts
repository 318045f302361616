import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'api_key' })
export class ApiKey {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') userId: string;
  @Column('text', { nullable: true }) name: string | null;
  /** The first characters of the key, to recognise it in a list. */
  @Column('text') start: string;
  /** SHA-256 of the key; the key itself is never stored. */
  @Column('text', { select: false }) keyHash: string;
  @Column('jsonb', { nullable: true }) permissions: Record<string, string[]> | null;
  @Column('timestamptz', { nullable: true }) expiresAt: Date | null;
  @Column('timestamptz', { nullable: true }) lastUsedAt: Date | null;
  /**
   * The key that was used to create this one; null for a key made with a session (and for keys
   * made before parents were recorded). Deleting a key deletes its children, transitively (the
   * foreign key cascades; docs/decisions-local.md, "Access rules that close escalation paths" 2).
   */
  @Column('uuid', { nullable: true }) parentKeyId: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
