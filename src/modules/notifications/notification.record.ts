import { iso } from '../../database/sql';

/** notification as selected by NOTIFICATION_FIELDS. */
export interface NotificationRow {
  id: string;
  workspace_id: string;
  user_id: string;
  event_id: string;
  type: string;
  title: string;
  content: string;
  is_read: boolean;
  task_id: string | null;
  project_id: string | null;
  actor_id: string | null;
  actor_name: string | null;
  created_at: Date;
}

export const NOTIFICATION_FIELDS = 'id, workspace_id, user_id, event_id, type, title, content, is_read, task_id, project_id, actor_id, actor_name, created_at';

/** In-app notification record (docs/notifications.md, "In-app notifications"). */
export interface NotificationRecord {
  id: string;
  type: string;
  title: string;
  content: string;
  isRead: boolean;
  taskId: string | null;
  projectId: string | null;
  workspaceId: string;
  /** null when no user is behind the change. */
  actor: { id: string; name: string } | null;
  createdAt: string;
}

export const toNotificationRecord = (r: NotificationRow): NotificationRecord => ({
  id: r.id,
  type: r.type,
  title: r.title,
  content: r.content,
  isRead: r.is_read,
  taskId: r.task_id,
  projectId: r.project_id,
  workspaceId: r.workspace_id,
  actor: r.actor_id ? { id: r.actor_id, name: r.actor_name ?? '' } : null,
  createdAt: iso(r.created_at)!,
});
