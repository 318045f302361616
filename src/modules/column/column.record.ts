import { iso } from '../../database/sql';

/** board_column as selected by COLUMN_FIELDS. */
export interface ColumnRow {
  id: string;
  project_id: string;
  name: string;
  slug: string;
  position: number;
  icon: string | null;
  color: string | null;
  is_final: boolean;
  created_at: Date;
  updated_at: Date;
}

export const COLUMN_FIELDS = 'id, project_id, name, slug, position, icon, color, is_final, created_at, updated_at';

export interface ColumnRecord {
  id: string;
  projectId: string;
  name: string;
  slug: string;
  position: number;
  icon: string | null;
  color: string | null;
  isFinal: boolean;
  createdAt: string;
  updatedAt: string;
}

export const toColumnRecord = (r: ColumnRow): ColumnRecord => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  slug: r.slug,
  position: r.position,
  icon: r.icon,
  color: r.color,
  isFinal: r.is_final,
  createdAt: iso(r.created_at)!,
  updatedAt: iso(r.updated_at)!,
});
