import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { firstRow, rows } from '../../database/sql';
import { RELATION_FIELDS, RelationType, TaskRelationRow } from './task-relation.record';

/** The permission guard's way from a relation id to its workspace (ScopeRegistry kind `task-relation`). */
export const TASK_RELATION_SCOPE_SQL = 'SELECT workspace_id FROM task_relation WHERE id = $1';

/** Unique index: one relation of a type per pair of tasks, whichever way round. */
export const TASK_RELATION_PAIR_INDEX = 'task_relation_pair_key';

/** Relations between tasks. They go with either task (foreign keys cascade). */
@Injectable()
export class TaskRelationRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** A unique violation (TASK_RELATION_PAIR_INDEX) when the pair already has a relation of that type; a foreign key violation when a task is gone. */
  insert(workspaceId: string, fields: { sourceTaskId: string; targetTaskId: string; relationType: RelationType; createdById: string }): Promise<TaskRelationRow> {
    return firstRow<TaskRelationRow>(
      this.ds.manager,
      `INSERT INTO task_relation (workspace_id, source_task_id, target_task_id, relation_type, created_by_id)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${RELATION_FIELDS}`,
      [workspaceId, fields.sourceTaskId, fields.targetTaskId, fields.relationType, fields.createdById],
    ) as Promise<TaskRelationRow>;
  }

  /** The relations the task is either end of, oldest first. */
  listOfTask(workspaceId: string, taskId: string): Promise<TaskRelationRow[]> {
    return rows<TaskRelationRow>(
      this.ds.manager,
      `SELECT ${RELATION_FIELDS} FROM task_relation
        WHERE workspace_id = $1 AND (source_task_id = $2 OR target_task_id = $2)
        ORDER BY created_at, id`,
      [workspaceId, taskId],
    );
  }

  delete(workspaceId: string, id: string): Promise<TaskRelationRow | undefined> {
    return firstRow<TaskRelationRow>(this.ds.manager, `DELETE FROM task_relation WHERE id = $1 AND workspace_id = $2 RETURNING ${RELATION_FIELDS}`, [id, workspaceId]);
  }
}
