import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUuid } from '../../common/pipes/id.pipe';
import { firstRow, isUniqueViolation, rows, setClause } from '../../database/sql';
import { columnSlug, DEFAULT_COLUMNS, isReservedSlug, VIRTUAL_STATUSES } from './board-statuses';
import { COLUMN_FIELDS, ColumnRecord, ColumnRow, toColumnRecord } from './column.record';
import { ColumnPositionDto, CreateColumnDto, UpdateColumnDto } from './dto/column.dto';

const NOT_FOUND = 'Column not found';
/** Restricts a statement on board_column to columns of projects in workspace $2. */
const IN_WORKSPACE = 'project_id IN (SELECT id FROM project WHERE workspace_id = $2)';

@Injectable()
export class ColumnService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The four default columns of a new project, written in the project's transaction. */
  async createDefaults(m: EntityManager, projectId: string): Promise<void> {
    const values = DEFAULT_COLUMNS.map((_, i) => `($1, $${i * 3 + 2}, $${i * 3 + 3}, ${i}, $${i * 3 + 4})`).join(', ');
    const params = DEFAULT_COLUMNS.flatMap((c) => [c.name, c.slug, c.isFinal]);
    await rows(m, `INSERT INTO board_column (project_id, name, slug, position, is_final) VALUES ${values}`, [projectId, ...params]);
  }

  /**
   * The project's column slugs in board order, for status validation inside a transaction. The
   * rows are key-share locked until it ends, so a column cannot be deleted while a task is being
   * put into it (deletion takes the row lock and then checks for tasks).
   */
  async statusSlugs(m: EntityManager, projectId: string): Promise<string[]> {
    const found = await rows<{ slug: string }>(
      m,
      `SELECT slug FROM board_column WHERE project_id = $1 ORDER BY position, created_at, id FOR KEY SHARE`,
      [projectId],
    );
    return found.map((r) => r.slug);
  }

  /**
   * SQL for the column slugs (text[], board order) of the project `projectIdSql` names, to read
   * along with a task. Qualify a column reference (`task.project_id`): a bare one means the column's.
   */
  statusSlugsSql(projectIdSql: string): string {
    return `ARRAY(SELECT c.slug FROM board_column c WHERE c.project_id = ${projectIdSql} ORDER BY c.position, c.created_at, c.id)`;
  }

  /**
   * SQL condition: status `statusSql` is (still) valid in project `projectIdSql`. A column it names
   * is key-share locked like in statusSlugs, for statements that change a task's status on their own.
   */
  statusValidSql(projectIdSql: string, statusSql: string): string {
    const virtual = VIRTUAL_STATUSES.map((s) => `'${s}'`).join(', ');
    return `(${statusSql} IN (${virtual}) OR EXISTS (SELECT 1 FROM board_column c WHERE c.project_id = ${projectIdSql} AND c.slug = ${statusSql} FOR KEY SHARE))`;
  }

  async list(workspaceId: string, projectId: string): Promise<ColumnRecord[]> {
    const found = await rows<ColumnRow>(
      this.ds.manager,
      `SELECT ${COLUMN_FIELDS} FROM board_column WHERE project_id = $1 AND ${IN_WORKSPACE} ORDER BY position, created_at, id`,
      [projectId, workspaceId],
    );
    return found.map(toColumnRecord);
  }

  async create(workspaceId: string, projectId: string, dto: CreateColumnDto): Promise<ColumnRecord> {
    const slug = columnSlug(dto.name);
    if (!slug) throw new BadRequestException('name must contain a letter or digit');
    if (isReservedSlug(slug)) throw new ConflictException(`Column slug "${slug}" is reserved`);
    try {
      const row = await firstRow<ColumnRow>(
        this.ds.manager,
        `INSERT INTO board_column (project_id, name, slug, position, icon, color, is_final)
         SELECT p.id, $3, $4, COALESCE((SELECT MAX(position) + 1 FROM board_column WHERE project_id = p.id), 0), $5, $6, $7
           FROM project p WHERE p.id = $1 AND p.workspace_id = $2
         RETURNING ${COLUMN_FIELDS}`,
        [projectId, workspaceId, dto.name, slug, dto.icon ?? null, dto.color ?? null, dto.isFinal ?? false],
      );
      if (!row) throw new NotFoundException('Project not found');
      return toColumnRecord(row);
    } catch (err) {
      if (isUniqueViolation(err, 'board_column_project_slug_key')) throw new ConflictException(`Column slug "${slug}" already exists in this project`);
      throw err;
    }
  }

  /** Renaming keeps the slug: it is the status of the column's tasks and of git automations. */
  async update(workspaceId: string, id: string, dto: UpdateColumnDto): Promise<ColumnRecord> {
    const set = setClause({ name: dto.name, icon: dto.icon, color: dto.color, is_final: dto.isFinal }, 3);
    const row = await firstRow<ColumnRow>(
      this.ds.manager,
      set.params.length
        ? `UPDATE board_column SET ${set.sql}, updated_at = now() WHERE id = $1 AND ${IN_WORKSPACE} RETURNING ${COLUMN_FIELDS}`
        : `SELECT ${COLUMN_FIELDS} FROM board_column WHERE id = $1 AND ${IN_WORKSPACE}`,
      [id, workspaceId, ...set.params],
    );
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toColumnRecord(row);
  }

  async remove(workspaceId: string, id: string): Promise<ColumnRecord> {
    return this.ds.transaction(async (m) => {
      // The row lock waits for transactions putting tasks into this column (see statusSlugs).
      const col = await firstRow<ColumnRow>(m, `SELECT ${COLUMN_FIELDS} FROM board_column WHERE id = $1 AND ${IN_WORKSPACE} FOR UPDATE`, [id, workspaceId]);
      if (!col) throw new NotFoundException(NOT_FOUND);
      // Tasks carry the slug as their status; the board may not lose a column that still holds some.
      const [usage] = await rows<{ tasks: boolean; columns: number }>(
        m,
        `SELECT EXISTS (SELECT 1 FROM task WHERE project_id = $1 AND status = $2) AS tasks,
                (SELECT count(*)::int FROM board_column WHERE project_id = $1) AS columns`,
        [col.project_id, col.slug],
      );
      if (usage.tasks) throw new ConflictException('Column still holds tasks; move them first');
      if (usage.columns <= 1) throw new ConflictException('A project needs at least one column');
      await rows(m, `DELETE FROM board_column WHERE id = $1`, [id]);
      return toColumnRecord(col);
    });
  }

  /** All listed positions change together or none does (decisions §4). */
  async reorder(workspaceId: string, projectId: string, items: ColumnPositionDto[]): Promise<Record<string, never>> {
    const seen = new Set<string>();
    for (const item of items) {
      const id = item.id.toLowerCase();
      if (seen.has(id)) throw new BadRequestException(`Column ${item.id} is listed more than once`);
      seen.add(id);
    }
    const notOurs = (item: ColumnPositionDto) => new BadRequestException(`Column ${item.id} does not belong to this project`);
    const malformed = items.find((i) => !isUuid(i.id));
    if (malformed) throw notOurs(malformed);
    if (!items.length) return {};
    const ids = items.map((i) => i.id.toLowerCase());
    await this.ds.transaction(async (m) => {
      const found = await rows<{ id: string }>(
        m,
        `SELECT id FROM board_column WHERE project_id = $1 AND ${IN_WORKSPACE} AND id = ANY($3::uuid[]) FOR NO KEY UPDATE`,
        [projectId, workspaceId, ids],
      );
      const ours = new Set(found.map((r) => r.id));
      const foreign = items.find((i) => !ours.has(i.id.toLowerCase()));
      if (foreign) throw notOurs(foreign);
      await rows(
        m,
        `UPDATE board_column c SET position = v.position, updated_at = now()
           FROM unnest($2::uuid[], $3::int[]) AS v(id, position)
          WHERE c.id = v.id AND c.project_id = $1`,
        [projectId, ids, items.map((i) => i.position)],
      );
    });
    return {};
  }
}
