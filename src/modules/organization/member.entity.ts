import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'member' })
export class Member {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') userId: string;
  /** One role or several, comma-joined. */
  @Column('text') role: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
