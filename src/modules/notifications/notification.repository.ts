import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { firstRow, rows } from '../../database/sql';
import { NOTIFICATION_FIELDS, NotificationRow } from './notification.record';

/**
 * A user's in-app notifications, as the API reads, marks and clears them. Every read and mark is
 * limited to the user's own notifications in `workspaceIds` (the workspaces they are still a member of), so
 * the notifications of a workspace they left are no longer shown. The worker writes them
 * (src/modules/delivery/people, with the person's deliveries of the event).
 */
@Injectable()
export class NotificationRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  findForUser(userId: string, workspaceIds: readonly string[], id: string): Promise<NotificationRow | undefined> {
    return firstRow<NotificationRow>(this.ds.manager, `SELECT ${NOTIFICATION_FIELDS} FROM notification WHERE id = $3 AND user_id = $1 AND workspace_id = ANY($2::uuid[])`, [
      userId,
      workspaceIds,
      id,
    ]);
  }

  /**
   * Newest first (created_at, then id, both descending); with `beforeId`, only those after that
   * notification in this order, compared in SQL at the column's full precision.
   */
  listForUser(userId: string, workspaceIds: readonly string[], limit: number, beforeId?: string): Promise<NotificationRow[]> {
    const params: unknown[] = [userId, workspaceIds, limit];
    let after = '';
    if (beforeId !== undefined) {
      params.push(beforeId);
      after = `AND (created_at, id) < (SELECT created_at, id FROM notification WHERE id = $4)`;
    }
    return rows<NotificationRow>(
      this.ds.manager,
      `SELECT ${NOTIFICATION_FIELDS} FROM notification
        WHERE user_id = $1 AND workspace_id = ANY($2::uuid[]) ${after}
        ORDER BY created_at DESC, id DESC
        LIMIT $3`,
      params,
    );
  }

  async countUnread(userId: string, workspaceIds: readonly string[]): Promise<number> {
    const [row] = await rows<{ n: number }>(this.ds.manager, `SELECT count(*)::int AS n FROM notification WHERE user_id = $1 AND workspace_id = ANY($2::uuid[]) AND NOT is_read`, [
      userId,
      workspaceIds,
    ]);
    return row.n;
  }

  markRead(userId: string, workspaceIds: readonly string[], id: string): Promise<NotificationRow | undefined> {
    return firstRow<NotificationRow>(
      this.ds.manager,
      `UPDATE notification SET is_read = true WHERE id = $3 AND user_id = $1 AND workspace_id = ANY($2::uuid[]) RETURNING ${NOTIFICATION_FIELDS}`,
      [userId, workspaceIds, id],
    );
  }

  async markAllRead(userId: string, workspaceIds: readonly string[]): Promise<void> {
    await rows(this.ds.manager, `UPDATE notification SET is_read = true WHERE user_id = $1 AND workspace_id = ANY($2::uuid[]) AND NOT is_read`, [userId, workspaceIds]);
  }

  /** Deletes all of the user's notifications, those of workspaces they left included. */
  async deleteAllOfUser(userId: string): Promise<void> {
    await rows(this.ds.manager, `DELETE FROM notification WHERE user_id = $1`, [userId]);
  }
}
