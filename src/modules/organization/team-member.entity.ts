import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'team_member' })
export class TeamMember {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') teamId: string;
  @Column('uuid') userId: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
