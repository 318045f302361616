import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { firstRow, preparedRows } from '../../database/sql';
import { historySql, NO_EXTERNAL } from './activity-history.sql';
import { ACTIVITY_FIELDS, ActivityRow } from './activity.record';

/** The history row (`comment_deleted`) of the comment in CTE `c`, in workspace $2 by its author $3. */
const commentHistory = (type: 'comment_deleted', content: string) =>
  `history AS (${historySql(
    `SELECT $2::uuid AS workspace_id, c.task_id, 1 AS ord, '${type}'::text AS type, '${content}'::text AS content,
            jsonb_build_object('commentId', c.id) AS event_data, ${NO_EXTERNAL} FROM c`,
    '$3::uuid',
  )})`;

/** The permission guard's way from a comment id to its workspace (ScopeRegistry kind `comment`). */
export const COMMENT_SCOPE_SQL = `SELECT workspace_id FROM activity WHERE id = $1 AND type = 'comment'`;

/**
 * Reading a task's history, and deleting one's own comments. History rows are written together
 * with the change they record, in its statement (activity-history.sql): a deletion of a comment
 * writes its own `comment_deleted` row here; an edit, which can mention someone, goes through the
 * task write path (TaskChangesRepository.editComment) for its event.
 */
@Injectable()
export class ActivityRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Comments oldest first. */
  listComments(workspaceId: string, taskId: string): Promise<ActivityRow[]> {
    return preparedRows<ActivityRow>(
      this.ds,
      'comments_of_task',
      `SELECT ${ACTIVITY_FIELDS} FROM activity WHERE task_id = $1 AND workspace_id = $2 AND type = 'comment' ORDER BY created_at, id`,
      [taskId, workspaceId],
    );
  }

  /** All activities, comments included, newest first. */
  listForTask(workspaceId: string, taskId: string): Promise<ActivityRow[]> {
    return preparedRows<ActivityRow>(
      this.ds,
      'activities_of_task',
      `SELECT ${ACTIVITY_FIELDS} FROM activity WHERE task_id = $1 AND workspace_id = $2 ORDER BY created_at DESC, id DESC`,
      [taskId, workspaceId],
    );
  }

  deleteOwnComment(workspaceId: string, authorId: string, id: string): Promise<ActivityRow | undefined> {
    return firstRow<ActivityRow>(
      this.ds.manager,
      `WITH c AS (
         DELETE FROM activity WHERE id = $1 AND workspace_id = $2 AND user_id = $3 AND type = 'comment' RETURNING ${ACTIVITY_FIELDS}
       ), ${commentHistory('comment_deleted', 'deleted a comment')}
       SELECT * FROM c`,
      [id, workspaceId, authorId],
    );
  }
}
