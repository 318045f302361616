import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** What an account email's token lets its holder do (docs/accounts.md). */
export type UserTokenPurpose = 'verify-email' | 'reset-password';

@Entity({ name: 'user_token' })
export class UserToken {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') userId: string;
  @Column('text') purpose: UserTokenPurpose;
  /** SHA-256 of the token; the token itself is only in the email. */
  @Column('text', { select: false }) tokenHash: string;
  /** The address the token was sent to: it proves that address only. */
  @Column('text') email: string;
  @Column('timestamptz') expiresAt: Date;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
