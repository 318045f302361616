import { ActivityDraft, ActivityType } from '../activity/activity.record';
import { Priority, TaskRow } from './task.record';

/** What a task update may change; undefined = leave as is, null = clear. */
export interface TaskPatch {
  title?: string;
  description?: string | null;
  status?: string;
  priority?: Priority;
  position?: number;
  startDate?: string | null;
  dueDate?: string | null;
  userId?: string | null;
  /**
   * The task's current project, as clients of the original API send it with every update; it
   * changes nothing, and another project is refused (a move has its own route).
   */
  projectId?: string;
}

export interface TaskDiff {
  /** Columns to write (snake_case) with their new values; only those that really change. */
  set: Partial<Record<'title' | 'description' | 'status' | 'priority' | 'position' | 'start_date' | 'due_date' | 'user_id', unknown>>;
  /** One activity per changed field that has an activity type (position has none). */
  activities: ActivityDraft[];
}

const time = (d: Date | null) => (d ? d.getTime() : null);
const parseDate = (s: string | null) => (s === null ? null : new Date(s));
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Compares an update with the stored task: which columns change and which activities that
 * writes (eventData carries old/new values: docs/records.md, "Activity"). Nothing changes → both empty.
 */
export function diffTask(cur: TaskRow, patch: TaskPatch): TaskDiff {
  const diff: TaskDiff = { set: {}, activities: [] };
  const note = (type: ActivityType, content: string, eventData: Record<string, unknown>) => diff.activities.push({ type, content, eventData });

  if (patch.title !== undefined && patch.title !== cur.title) {
    diff.set.title = patch.title;
    note('title_changed', `changed the title from "${cur.title}" to "${patch.title}"`, { oldTitle: cur.title, newTitle: patch.title });
  }
  if (patch.description !== undefined && patch.description !== cur.description) {
    diff.set.description = patch.description;
    note('description_changed', 'updated the description', { oldDescription: cur.description, newDescription: patch.description });
  }
  if (patch.status !== undefined && patch.status !== cur.status) {
    diff.set.status = patch.status;
    note('status_changed', `changed the status from ${cur.status} to ${patch.status}`, { oldStatus: cur.status, newStatus: patch.status });
  }
  if (patch.priority !== undefined && patch.priority !== cur.priority) {
    diff.set.priority = patch.priority;
    note('priority_changed', `changed the priority from ${cur.priority} to ${patch.priority}`, { oldPriority: cur.priority, newPriority: patch.priority });
  }
  if (patch.position !== undefined && patch.position !== cur.position) diff.set.position = patch.position;
  if (patch.startDate !== undefined) {
    const next = parseDate(patch.startDate);
    if (time(next) !== time(cur.start_date)) {
      diff.set.start_date = next;
      const eventData = { oldStartDate: isoOrNull(cur.start_date), newStartDate: isoOrNull(next) };
      note('start_date_changed', next ? `set the start date to ${next.toISOString().slice(0, 10)}` : 'removed the start date', eventData);
    }
  }
  if (patch.dueDate !== undefined) {
    const next = parseDate(patch.dueDate);
    if (time(next) !== time(cur.due_date)) {
      diff.set.due_date = next;
      const eventData = { oldDueDate: isoOrNull(cur.due_date), newDueDate: isoOrNull(next) };
      note('due_date_changed', next ? `set the due date to ${next.toISOString().slice(0, 10)}` : 'removed the due date', eventData);
    }
  }
  if (patch.userId !== undefined && patch.userId !== cur.user_id) {
    diff.set.user_id = patch.userId;
    const eventData = { oldUserId: cur.user_id, newUserId: patch.userId };
    if (patch.userId === null) note('unassigned', 'unassigned the task', eventData);
    else note('assignee_changed', 'changed the assignee', eventData);
  }
  return diff;
}

export const isEmptyDiff = (d: TaskDiff): boolean => Object.keys(d.set).length === 0;
