import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUuid } from '../../common/pipes/id.pipe';
import { isForeignKeyViolation, isUniqueViolation } from '../../database/sql';
import { TaskService } from '../task/task.service';
import { columnSlug, isReservedSlug } from './board-statuses';
import { ColumnRecord, toColumnRecord } from './column.record';
import { ColumnRepository } from './column.repository';
import { ColumnPositionDto, CreateColumnDto, UpdateColumnDto } from './dto/column.dto';

const NOT_FOUND = 'Column not found';

@Injectable()
export class ColumnService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly columns: ColumnRepository,
    private readonly tasks: TaskService,
  ) {}

  /** The four default columns of a new project, written in the project's transaction. */
  createDefaults(workspaceId: string, projectId: string, m: EntityManager): Promise<void> {
    return this.columns.insertDefaults(workspaceId, projectId, m);
  }

  async list(workspaceId: string, projectId: string): Promise<ColumnRecord[]> {
    return (await this.columns.listInProject(workspaceId, projectId)).map(toColumnRecord);
  }

  async create(workspaceId: string, projectId: string, dto: CreateColumnDto): Promise<ColumnRecord> {
    const slug = columnSlug(dto.name);
    if (!slug) throw new BadRequestException('name must contain a letter or digit');
    if (isReservedSlug(slug)) throw new ConflictException(`Column slug "${slug}" is reserved`);
    try {
      const row = await this.columns.insertAtEnd(workspaceId, projectId, { name: dto.name, slug, icon: dto.icon ?? null, color: dto.color ?? null, isFinal: dto.isFinal ?? false });
      return toColumnRecord(row);
    } catch (err) {
      if (isUniqueViolation(err, 'board_column_project_slug_key')) throw new ConflictException(`Column slug "${slug}" already exists in this project`);
      // The project was deleted after the permission check.
      if (isForeignKeyViolation(err)) throw new NotFoundException('Project not found');
      throw err;
    }
  }

  /** Renaming keeps the slug: it is the status of the column's tasks and of git automations. */
  async update(workspaceId: string, id: string, dto: UpdateColumnDto): Promise<ColumnRecord> {
    const row = await this.columns.update(workspaceId, id, { name: dto.name, icon: dto.icon, color: dto.color, is_final: dto.isFinal });
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toColumnRecord(row);
  }

  async remove(workspaceId: string, id: string): Promise<ColumnRecord> {
    return this.ds.transaction(async (m) => {
      // The row lock waits for statements putting tasks into this column (see ColumnRepository.lockInWorkspace).
      const col = await this.columns.lockInWorkspace(workspaceId, id, m);
      if (!col) throw new NotFoundException(NOT_FOUND);
      // Tasks carry the slug as their status; the board may not lose a column that still holds some.
      if (await this.tasks.anyWithStatus(workspaceId, col.project_id, col.slug, m)) throw new ConflictException('Column still holds tasks; move them first');
      if ((await this.columns.countInProject(workspaceId, col.project_id, m)) <= 1) throw new ConflictException('A project needs at least one column');
      await this.columns.delete(id, m);
      return toColumnRecord(col);
    });
  }

  /** All listed positions change together or none does (docs/decisions-local.md, "Work items"). */
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
    const ours = await this.columns.setPositionsIfAllInProject(
      workspaceId,
      projectId,
      ids,
      items.map((i) => i.position),
    );
    const foreign = items.find((i) => !ours.has(i.id.toLowerCase()));
    if (foreign) throw notOurs(foreign);
    return {};
  }
}
