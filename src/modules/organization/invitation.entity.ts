import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type InvitationStatus = 'pending' | 'accepted' | 'rejected' | 'canceled';

@Entity({ name: 'invitation' })
export class Invitation {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') email: string;
  @Column('text') role: string;
  @Column('text', { default: 'pending' }) status: InvitationStatus;
  @Column('uuid', { nullable: true }) inviterId: string | null;
  @Column('uuid', { nullable: true }) teamId: string | null;
  @Column('timestamptz') expiresAt: Date;
  /** Emails requested so far (1 on create, +1 per resend); part of the email job id. */
  @Column('integer', { default: 0 }) sendCount: number;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
