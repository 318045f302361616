import { iso } from '../../database/sql';

/** label as selected by LABEL_FIELDS. */
export interface LabelRow {
  id: string;
  workspace_id: string;
  task_id: string | null;
  catalog_label_id: string | null;
  name: string;
  color: string;
  created_at: Date;
}

export const LABEL_FIELDS = 'id, workspace_id, task_id, catalog_label_id, name, color, created_at';

/** The spec's Label: `taskId` null = the workspace's catalogue entry, set = a task's copy. */
export interface LabelRecord {
  id: string;
  name: string;
  color: string;
  createdAt: string;
  taskId: string | null;
  workspaceId: string;
}

export const toLabelRecord = (r: LabelRow): LabelRecord => ({
  id: r.id,
  name: r.name,
  color: r.color,
  createdAt: iso(r.created_at)!,
  taskId: r.task_id,
  workspaceId: r.workspace_id,
});
