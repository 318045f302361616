import { iso } from '../../database/sql';

/** Activity types (docs/records.md, "Activity"). A comment is an activity of type `comment`. */
export type ActivityType =
  | 'comment'
  | 'created'
  | 'status_changed'
  | 'priority_changed'
  | 'title_changed'
  | 'description_changed'
  | 'assignee_changed'
  | 'unassigned'
  | 'due_date_changed'
  | 'moved'
  | 'imported'
  | 'start_date_changed'
  | 'label_added'
  | 'label_removed'
  | 'relation_added'
  | 'relation_removed'
  | 'comment_edited'
  | 'comment_deleted'
  | 'time_entry_added'
  | 'time_entry_edited'
  | 'time_entry_deleted';

/** What changed, before it is tied to a task and an author. */
export interface ActivityDraft {
  type: ActivityType;
  content: string;
  eventData: Record<string, unknown>;
}

/** activity as selected by ACTIVITY_FIELDS. */
export interface ActivityRow {
  id: string;
  task_id: string;
  type: ActivityType;
  created_at: Date;
  user_id: string | null;
  content: string | null;
  event_data: Record<string, unknown> | null;
  external_user_name: string | null;
  external_user_avatar: string | null;
  external_source: string | null;
  external_url: string | null;
}

export const ACTIVITY_FIELDS = 'id, task_id, type, created_at, user_id, content, event_data, external_user_name, external_user_avatar, external_source, external_url';

/** The spec's Comment / activity record. */
export interface ActivityRecord {
  id: string;
  taskId: string;
  type: ActivityType;
  createdAt: string;
  userId: string | null;
  content: string | null;
  eventData: Record<string, unknown> | null;
  externalUserName: string | null;
  externalUserAvatar: string | null;
  externalSource: string | null;
  externalUrl: string | null;
}

export const toActivityRecord = (r: ActivityRow): ActivityRecord => ({
  id: r.id,
  taskId: r.task_id,
  type: r.type,
  createdAt: iso(r.created_at)!,
  userId: r.user_id,
  content: r.content,
  eventData: r.event_data,
  externalUserName: r.external_user_name,
  externalUserAvatar: r.external_user_avatar,
  externalSource: r.external_source,
  externalUrl: r.external_url,
});
