import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** `taskId` null: the workspace catalogue's label; set: a task's copy of `catalogLabelId`. */
@Entity({ name: 'label' })
export class Label {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workspaceId: string;
  @Column('uuid', { nullable: true }) taskId: string | null;
  @Column('uuid', { nullable: true }) catalogLabelId: string | null;
  @Column('text') name: string;
  @Column('text') color: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
