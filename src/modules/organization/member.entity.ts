import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'member' })
export class Member {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') userId: string;
  /** One role or several, comma-joined (decisions §3). */
  @Column('text') role: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}

export interface MemberRecord {
  id: string;
  userId: string;
  organizationId: string;
  role: string;
  createdAt: string;
}

export const toMemberRecord = (m: Member): MemberRecord => ({
  id: m.id,
  userId: m.userId,
  organizationId: m.organizationId,
  role: m.role,
  createdAt: m.createdAt.toISOString(),
});
