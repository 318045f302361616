import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { escapeLike, firstRow, rows, setClause } from '../../database/sql';
import { PROJECT_FIELDS, ProjectRow } from './project.record';

/** The permission guard's way from a project id to its workspace (ScopeRegistry kind `project`). */
export const PROJECT_SCOPE_SQL = 'SELECT workspace_id FROM project WHERE id = $1';

/** The order of a workspace's projects: by position, ties (concurrent creates) by age. */
const PROJECT_ORDER = 'ORDER BY position, created_at, id';

/** Unique index of project keys (per workspace, case-insensitive); a violation means the slug is taken. */
export const PROJECT_SLUG_INDEX = 'project_workspace_slug_key';

/**
 * Projects. The task counter is not written here: task numbers are claimed by the task write path
 * (TaskChangesRepository), in the statement that creates or moves the task.
 */
@Injectable()
export class ProjectRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  listInWorkspace(workspaceId: string, includeArchived: boolean): Promise<ProjectRow[]> {
    return rows<ProjectRow>(
      this.ds.manager,
      `SELECT ${PROJECT_FIELDS} FROM project
        WHERE workspace_id = $1 ${includeArchived ? '' : 'AND archived_at IS NULL'}
        ${PROJECT_ORDER}`,
      [workspaceId],
    );
  }

  /** Which of `ids` (UUIDs) are projects of the workspace. */
  async idsInWorkspace(workspaceId: string, ids: readonly string[]): Promise<string[]> {
    const found = await rows<{ id: string }>(this.ds.manager, `SELECT id FROM project WHERE workspace_id = $1 AND id = ANY($2::uuid[])`, [workspaceId, ids]);
    return found.map((r) => r.id);
  }

  findInWorkspace(workspaceId: string, id: string): Promise<ProjectRow | undefined> {
    return firstRow<ProjectRow>(this.ds.manager, `SELECT ${PROJECT_FIELDS} FROM project WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]);
  }

  /**
   * A project marked public, whatever its workspace (the public board is read without a login,
   * so there is no tenant to scope by: `is_public` is the scope); undefined for any other.
   */
  findPublic(id: string): Promise<ProjectRow | undefined> {
    return firstRow<ProjectRow>(this.ds.manager, `SELECT ${PROJECT_FIELDS} FROM project WHERE id = $1 AND is_public`, [id]);
  }

  /** Every project of the workspace (archived ones too) in order, row-locked for a reorder in `m`'s transaction. */
  lockAllInWorkspace(workspaceId: string, m: EntityManager): Promise<ProjectRow[]> {
    return rows<ProjectRow>(m, `SELECT ${PROJECT_FIELDS} FROM project WHERE workspace_id = $1 ${PROJECT_ORDER} FOR NO KEY UPDATE`, [workspaceId]);
  }

  /** Gives each of `ids` its position (one statement). */
  async setPositions(workspaceId: string, ids: string[], positions: number[], m: EntityManager): Promise<void> {
    if (!ids.length) return;
    await rows(
      m,
      `UPDATE project p SET position = v.position, updated_at = now()
         FROM unnest($2::uuid[], $3::int[]) AS v(id, position)
        WHERE p.id = v.id AND p.workspace_id = $1`,
      [workspaceId, ids, positions],
    );
  }

  /** The workspace's keys that start with `prefix` (case-insensitive), to pick a free derived key. */
  async slugsStartingWith(workspaceId: string, prefix: string, m: EntityManager): Promise<string[]> {
    const found = await rows<{ slug: string }>(m, `SELECT slug FROM project WHERE workspace_id = $1 AND slug ILIKE $2`, [workspaceId, `${escapeLike(prefix)}%`]);
    return found.map((r) => r.slug);
  }

  /** A new project goes after the workspace's last one. */
  insert(workspaceId: string, fields: { slug: string; name: string; icon: string | null; description: string | null; isPublic: boolean }, m: EntityManager): Promise<ProjectRow> {
    return firstRow<ProjectRow>(
      m,
      `INSERT INTO project (workspace_id, slug, name, icon, description, is_public, position)
       VALUES ($1, $2, $3, $4, $5, $6, (SELECT COALESCE(MAX(position) + 1, 0) FROM project WHERE workspace_id = $1)) RETURNING ${PROJECT_FIELDS}`,
      [workspaceId, fields.slug, fields.name, fields.icon, fields.description, fields.isPublic],
    ) as Promise<ProjectRow>;
  }

  /** Writes the given fields (undefined = unchanged); undefined when the project is not in the workspace. */
  update(
    workspaceId: string,
    id: string,
    fields: { name?: string; slug?: string; icon?: string | null; description?: string | null; is_public?: boolean },
  ): Promise<ProjectRow | undefined> {
    const set = setClause(fields, 3);
    if (!set.params.length) return this.findInWorkspace(workspaceId, id);
    return this.write(`UPDATE project SET ${set.sql}, updated_at = now()`, workspaceId, id, set.params);
  }

  /** Archiving again keeps the first archive time. */
  archive(workspaceId: string, id: string): Promise<ProjectRow | undefined> {
    return this.write(`UPDATE project SET archived_at = COALESCE(archived_at, now()), updated_at = now()`, workspaceId, id);
  }

  unarchive(workspaceId: string, id: string): Promise<ProjectRow | undefined> {
    return this.write(`UPDATE project SET archived_at = NULL, updated_at = now()`, workspaceId, id);
  }

  /** Foreign keys cascade to columns, tasks and everything hanging off them. */
  delete(workspaceId: string, id: string): Promise<ProjectRow | undefined> {
    return this.write(`DELETE FROM project`, workspaceId, id);
  }

  /** Runs `<statement> WHERE id = $1 AND workspace_id = $2 RETURNING …`. */
  private write(statement: string, workspaceId: string, id: string, params: unknown[] = []): Promise<ProjectRow | undefined> {
    return firstRow<ProjectRow>(this.ds.manager, `${statement} WHERE id = $1 AND workspace_id = $2 RETURNING ${PROJECT_FIELDS}`, [id, workspaceId, ...params]);
  }
}
