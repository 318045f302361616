import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { isUuid } from '../../common/pipes/id.pipe';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { RateLimitService } from '../../redis/rate-limit.service';
import { ColumnRecord } from '../column/column.record';
import { ColumnService } from '../column/column.service';
import { TaskRecord, toTaskRecord } from '../task/task.record';
import { TaskService } from '../task/task.service';
import { ProjectRecord, toProjectRecord } from './project.record';
import { ProjectRepository } from './project.repository';

/** The public board (docs/compatibility.md, "Public projects"). */
export interface PublicProjectRecord extends ProjectRecord {
  columns: (ColumnRecord & { tasks: TaskRecord[]; taskCount: number })[];
  plannedTasks: TaskRecord[];
  plannedTaskCount: number;
  archivedTasks: TaskRecord[];
  archivedTaskCount: number;
}

/** Tasks a public board lists per column (and of the planned and the archived): its answer stays small whatever the project's size. */
export const PUBLIC_TASKS_PER_LIST = 200;

const NOT_FOUND = 'Project not found';

/**
 * Read-only boards of projects marked public, for anyone: the project, its columns with their
 * tasks, and the planned and archived tasks, each list capped at PUBLIC_TASKS_PER_LIST with its
 * full count beside it. Tasks are Task records (no email, no secret). A
 * project that is not public answers exactly like one that does not exist, so its existence does
 * not leak. Without a login there is no token to count, so each client address is counted
 * against RATE_LIMIT_API.
 */
@Injectable()
export class PublicProjectService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly projects: ProjectRepository,
    private readonly columns: ColumnService,
    private readonly tasks: TaskService,
    private readonly rateLimit: RateLimitService,
  ) {}

  async board(id: string, clientIp: string | undefined): Promise<PublicProjectRecord> {
    await this.rateLimit.hit(`api:public:${clientIp ?? 'unknown'}`, this.config.rateLimits.api);
    const project = isUuid(id) ? await this.projects.findPublic(id.toLowerCase()) : undefined;
    if (!project) throw new NotFoundException(NOT_FOUND);
    const columns = await this.columns.list(project.workspace_id, project.id);
    // Only what the answer holds is read: each list's first PUBLIC_TASKS_PER_LIST tasks, and the counts.
    const statuses = [...columns.map((c) => c.slug), 'planned', 'archived'];
    const { rows, counts } = await this.tasks.firstOfEachStatus(project.workspace_id, project.id, statuses, PUBLIC_TASKS_PER_LIST);
    const byStatus = new Map<string, TaskRecord[]>();
    for (const row of rows) {
      const list = byStatus.get(row.status) ?? [];
      list.push(toTaskRecord(row));
      byStatus.set(row.status, list);
    }
    const list = (status: string) => ({ tasks: byStatus.get(status) ?? [], count: counts.get(status) ?? 0 });
    return {
      ...toProjectRecord(project),
      columns: columns.map((c) => ({ ...c, tasks: list(c.slug).tasks, taskCount: list(c.slug).count })),
      plannedTasks: list('planned').tasks,
      plannedTaskCount: list('planned').count,
      archivedTasks: list('archived').tasks,
      archivedTaskCount: list('archived').count,
    };
  }
}
