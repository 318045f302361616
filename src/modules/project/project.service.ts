import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUniqueViolation } from '../../database/sql';
import { ColumnService } from '../column/column.service';
import { CreateProjectDto, UpdateProjectDto } from './dto/project.dto';
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
      return this.found(
        await this.projects.update(workspaceId, id, { name: dto.name, slug: dto.slug, icon: dto.icon, description: dto.description, is_public: dto.isPublic }),
      );
    } catch (err) {
      if (isUniqueViolation(err, PROJECT_SLUG_INDEX)) throw new ConflictException(SLUG_TAKEN);
      throw err;
    }
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
