import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUuid } from '../../common/pipes/id.pipe';
import { isUniqueViolation } from '../../database/sql';
import { ColumnService } from '../column/column.service';
import { CreateProjectDto, ProjectPositionDto, UpdateProjectDto } from './dto/project.dto';
import { deriveProjectKey, firstFreeKey } from './project-key';
import { ProjectRecord, ProjectRow, toProjectRecord } from './project.record';
import { PROJECT_SLUG_INDEX, ProjectRepository } from './project.repository';

const NOT_FOUND = 'Project not found';
const SLUG_TAKEN = 'Slug is already taken';

@Injectable()
export class ProjectService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly projects: ProjectRepository,
    private readonly columns: ColumnService,
  ) {}

  /** True when every id of `ids` (UUIDs) is a project of the workspace (other modules ask this, e.g. notification rules). */
  async allInWorkspace(workspaceId: string, ids: readonly string[]): Promise<boolean> {
    const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
    return (await this.projects.idsInWorkspace(workspaceId, unique)).length === unique.length;
  }

  async list(workspaceId: string, includeArchived: boolean): Promise<ProjectRecord[]> {
    return (await this.projects.listInWorkspace(workspaceId, includeArchived)).map(toProjectRecord);
  }

  /** The project and its four default columns, in one transaction. */
  async create(workspaceId: string, dto: CreateProjectDto): Promise<ProjectRecord> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.ds.transaction(async (m) => {
          const slug = dto.slug ?? (await this.freeDerivedKey(m, workspaceId, dto.name));
          const row = await this.projects.insert(
            workspaceId,
            { slug, name: dto.name, icon: dto.icon ?? null, description: dto.description ?? null, isPublic: dto.isPublic ?? false },
            m,
          );
          await this.columns.createDefaults(workspaceId, row.id, m);
          return toProjectRecord(row);
        });
      } catch (err) {
        if (!isUniqueViolation(err, PROJECT_SLUG_INDEX)) throw err;
        // An explicit key must be free; a derived one lost a race and is picked again.
        if (dto.slug !== undefined || attempt >= 5) throw new ConflictException(SLUG_TAKEN);
      }
    }
  }

  private async freeDerivedKey(m: EntityManager, workspaceId: string, name: string): Promise<string> {
    const base = deriveProjectKey(name);
    return firstFreeKey(base, await this.projects.slugsStartingWith(workspaceId, base, m));
  }

  async get(workspaceId: string, id: string): Promise<ProjectRecord> {
    return this.found(await this.projects.findInWorkspace(workspaceId, id));
  }

  async update(workspaceId: string, id: string, dto: UpdateProjectDto): Promise<ProjectRecord> {
    try {
      return this.found(await this.projects.update(workspaceId, id, { name: dto.name, slug: dto.slug, icon: dto.icon, description: dto.description, is_public: dto.isPublic }));
    } catch (err) {
      if (isUniqueViolation(err, PROJECT_SLUG_INDEX)) throw new ConflictException(SLUG_TAKEN);
      throw err;
    }
  }

  /**
   * Places the listed projects at the given positions, then renumbers every project of the
   * workspace 0..n-1 in that order (a listed project goes before an unlisted one at the same
   * position; projects not listed keep their order). One transaction, all projects locked; a
   * project of another workspace → 400 and nothing changes. Answers every project of the
   * workspace, archived ones included, in the new order.
   */
  async reorder(workspaceId: string, items: ProjectPositionDto[]): Promise<ProjectRecord[]> {
    const notOurs = (item: ProjectPositionDto) => new BadRequestException(`Project ${item.id} does not belong to this workspace`);
    const requested = new Map<string, number>();
    for (const item of items) {
      if (!isUuid(item.id)) throw notOurs(item);
      const id = item.id.toLowerCase();
      if (requested.has(id)) throw new BadRequestException(`Project ${item.id} is listed more than once`);
      requested.set(id, item.position);
    }
    return this.ds.transaction(async (m) => {
      const all = await this.projects.lockAllInWorkspace(workspaceId, m);
      const ours = new Set(all.map((p) => p.id));
      const foreign = items.find((i) => !ours.has(i.id.toLowerCase()));
      if (foreign) throw notOurs(foreign);
      const order = all
        .map((p, index) => ({ p, key: requested.get(p.id) ?? p.position, listed: requested.has(p.id) ? 0 : 1, index }))
        .sort((a, b) => a.key - b.key || a.listed - b.listed || a.index - b.index);
      const moved = order.map((e, position) => ({ id: e.p.id, position })).filter((e, position) => order[position].p.position !== e.position);
      await this.projects.setPositions(
        workspaceId,
        moved.map((e) => e.id),
        moved.map((e) => e.position),
        m,
      );
      return order.map((e, position) => toProjectRecord({ ...e.p, position }));
    });
  }

  async archive(workspaceId: string, id: string): Promise<ProjectRecord> {
    return this.found(await this.projects.archive(workspaceId, id));
  }

  async unarchive(workspaceId: string, id: string): Promise<ProjectRecord> {
    return this.found(await this.projects.unarchive(workspaceId, id));
  }

  async remove(workspaceId: string, id: string): Promise<ProjectRecord> {
    return this.found(await this.projects.delete(workspaceId, id));
  }

  private found(row: ProjectRow | undefined): ProjectRecord {
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toProjectRecord(row);
  }
}
