import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { firstRow, qualified, rows } from '../../database/sql';
import { historySql, NO_EXTERNAL } from '../activity/activity-history.sql';
import { RELATION_FIELDS, RelationType, TaskRelationRow } from './task-relation.record';

/**
 * The history row of a relation added or removed (rows of CTE `from`), on its source task by
 * `actorSql`: eventData names the relation, its type and the target task with its key as it was then.
 */
const relationHistory = (from: string, type: 'relation_added' | 'relation_removed', verb: string, actorSql: string) =>
  `history AS (${historySql(
    `SELECT r.workspace_id, r.source_task_id AS task_id, 1 AS ord, '${type}'::text AS type,
            '${verb} ' || p.slug || '-' || t.number || ' (' || r.relation_type || ')' AS content,
            jsonb_build_object('relationId', r.id, 'relationType', r.relation_type, 'targetTaskId', r.target_task_id, 'targetKey', p.slug || '-' || t.number) AS event_data,
            ${NO_EXTERNAL}
       FROM ${from} r JOIN task t ON t.id = r.target_task_id JOIN project p ON p.id = t.project_id`,
    actorSql,
  )})`;

/** The permission guard's way from a relation id to its workspace (ScopeRegistry kind `task-relation`). */
export const TASK_RELATION_SCOPE_SQL = 'SELECT workspace_id FROM task_relation WHERE id = $1';

/** Unique index: one relation of a type per pair of tasks, whichever way round. */
export const TASK_RELATION_PAIR_INDEX = 'task_relation_pair_key';

/** Relations between tasks. They go with either task (foreign keys cascade). */
@Injectable()
export class TaskRelationRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Inserts the relation with its `relation_added` history row (on the source task) in one
   * statement. A unique violation (TASK_RELATION_PAIR_INDEX) when the pair already has a relation
   * of that type; a foreign key violation when a task is gone.
   */
  insert(workspaceId: string, fields: { sourceTaskId: string; targetTaskId: string; relationType: RelationType; createdById: string }): Promise<TaskRelationRow> {
    return firstRow<TaskRelationRow>(
      this.ds.manager,
      `WITH added AS (
         INSERT INTO task_relation (workspace_id, source_task_id, target_task_id, relation_type, created_by_id)
         VALUES ($1, $2, $3, $4, $5) RETURNING ${RELATION_FIELDS}
       ), ${relationHistory('added', 'relation_added', 'related', '$5::uuid')}
       SELECT * FROM added`,
      [workspaceId, fields.sourceTaskId, fields.targetTaskId, fields.relationType, fields.createdById],
    ) as Promise<TaskRelationRow>;
  }

  /** The relations with either end in the project (its timeline's arrows), oldest first. */
  listOfProject(workspaceId: string, projectId: string): Promise<TaskRelationRow[]> {
    return rows<TaskRelationRow>(
      this.ds.manager,
      `SELECT ${qualified(RELATION_FIELDS, 'r')}
         FROM task_relation r JOIN task s ON s.id = r.source_task_id JOIN task t ON t.id = r.target_task_id
        WHERE r.workspace_id = $1 AND (s.project_id = $2 OR t.project_id = $2)
        ORDER BY r.created_at, r.id`,
      [workspaceId, projectId],
    );
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

  /** Deletes the relation with its `relation_removed` history row (on the source task) by `actorId`. */
  delete(workspaceId: string, id: string, actorId: string | null): Promise<TaskRelationRow | undefined> {
    return firstRow<TaskRelationRow>(
      this.ds.manager,
      `WITH removed AS (
         DELETE FROM task_relation WHERE id = $1 AND workspace_id = $2 RETURNING ${RELATION_FIELDS}
       ), ${relationHistory('removed', 'relation_removed', 'removed the relation to', '$3::uuid')}
       SELECT * FROM removed`,
      [id, workspaceId, actorId],
    );
  }
}
