import { iso } from '../../database/sql';
import { TaskRow } from '../task/task.record';

/** `subtask`: the target is a subtask of the source; `blocks`: the source blocks the target; `related`: either way. */
export const RELATION_TYPES = ['subtask', 'blocks', 'related'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** task_relation as selected by RELATION_FIELDS. */
export interface TaskRelationRow {
  id: string;
  workspace_id: string;
  source_task_id: string;
  target_task_id: string;
  relation_type: RelationType;
  created_at: Date;
}

export const RELATION_FIELDS = 'id, workspace_id, source_task_id, target_task_id, relation_type, created_at';

/** A task relation as POST and DELETE answer it. */
export interface TaskRelationRecord {
  id: string;
  sourceTaskId: string;
  targetTaskId: string;
  relationType: RelationType;
  createdAt: string;
}

/** One end of a listed relation: enough of the task to show it, with its assignee's name. */
export interface RelatedTaskRecord {
  id: string;
  title: string;
  status: string;
  priority: string;
  number: number;
  projectId: string;
  userId: string | null;
  assigneeName: string | null;
}

/** A task relation as GET /task-relation/:taskId lists it. */
export interface TaskRelationListItem extends TaskRelationRecord {
  sourceTask: RelatedTaskRecord;
  targetTask: RelatedTaskRecord;
}

export const toTaskRelationRecord = (r: TaskRelationRow): TaskRelationRecord => ({
  id: r.id,
  sourceTaskId: r.source_task_id,
  targetTaskId: r.target_task_id,
  relationType: r.relation_type,
  createdAt: iso(r.created_at)!,
});

export const toRelatedTaskRecord = (t: TaskRow, assigneeName: string | null): RelatedTaskRecord => ({
  id: t.id,
  title: t.title,
  status: t.status,
  priority: t.priority,
  number: t.number,
  projectId: t.project_id,
  userId: t.user_id,
  assigneeName,
});
