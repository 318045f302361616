import { iso } from '../../database/sql';

/** project as selected by PROJECT_FIELDS. */
export interface ProjectRow {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  icon: string | null;
  description: string | null;
  is_public: boolean;
  archived_at: Date | null;
  position: number;
  created_at: Date;
}

export const PROJECT_FIELDS = 'id, workspace_id, slug, name, icon, description, is_public, archived_at, position, created_at';

/** The spec's Project, field for field, and its place among the workspace's projects (`position`, 0-based). */
export interface ProjectRecord {
  id: string;
  workspaceId: string;
  slug: string;
  icon: string | null;
  name: string;
  description: string | null;
  createdAt: string;
  isPublic: boolean;
  archivedAt: string | null;
  position: number;
}

export const toProjectRecord = (r: ProjectRow): ProjectRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  slug: r.slug,
  icon: r.icon,
  name: r.name,
  description: r.description,
  createdAt: iso(r.created_at)!,
  isPublic: r.is_public,
  archivedAt: iso(r.archived_at),
  position: r.position,
});
