import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { keyScopeAllows } from '../../common/decorators/api-key-scope.decorator';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { isUuid } from '../../common/pipes/id.pipe';
import { AccessService } from '../../common/permissions/access.service';
import { SearchQueryDto } from './dto/search-query.dto';
import { SearchResult } from './search.record';
import { likePattern, parseTaskKey, searchSql, Section } from './search.sql';
import { SearchStatsService } from './search-stats.service';
import { SearchRepository } from './search.repository';

const ALL_SECTIONS: Section[] = ['tasks', 'projects', 'workspaces', 'comments', 'activities'];
/** What an API key scope must hold to see each section. */
const SECTION_RESOURCE: Record<Section, string> = {
  tasks: 'task',
  projects: 'project',
  workspaces: 'workspace',
  comments: 'task',
  activities: 'task',
};

@Injectable()
export class SearchService {
  constructor(
    private readonly repository: SearchRepository,
    private readonly stats: SearchStatsService,
    private readonly access: AccessService,
  ) {}

  async search(user: AuthUser, dto: SearchQueryDto): Promise<SearchResult> {
    const type = dto.type ?? 'all';
    const limit = dto.limit ?? 20;
    let sections: Section[] = type === 'all' ? ALL_SECTIONS : [type];
    const scopes = user.apiKey?.permissions;
    if (scopes) {
      // A scoped key searches only the sections it may read; one that may read none of them is refused.
      sections = sections.filter((s) => keyScopeAllows(scopes, SECTION_RESOURCE[s], 'read'));
      if (!sections.length) throw new ForbiddenException('Insufficient API key scope');
    }
    const workspaceId = await this.checkWorkspace(user, dto.workspaceId);
    const projectId = await this.checkProject(user, dto.projectId);
    const result: SearchResult = { tasks: [], projects: [], workspaces: [], comments: [], activities: [] };
    const key = sections.includes('tasks') ? parseTaskKey(dto.q) : null;
    const params: unknown[] = [user.id, likePattern(dto.q), limit, workspaceId, projectId];
    // $6/$7 (the task key) appear only in the tasks section; Postgres refuses unused parameters.
    if (sections.includes('tasks')) params.push(key?.slug ?? null, key?.number ?? null);
    const variant = await this.stats.variant(dto.q, { limit, projectScoped: !!projectId });
    const stmt = searchSql(sections, variant);
    const row = await this.repository.search(stmt, params);
    for (const s of sections) result[s] = row[s] ?? [];
    return result;
  }

  /** A workspace filter must name one of the caller's workspaces (else 404, as for any foreign id). */
  private async checkWorkspace(user: AuthUser, id: string | undefined): Promise<string | null> {
    if (id === undefined) return null;
    if (!isUuid(id)) throw new NotFoundException('Workspace not found');
    if (!(await this.access.membership(id.toLowerCase(), user.id))) throw new NotFoundException('Workspace not found');
    return id;
  }

  private async checkProject(user: AuthUser, id: string | undefined): Promise<string | null> {
    if (id === undefined) return null;
    if (!isUuid(id)) throw new NotFoundException('Project not found');
    if (!(await this.access.locate('project', id.toLowerCase(), user.id))?.memberId) throw new NotFoundException('Project not found');
    return id;
  }
}
