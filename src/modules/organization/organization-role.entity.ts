import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A custom role of one workspace: {resource: [actions]}. */
@Entity({ name: 'organization_role' })
export class OrganizationRole {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') role: string;
  @Column('jsonb') permission: Record<string, string[]>;
  /** create-role's `additionalFields`, kept as given. */
  @Column('jsonb', { nullable: true }) additionalFields: Record<string, unknown> | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
