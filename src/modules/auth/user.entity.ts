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
