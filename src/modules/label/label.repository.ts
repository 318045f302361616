import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, preparedRows, rows } from '../../database/sql';
import { historyOf } from '../activity/activity-history.sql';
import { LABEL_FIELDS, LabelRow } from './label.record';

/** The history row of a label put on (`label_added`) or taken off (`label_removed`) a task: rows of CTE `from` are task copies of labels. */
const labelHistory = (from: string, type: 'label_added' | 'label_removed', verb: string, actorSql: string) =>
  `history AS (${historyOf(from, type, `'${verb} label ' || x.name`, `jsonb_build_object('labelId', x.id, 'catalogLabelId', x.catalog_label_id, 'name', x.name, 'color', x.color)`, actorSql)})`;

/** The permission guard's way from a label id to its workspace (ScopeRegistry kind `label`). */
export const LABEL_SCOPE_SQL = 'SELECT workspace_id FROM label WHERE id = $1';

/** Labels: the workspace catalogue (task_id null) and the tasks' copies of catalogue labels. */
@Injectable()
export class LabelRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * The catalogue label of that name (case-insensitive), inserted when there is none and the
   * catalogue holds fewer than `max`; undefined when it is full and has no such label.
   */
  async ensureInCatalogue(workspaceId: string, name: string, color: string, max: number, m: EntityManager): Promise<LabelRow | undefined> {
    const inserted = await firstRow<LabelRow>(
      m,
      `INSERT INTO label (workspace_id, name, color)
       SELECT $1, $2, $3 WHERE (SELECT count(*) FROM label WHERE workspace_id = $1 AND task_id IS NULL) < $4
       ON CONFLICT (workspace_id, lower(name)) WHERE task_id IS NULL DO NOTHING
       RETURNING ${LABEL_FIELDS}`,
      [workspaceId, name, color, max],
    );
    return (
      inserted ?? (await firstRow<LabelRow>(m, `SELECT ${LABEL_FIELDS} FROM label WHERE workspace_id = $1 AND task_id IS NULL AND lower(name) = lower($2)`, [workspaceId, name]))
    );
  }

  /**
   * The task's copy of `catalogueId` (made now, or the one the task already has by that name).
   * With `actor` (not for imports, whose task is new), a copy made now writes its `label_added`
   * history row in the same statement; the one the task already had writes nothing.
   */
  async ensureOnTask(
    workspaceId: string,
    taskId: string,
    catalogueId: string | null,
    name: string,
    color: string,
    m: EntityManager,
    actor?: { id: string | null },
  ): Promise<LabelRow> {
    const insert = `INSERT INTO label (workspace_id, task_id, catalog_label_id, name, color) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (task_id, lower(name)) WHERE task_id IS NOT NULL DO NOTHING
       RETURNING ${LABEL_FIELDS}`;
    const inserted = actor
      ? await firstRow<LabelRow>(m, `WITH added AS (${insert}), ${labelHistory('added', 'label_added', 'added', '$6::uuid')} SELECT * FROM added`, [
          workspaceId,
          taskId,
          catalogueId,
          name,
          color,
          actor.id,
        ])
      : await firstRow<LabelRow>(m, insert, [workspaceId, taskId, catalogueId, name, color]);
    return (
      inserted ??
      (await firstRow<LabelRow>(m, `SELECT ${LABEL_FIELDS} FROM label WHERE workspace_id = $1 AND task_id = $2 AND lower(name) = lower($3)`, [workspaceId, taskId, name]))!
    );
  }

  listCatalogue(workspaceId: string): Promise<LabelRow[]> {
    return rows<LabelRow>(this.ds.manager, `SELECT ${LABEL_FIELDS} FROM label WHERE workspace_id = $1 AND task_id IS NULL ORDER BY lower(name), id`, [workspaceId]);
  }

  /** The tasks that carry a copy of the label named `name` (case-insensitive), oldest copy first. */
  async tasksCarrying(workspaceId: string, name: string): Promise<string[]> {
    const found = await rows<{ task_id: string }>(
      this.ds.manager,
      `SELECT task_id FROM label WHERE workspace_id = $1 AND task_id IS NOT NULL AND lower(name) = lower($2) ORDER BY created_at, id`,
      [workspaceId, name],
    );
    return found.map((r) => r.task_id);
  }

  listOnTask(workspaceId: string, taskId: string, m: EntityManager = this.ds.manager): Promise<LabelRow[]> {
    return rows<LabelRow>(m, `SELECT ${LABEL_FIELDS} FROM label WHERE workspace_id = $1 AND task_id = $2 ORDER BY lower(name), id`, [workspaceId, taskId]);
  }

  /** The labels on each of `taskIds` (tasks of the workspace), by name. */
  listOnTasks(workspaceId: string, taskIds: string[]): Promise<LabelRow[]> {
    return rows<LabelRow>(this.ds.manager, `SELECT ${LABEL_FIELDS} FROM label WHERE workspace_id = $1 AND task_id = ANY($2::uuid[]) ORDER BY lower(name), id`, [
      workspaceId,
      taskIds,
    ]);
  }

  /**
   * Copies the catalogue label onto each of `taskIds` that has no label of that name yet (one
   * statement, with a `label_added` history row per task that got it, by `actorId`); answers the
   * tasks that got it. A foreign key violation when a task is gone.
   */
  async copyOntoTasks(workspaceId: string, catalogue: LabelRow, taskIds: string[], actorId: string | null, m: EntityManager): Promise<string[]> {
    const made = await rows<{ task_id: string }>(
      m,
      `WITH added AS (
         INSERT INTO label (workspace_id, task_id, catalog_label_id, name, color)
         SELECT $1, t.id, $3, $4, $5 FROM unnest($2::uuid[]) AS t(id)
         ON CONFLICT (task_id, lower(name)) WHERE task_id IS NOT NULL DO NOTHING
         RETURNING ${LABEL_FIELDS}
       ), ${labelHistory('added', 'label_added', 'added', '$6::uuid')}
       SELECT task_id FROM added`,
      [workspaceId, taskIds, catalogue.id, catalogue.name, catalogue.color, actorId],
    );
    return made.map((r) => r.task_id);
  }

  /** Takes the label named `name` (case-insensitive) off each of `taskIds`, with a `label_removed` history row each; answers the tasks that had it. */
  async deleteByNameFromTasks(workspaceId: string, taskIds: string[], name: string, actorId: string | null, m: EntityManager): Promise<string[]> {
    const gone = await rows<{ task_id: string }>(
      m,
      `WITH removed AS (
         DELETE FROM label WHERE workspace_id = $1 AND task_id = ANY($2::uuid[]) AND lower(name) = lower($3) RETURNING ${LABEL_FIELDS}
       ), ${labelHistory('removed', 'label_removed', 'removed', '$4::uuid')}
       SELECT task_id FROM removed`,
      [workspaceId, taskIds, name, actorId],
    );
    return gone.map((r) => r.task_id);
  }

  findInWorkspace(workspaceId: string, id: string, m: EntityManager = this.ds.manager): Promise<LabelRow | undefined> {
    return firstRow<LabelRow>(m, `SELECT ${LABEL_FIELDS} FROM label WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]);
  }

  /**
   * One auto-committed statement: renames or recolors the label (undefined = keep) and, when it is
   * a catalogue label, gives every task copy its new name and color, so they never disagree. A
   * named prepared statement: it is the hot path of `PUT /label/:id` (docs/benchmarks.md).
   * Undefined when the label is not in the workspace; a unique violation when the name is taken.
   */
  async update(workspaceId: string, id: string, fields: { name?: string; color?: string }): Promise<LabelRow | undefined> {
    const [row] = await preparedRows<LabelRow>(
      this.ds,
      'label_update',
      `WITH updated AS (
         UPDATE label SET name = COALESCE($3, name), color = COALESCE($4, color), updated_at = now()
          WHERE id = $1 AND workspace_id = $2
          RETURNING ${LABEL_FIELDS}
       ), copies AS (
         UPDATE label c SET name = u.name, color = u.color, updated_at = now()
           FROM updated u
          WHERE u.task_id IS NULL AND c.catalog_label_id = u.id AND c.workspace_id = $2
       )
       SELECT * FROM updated`,
      [id, workspaceId, fields.name ?? null, fields.color ?? null],
    );
    return row;
  }

  /** Deleting a catalogue label removes its copies too (foreign key cascade). */
  delete(workspaceId: string, id: string): Promise<LabelRow | undefined> {
    return firstRow<LabelRow>(this.ds.manager, `DELETE FROM label WHERE id = $1 AND workspace_id = $2 RETURNING ${LABEL_FIELDS}`, [id, workspaceId]);
  }

  /** Takes a label off a task, named by its catalogue id or its copy's id, with its `label_removed` history row by `actorId`; answers the removed copy. */
  deleteFromTask(workspaceId: string, taskId: string, id: string, actorId: string | null): Promise<LabelRow | undefined> {
    return firstRow<LabelRow>(
      this.ds.manager,
      `WITH removed AS (
         DELETE FROM label WHERE workspace_id = $1 AND task_id = $2 AND (id = $3 OR catalog_label_id = $3) RETURNING ${LABEL_FIELDS}
       ), ${labelHistory('removed', 'label_removed', 'removed', '$4::uuid')}
       SELECT * FROM removed`,
      [workspaceId, taskId, id, actorId],
    );
  }
}
