import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { escapeLike, firstRow, isUniqueViolation, rows, setClause } from '../../database/sql';
import { ColumnService } from '../column/column.service';
import { CreateProjectDto, UpdateProjectDto } from './dto/project.dto';
import { deriveProjectKey, firstFreeKey } from './project-key';
import { PROJECT_FIELDS, ProjectRecord, ProjectRow, toProjectRecord } from './project.record';

const NOT_FOUND = 'Project not found';
const SLUG_INDEX = 'project_workspace_slug_key';
const SLUG_TAKEN = 'Slug is already taken';

@Injectable()
export class ProjectService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly columns: ColumnService,
  ) {}

  async list(workspaceId: string, includeArchived: boolean): Promise<ProjectRecord[]> {
    const found = await rows<ProjectRow>(
      this.ds.manager,
      `SELECT ${PROJECT_FIELDS} FROM project
        WHERE workspace_id = $1 ${includeArchived ? '' : 'AND archived_at IS NULL'}
        ORDER BY created_at, id`,
      [workspaceId],
    );
    return found.map(toProjectRecord);
  }

  /** The project and its four default columns, in one transaction. */
  async create(workspaceId: string, dto: CreateProjectDto): Promise<ProjectRecord> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.ds.transaction(async (m) => {
          const slug = dto.slug ?? (await this.freeDerivedKey(m, workspaceId, dto.name));
          const row = (await firstRow<ProjectRow>(
            m,
            `INSERT INTO project (workspace_id, slug, name, icon, description, is_public)
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${PROJECT_FIELDS}`,
            [workspaceId, slug, dto.name, dto.icon ?? null, dto.description ?? null, dto.isPublic ?? false],
          ))!;
          await this.columns.createDefaults(m, row.id);
          return toProjectRecord(row);
        });
      } catch (err) {
        if (!isUniqueViolation(err, SLUG_INDEX)) throw err;
        // An explicit key must be free; a derived one lost a race and is picked again.
        if (dto.slug !== undefined || attempt >= 5) throw new ConflictException(SLUG_TAKEN);
      }
    }
  }

  private async freeDerivedKey(m: EntityManager, workspaceId: string, name: string): Promise<string> {
    const base = deriveProjectKey(name);
    const taken = await rows<{ slug: string }>(m, `SELECT slug FROM project WHERE workspace_id = $1 AND slug ILIKE $2`, [
      workspaceId,
      `${escapeLike(base)}%`,
    ]);
    return firstFreeKey(
      base,
      taken.map((r) => r.slug),
    );
  }

  async get(workspaceId: string, id: string): Promise<ProjectRecord> {
    const row = await firstRow<ProjectRow>(this.ds.manager, `SELECT ${PROJECT_FIELDS} FROM project WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toProjectRecord(row);
  }

  async update(workspaceId: string, id: string, dto: UpdateProjectDto): Promise<ProjectRecord> {
    const set = setClause({ name: dto.name, slug: dto.slug, icon: dto.icon, description: dto.description, is_public: dto.isPublic }, 3);
    if (!set.params.length) return this.get(workspaceId, id);
    try {
      return await this.write(`UPDATE project SET ${set.sql}, updated_at = now()`, id, workspaceId, set.params);
    } catch (err) {
      if (isUniqueViolation(err, SLUG_INDEX)) throw new ConflictException(SLUG_TAKEN);
      throw err;
    }
  }

  /** Archiving keeps the first archive time when called again. */
  archive(workspaceId: string, id: string): Promise<ProjectRecord> {
    return this.write(`UPDATE project SET archived_at = COALESCE(archived_at, now()), updated_at = now()`, id, workspaceId);
  }

  unarchive(workspaceId: string, id: string): Promise<ProjectRecord> {
    return this.write(`UPDATE project SET archived_at = NULL, updated_at = now()`, id, workspaceId);
  }

  /** Foreign keys cascade to columns, tasks and everything hanging off them. */
  remove(workspaceId: string, id: string): Promise<ProjectRecord> {
    return this.write(`DELETE FROM project`, id, workspaceId);
  }

  /**
   * Hands out the project's next task number. The UPDATE holds the project row lock until the
   * caller's transaction ends, so concurrent creates and moves into one project queue here and a
   * number is never given twice (a rolled-back transaction gives its number back with it).
   * Answers null when the project is not in the workspace.
   */
  async claimTaskNumber(m: EntityManager, workspaceId: string, projectId: string): Promise<number | null> {
    const row = await firstRow<{ task_counter: number }>(
      m,
      `UPDATE project SET task_counter = task_counter + 1 WHERE id = $1 AND workspace_id = $2 RETURNING task_counter`,
      [projectId, workspaceId],
    );
    return row ? row.task_counter : null;
  }

  /** Runs `<statement> WHERE id = $1 AND workspace_id = $2 RETURNING …` and maps the row. */
  private async write(statement: string, id: string, workspaceId: string, params: unknown[] = []): Promise<ProjectRecord> {
    const row = await firstRow<ProjectRow>(this.ds.manager, `${statement} WHERE id = $1 AND workspace_id = $2 RETURNING ${PROJECT_FIELDS}`, [
      id,
      workspaceId,
      ...params,
    ]);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toProjectRecord(row);
  }
}
