import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A column of a project's board; its slug is the status of the tasks in it. */
@Entity({ name: 'board_column' })
export class BoardColumn {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workspaceId: string;
  @Column('uuid') projectId: string;
  @Column('text') name: string;
  @Column('text') slug: string;
  @Column('integer') position: number;
  @Column('text', { nullable: true }) icon: string | null;
  @Column('text', { nullable: true }) color: string | null;
  @Column('boolean', { default: false }) isFinal: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
