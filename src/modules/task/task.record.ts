import { iso } from '../../database/sql';

export const PRIORITIES = ['no-priority', 'low', 'medium', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** task as selected by TASK_FIELDS. */
export interface TaskRow {
  id: string;
  workspace_id: string;
  project_id: string;
  position: number;
  number: number;
  user_id: string | null;
  title: string;
  description: string | null;
  status: string;
  priority: Priority;
  created_at: Date;
  start_date: Date | null;
  due_date: Date | null;
}

export const TASK_FIELDS = 'id, workspace_id, project_id, position, number, user_id, title, description, status, priority, created_at, start_date, due_date';

/** The spec's Task, field for field; absent values are null. */
export interface TaskRecord {
  id: string;
  projectId: string;
  position: number;
  number: number;
  userId: string | null;
  title: string;
  description: string | null;
  status: string;
  priority: Priority;
  createdAt: string;
  startDate: string | null;
  dueDate: string | null;
}

export const toTaskRecord = (r: TaskRow): TaskRecord => ({
  id: r.id,
  projectId: r.project_id,
  position: r.position,
  number: r.number,
  userId: r.user_id,
  title: r.title,
  description: r.description,
  status: r.status,
  priority: r.priority,
  createdAt: iso(r.created_at)!,
  startDate: iso(r.start_date),
  dueDate: iso(r.due_date),
});
