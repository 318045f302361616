import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'session' })
export class Session {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') userId: string;
  @Column('timestamptz') expiresAt: Date;
  @Column('timestamptz', { nullable: true }) revokedAt: Date | null;
  @Column('uuid', { nullable: true }) activeOrganizationId: string | null;
  @Column('text', { nullable: true }) ipAddress: string | null;
  @Column('text', { nullable: true }) userAgent: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
