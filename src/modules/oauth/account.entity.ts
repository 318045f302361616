import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A user's account at an outside OpenID provider. Token columns hold CryptoService ciphertext only. */
@Entity({ name: 'account' })
export class Account {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') userId: string;
  @Column('text') providerId: string;
  /** The provider's `sub`. */
  @Column('text') accountId: string;
  @Column('text', { nullable: true }) idToken: string | null;
  @Column('text', { nullable: true }) accessToken: string | null;
  @Column('text', { nullable: true }) refreshToken: string | null;
  @Column('timestamptz', { nullable: true }) idTokenExpiresAt: Date | null;
  @Column('timestamptz', { nullable: true }) accessTokenExpiresAt: Date | null;
  @Column('text', { nullable: true }) scope: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
