import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Member } from './member.entity';
import { Workspace } from './workspace.entity';

/** Scope kind `workspace` of the permission guard: the id is the workspace's own. */
export const WORKSPACE_SCOPE_SQL = 'SELECT id AS workspace_id FROM workspace WHERE id = $1';

export type WorkspaceFields = Pick<Workspace, 'name' | 'slug' | 'logo' | 'metadata' | 'description'>;

/** Workspaces (the tenants). The workspace id is the tenant id, so it comes first everywhere. */
@Injectable()
export class WorkspaceRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Locks the workspace row until `m`'s transaction ends; false when it does not exist. Changes
   * that check a count or an invariant first (team and role limits, "at least one owner") take
   * it, so they run one at a time per workspace. NO KEY UPDATE leaves foreign-key inserts of
   * other transactions (which take KEY SHARE) unblocked.
   */
  async lockForChange(workspaceId: string, m: EntityManager): Promise<boolean> {
    return (await m.query(`SELECT id FROM workspace WHERE id = $1 FOR NO KEY UPDATE`, [workspaceId])).length > 0;
  }

  insert(fields: WorkspaceFields, m: EntityManager = this.ds.manager): Promise<Workspace> {
    return m.save(m.create(Workspace, fields));
  }

  findById(workspaceId: string, m: EntityManager = this.ds.manager): Promise<Workspace | null> {
    return m.findOneBy(Workspace, { id: workspaceId });
  }

  /** The workspaces the user is a member of, oldest first. */
  listOfUser(userId: string, m: EntityManager = this.ds.manager): Promise<Workspace[]> {
    return m
      .getRepository(Workspace)
      .createQueryBuilder('w')
      .innerJoin(Member, 'm', 'm.organization_id = w.id AND m.user_id = :uid', { uid: userId })
      .orderBy('w.created_at', 'ASC')
      .getMany();
  }

  save(workspace: Workspace, m: EntityManager = this.ds.manager): Promise<Workspace> {
    return m.getRepository(Workspace).save(workspace);
  }

  /** Deletes the workspace; foreign keys cascade to everything in it. */
  async delete(workspaceId: string, m: EntityManager = this.ds.manager): Promise<void> {
    await m.getRepository(Workspace).delete({ id: workspaceId });
  }
}
