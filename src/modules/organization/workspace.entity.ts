import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A workspace is the organization: organizationId everywhere equals the workspace id. */
@Entity({ name: 'workspace' })
export class Workspace {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text') slug: string;
  @Column('text', { nullable: true }) logo: string | null;
  @Column('text', { nullable: true }) metadata: string | null;
  @Column('text', { nullable: true }) description: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
