import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, preparedRows, rows } from '../../database/sql';
import { LABEL_FIELDS, LabelRow } from './label.record';

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

  /** The task's copy of `catalogueId` (made now, or the one the task already has by that name). */
  async ensureOnTask(workspaceId: string, taskId: string, catalogueId: string | null, name: string, color: string, m: EntityManager): Promise<LabelRow> {
    const inserted = await firstRow<LabelRow>(
      m,
      `INSERT INTO label (workspace_id, task_id, catalog_label_id, name, color) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (task_id, lower(name)) WHERE task_id IS NOT NULL DO NOTHING
       RETURNING ${LABEL_FIELDS}`,
      [workspaceId, taskId, catalogueId, name, color],
    );
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
   * statement); answers the tasks that got it. A foreign key violation when a task is gone.
   */
  async copyOntoTasks(workspaceId: string, catalogue: LabelRow, taskIds: string[], m: EntityManager): Promise<string[]> {
    const made = await rows<{ task_id: string }>(
      m,
      `INSERT INTO label (workspace_id, task_id, catalog_label_id, name, color)
       SELECT $1, t.id, $3, $4, $5 FROM unnest($2::uuid[]) AS t(id)
       ON CONFLICT (task_id, lower(name)) WHERE task_id IS NOT NULL DO NOTHING
       RETURNING task_id`,
      [workspaceId, taskIds, catalogue.id, catalogue.name, catalogue.color],
    );
    return made.map((r) => r.task_id);
  }

  /** Takes the label named `name` (case-insensitive) off each of `taskIds`; answers the tasks that had it. */
  async deleteByNameFromTasks(workspaceId: string, taskIds: string[], name: string, m: EntityManager): Promise<string[]> {
    const gone = await rows<{ task_id: string }>(m, `DELETE FROM label WHERE workspace_id = $1 AND task_id = ANY($2::uuid[]) AND lower(name) = lower($3) RETURNING task_id`, [
      workspaceId,
      taskIds,
      name,
    ]);
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

  /** Takes a label off a task, named by its catalogue id or its copy's id; answers the removed copy. */
  deleteFromTask(workspaceId: string, taskId: string, id: string): Promise<LabelRow | undefined> {
    return firstRow<LabelRow>(this.ds.manager, `DELETE FROM label WHERE workspace_id = $1 AND task_id = $2 AND (id = $3 OR catalog_label_id = $3) RETURNING ${LABEL_FIELDS}`, [
      workspaceId,
      taskId,
      id,
    ]);
  }
}
