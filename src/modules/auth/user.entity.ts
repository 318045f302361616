import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'user' })
export class User {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text') email: string;
  @Column('boolean', { default: false }) emailVerified: boolean;
  @Column('text', { nullable: true }) image: string | null;
  @Column('text', { nullable: true, select: false }) passwordHash: string | null;
  @Column('boolean', { default: false }) isInstanceAdmin: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  image: string | null;
  createdAt: string;
  updatedAt: string;
}

export const toUserRecord = (u: User): UserRecord => ({
  id: u.id,
  name: u.name,
  email: u.email,
  image: u.image ?? null,
  createdAt: u.createdAt.toISOString(),
  updatedAt: u.updatedAt.toISOString(),
});
