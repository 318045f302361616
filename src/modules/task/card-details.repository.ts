import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { rows } from '../../database/sql';

export interface CardDetails {
  taskId: string;
  labels: { name: string; color: string }[];
  commentCount: number;
  /** Finished attachments (files of the attachments list, not images in the texts). */
  attachmentCount: number;
  subtasks: { total: number; done: number };
  blockedBy: number;
}

/** A task is done when its status is a final column of its project. */
const DONE = (alias: string) => `EXISTS (SELECT 1 FROM board_column c WHERE c.project_id = ${alias}.project_id AND c.slug = ${alias}.status AND c.is_final)`;

/**
 * What the board's cards and the list show beside each task of a project (not the archived): labels, comment count, attachment count, subtask progress and open blockers, in one query.
 */
@Injectable()
export class CardDetailsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async ofProject(workspaceId: string, projectId: string): Promise<CardDetails[]> {
    const found = await rows<{
      task_id: string;
      labels: { name: string; color: string }[] | null;
      comments: number;
      attachments: number;
      sub_total: number;
      sub_done: number;
      blocked_by: number;
    }>(
      this.ds.manager,
      `SELECT t.id AS task_id,
              (SELECT json_agg(json_build_object('name', l.name, 'color', l.color) ORDER BY l.name) FROM label l WHERE l.task_id = t.id AND l.workspace_id = t.workspace_id) AS labels,
              (SELECT count(*)::int FROM activity a WHERE a.task_id = t.id AND a.type = 'comment') AS comments,
              (SELECT count(*)::int FROM asset f WHERE f.task_id = t.id AND f.status = 'ready' AND f.surface = 'attachment') AS attachments,
              (SELECT count(*)::int FROM task_relation r WHERE r.source_task_id = t.id AND r.relation_type = 'subtask') AS sub_total,
              (SELECT count(*)::int FROM task_relation r JOIN task s ON s.id = r.target_task_id WHERE r.source_task_id = t.id AND r.relation_type = 'subtask' AND ${DONE('s')}) AS sub_done,
              (SELECT count(*)::int FROM task_relation r JOIN task b ON b.id = r.source_task_id WHERE r.target_task_id = t.id AND r.relation_type = 'blocks' AND NOT ${DONE('b')}) AS blocked_by
         FROM task t
        WHERE t.workspace_id = $1 AND t.project_id = $2 AND t.status <> 'archived'
        ORDER BY t.position, t.number`,
      [workspaceId, projectId],
    );
    return found.map((r) => ({
      taskId: r.task_id,
      labels: r.labels ?? [],
      commentCount: r.comments,
      attachmentCount: r.attachments,
      subtasks: { total: r.sub_total, done: r.sub_done },
      blockedBy: r.blocked_by,
    }));
  }
}
