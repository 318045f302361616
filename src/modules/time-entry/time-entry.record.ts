import { iso } from '../../database/sql';

/** time_entry as selected by TIME_ENTRY_FIELDS. */
export interface TimeEntryRow {
  id: string;
  task_id: string;
  user_id: string | null;
  description: string | null;
  start_time: Date;
  end_time: Date | null;
  duration: number;
  created_at: Date;
  updated_at: Date;
}

export const TIME_ENTRY_FIELDS = 'id, task_id, user_id, description, start_time, end_time, duration, created_at, updated_at';

/** The spec's Time entry; `duration` in whole seconds, `endTime` null while the timer runs. */
export interface TimeEntryRecord {
  id: string;
  taskId: string;
  userId: string | null;
  description: string | null;
  startTime: string;
  duration: number;
  createdAt: string;
  updatedAt: string;
  endTime: string | null;
}

export const toTimeEntryRecord = (r: TimeEntryRow): TimeEntryRecord => ({
  id: r.id,
  taskId: r.task_id,
  userId: r.user_id,
  description: r.description,
  startTime: iso(r.start_time)!,
  duration: r.duration,
  createdAt: iso(r.created_at)!,
  updatedAt: iso(r.updated_at)!,
  endTime: iso(r.end_time),
});
