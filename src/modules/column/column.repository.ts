import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, preparedRows, rows, setClause } from '../../database/sql';
import { DEFAULT_COLUMNS } from './board-statuses';
import { COLUMN_FIELDS, ColumnRow } from './column.record';

/** The permission guard's way from a column id to its workspace (ScopeRegistry kind `column`). */
export const COLUMN_SCOPE_SQL = 'SELECT workspace_id FROM board_column WHERE id = $1';

const BOARD_ORDER = 'ORDER BY position, created_at, id';

@Injectable()
export class ColumnRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The four default columns of a new project, written in the project's transaction. */
  async insertDefaults(workspaceId: string, projectId: string, m: EntityManager): Promise<void> {
    const values = DEFAULT_COLUMNS.map((_, i) => `($1, $2, $${i * 3 + 3}, $${i * 3 + 4}, ${i}, $${i * 3 + 5})`).join(', ');
    const params = DEFAULT_COLUMNS.flatMap((c) => [c.name, c.slug, c.isFinal]);
    await rows(m, `INSERT INTO board_column (workspace_id, project_id, name, slug, position, is_final) VALUES ${values}`, [workspaceId, projectId, ...params]);
  }

  listInProject(workspaceId: string, projectId: string): Promise<ColumnRow[]> {
    return preparedRows<ColumnRow>(this.ds, 'columns_of_project', `SELECT ${COLUMN_FIELDS} FROM board_column WHERE project_id = $1 AND workspace_id = $2 ${BOARD_ORDER}`, [
      projectId,
      workspaceId,
    ]);
  }

  /** A new column at the end of the board; a unique violation (board_column_project_slug_key) when the slug is taken. */
  insertAtEnd(workspaceId: string, projectId: string, fields: { name: string; slug: string; icon: string | null; color: string | null; isFinal: boolean }): Promise<ColumnRow> {
    return firstRow<ColumnRow>(
      this.ds.manager,
      `INSERT INTO board_column (workspace_id, project_id, name, slug, position, icon, color, is_final)
       VALUES ($1, $2, $3, $4, COALESCE((SELECT MAX(position) + 1 FROM board_column WHERE project_id = $2), 0), $5, $6, $7)
       RETURNING ${COLUMN_FIELDS}`,
      [workspaceId, projectId, fields.name, fields.slug, fields.icon, fields.color, fields.isFinal],
    ) as Promise<ColumnRow>;
  }

  /** Writes the given fields (undefined = unchanged); with none, reads the column. */
  update(workspaceId: string, id: string, fields: { name?: string; icon?: string | null; color?: string | null; is_final?: boolean }): Promise<ColumnRow | undefined> {
    const set = setClause(fields, 3);
    return firstRow<ColumnRow>(
      this.ds.manager,
      set.params.length
        ? `UPDATE board_column SET ${set.sql}, updated_at = now() WHERE id = $1 AND workspace_id = $2 RETURNING ${COLUMN_FIELDS}`
        : `SELECT ${COLUMN_FIELDS} FROM board_column WHERE id = $1 AND workspace_id = $2`,
      [id, workspaceId, ...set.params],
    );
  }

  /**
   * The column, row-locked until `m`'s transaction ends: waits for the statements that are putting
   * a task into it (they key-share lock the column), so a check for its tasks that follows is final.
   */
  lockInWorkspace(workspaceId: string, id: string, m: EntityManager): Promise<ColumnRow | undefined> {
    return firstRow<ColumnRow>(m, `SELECT ${COLUMN_FIELDS} FROM board_column WHERE id = $1 AND workspace_id = $2 FOR UPDATE`, [id, workspaceId]);
  }

  async countInProject(workspaceId: string, projectId: string, m: EntityManager): Promise<number> {
    const [{ n }] = await rows<{ n: number }>(m, `SELECT count(*)::int AS n FROM board_column WHERE project_id = $1 AND workspace_id = $2`, [projectId, workspaceId]);
    return n;
  }

  async delete(id: string, m: EntityManager): Promise<void> {
    await rows(m, `DELETE FROM board_column WHERE id = $1`, [id]);
  }

  /**
   * One auto-committed statement: locks the project's columns among `ids` in id order (so two
   * concurrent reorders of the same board queue up instead of deadlocking) and, only when every id
   * is one of them, sets their positions. Answers the ids found; fewer than given means nothing
   * changed. A named prepared statement: it is the hot path of `PUT /column/reorder/:projectId`.
   */
  async setPositionsIfAllInProject(workspaceId: string, projectId: string, ids: string[], positions: number[]): Promise<Set<string>> {
    const found = await preparedRows<{ id: string }>(
      this.ds,
      'column_reorder',
      `WITH ours AS (
         SELECT id FROM board_column
          WHERE project_id = $1 AND workspace_id = $2 AND id = ANY($3::uuid[])
          ORDER BY id
            FOR NO KEY UPDATE
       ), moved AS (
         UPDATE board_column c SET position = v.position, updated_at = now()
           FROM unnest($3::uuid[], $4::int[]) AS v(id, position)
          WHERE c.id = v.id AND c.project_id = $1
            AND (SELECT count(*) FROM ours) = cardinality($3::uuid[])
       )
       SELECT id FROM ours`,
      [projectId, workspaceId, ids, positions],
    );
    return new Set(found.map((r) => r.id));
  }
}
