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

export interface WorkspaceRecord {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: string | null;
  description: string | null;
  createdAt: string;
}

export const toWorkspaceRecord = (w: Workspace): WorkspaceRecord => ({
  id: w.id,
  name: w.name,
  slug: w.slug,
  logo: w.logo,
  metadata: w.metadata,
  description: w.description,
  createdAt: w.createdAt.toISOString(),
});
