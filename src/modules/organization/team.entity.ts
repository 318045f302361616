import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'team' })
export class Team {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') name: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

@Entity({ name: 'team_member' })
export class TeamMember {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') teamId: string;
  @Column('uuid') userId: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}

export const toTeamRecord = (t: Team) => ({
  id: t.id,
  name: t.name,
  organizationId: t.organizationId,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});
