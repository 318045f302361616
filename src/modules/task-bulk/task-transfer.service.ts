import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DataSource } from 'typeorm';
import { AssetRecord } from '../asset/asset.record';
import { AssetService } from '../asset/asset.service';
import { keyScopeAllows } from '../../common/decorators/api-key-scope.decorator';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ResolvedScope } from '../../common/decorators/require-permission.decorator';
import { AccessService } from '../../common/permissions/access.service';
import { mayDo } from '../../common/permissions/may';
import { validationMessage } from '../../common/pipes/validation';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { RateLimitService } from '../../redis/rate-limit.service';
import { VIRTUAL_STATUSES } from '../column/board-statuses';
import { LabelService } from '../label/label.service';
import { ProjectService } from '../project/project.service';
import { TaskChangesRepository } from '../task/task-changes.repository';
import { PRIORITIES, Priority, TaskRecord, toTaskRecord } from '../task/task.record';
import { TaskService } from '../task/task.service';
import { ImportLabelDto, ImportTaskDto, ImportTasksDto, MAX_IMPORT } from './dto/task-bulk.dto';

/** A task as the export writes it (and the import reads it back). */
export interface ExportedTask {
  title: string;
  description: string | null;
  status: string;
  priority: string;
  dueDate: string | null;
  startDate: string | null;
  userId: string | null;
  /** null when the caller's API key lacks `label:read` (docs/decisions-local.md, "Access rules" 5). */
  labels: { name: string; color: string }[] | null;
  /** The task's files (docs/files.md): what they are and where to read them; not imported. */
  assets: ExportedAsset[];
}

export type ExportedAsset = Pick<AssetRecord, 'id' | 'filename' | 'contentType' | 'size' | 'surface' | 'url' | 'createdAt'>;

export interface ExportAnswer {
  project: { name: string; slug: string; description: string | null; exportedAt: string };
  tasks: ExportedTask[];
  /** Which part of the project's tasks this is: pages of MAX_IMPORT, in board order. */
  pagination: { page: number; pageSize: number; total: number; hasMore: boolean };
}

export interface ImportResult {
  success: boolean;
  task?: TaskRecord;
  warnings?: string[];
  error?: string;
}

export interface ImportAnswer {
  importedAt: string;
  project: { id: string; name: string; slug: string };
  results: { total: number; successful: number; failed: number; tasks: ImportResult[] };
}

/** One task of an import once checked: what to write, or why not. */
type Plan = { error: string } | { task: ImportTaskDto; status: string | null; priority: Priority; userId: string | null; labels: ImportLabelDto[]; warnings: string[] };

/**
 * Export and import of a project's tasks (docs/compatibility.md, "Export and import"). The import
 * checks each task on its own, then writes every task that passed in ONE transaction, each through
 * the task write path as a creation (history row `imported`, event `taskCreated`): all of them
 * commit, or on any failure none does.
 */
@Injectable()
export class TaskTransferService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly access: AccessService,
    private readonly projects: ProjectService,
    private readonly tasks: TaskService,
    private readonly changes: TaskChangesRepository,
    private readonly labels: LabelService,
    private readonly rateLimit: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly assets: AssetService,
  ) {}

  /**
   * The project's tasks in board order: by column, then `planned`, then `archived`; within each by
   * position. Labels are another resource: an API key without `label:read` gets `labels: null`
   * (docs/decisions-local.md, "Access rules" 5); sessions and unscoped keys see them.
   */
  async export(workspaceId: string, projectId: string, user: AuthUser, page = 1): Promise<ExportAnswer> {
    const project = await this.projects.get(workspaceId, projectId);
    const slugs = await this.tasks.statusSlugs(workspaceId, projectId);
    // One page is what one import takes (MAX_IMPORT tasks), so each page imports as it is; only that page is read.
    const { rows: sorted, total } = await this.tasks.pageInBoardOrder(workspaceId, projectId, [...slugs, ...VIRTUAL_STATUSES], MAX_IMPORT, (page - 1) * MAX_IMPORT);
    const keyScopes = user.apiKey?.permissions;
    const showLabels = !keyScopes || keyScopeAllows(keyScopes, 'label', 'read');
    const labels = showLabels
      ? await this.labels.onTasks(
          workspaceId,
          sorted.map((r) => r.id),
        )
      : null;
    const assets = await this.assets.ofTasks(
      workspaceId,
      sorted.map((r) => r.id),
    );
    return {
      project: { name: project.name, slug: project.slug, description: project.description, exportedAt: new Date().toISOString() },
      tasks: sorted.map((r) => {
        const t = toTaskRecord(r);
        return {
          title: t.title,
          description: t.description,
          status: t.status,
          priority: t.priority,
          dueDate: t.dueDate,
          startDate: t.startDate,
          userId: t.userId,
          labels: labels ? (labels.get(r.id) ?? []).map((l) => ({ name: l.name, color: l.color })) : null,
          assets: (assets.get(r.id) ?? []).map((a) => ({
            id: a.id,
            filename: a.filename,
            contentType: a.contentType,
            size: a.size,
            surface: a.surface,
            url: a.url,
            createdAt: a.createdAt,
          })),
        };
      }),
      pagination: { page, pageSize: MAX_IMPORT, total, hasMore: page * MAX_IMPORT < total },
    };
  }

  async import(scope: ResolvedScope, user: AuthUser, projectId: string, dto: ImportTasksDto): Promise<ImportAnswer> {
    const workspaceId = scope.workspaceId;
    // Its work counts against the caller's API limit: one request per task (the request itself was counted by the guard).
    if (dto.tasks.length > 1) {
      const bucket = user.apiKey ? `key:${user.apiKey.id}` : `session:${user.sessionId}`;
      await this.rateLimit.hit(`api:${bucket}`, this.config.rateLimits.api, undefined, dto.tasks.length - 1);
    }
    if (labelNames(dto.tasks).size > MAX_IMPORT_LABELS) throw new BadRequestException(TOO_MANY_IMPORT_LABELS);
    const project = await this.projects.get(workspaceId, projectId);
    const slugs = await this.tasks.statusSlugs(workspaceId, projectId);
    const mayAssign = this.may(scope, user, 'task', 'assign');
    const mayLabel = this.may(scope, user, 'label', 'create') && this.may(scope, user, 'label', 'update');
    const plans = await Promise.all(dto.tasks.map((item) => this.check(item, slugs)));
    const members = await this.membersAmong(workspaceId, plans);
    for (const plan of plans) {
      if ('error' in plan || plan.userId === null) continue;
      if (!mayAssign) plan.warnings.push('Imported unassigned: assigning needs the task:assign permission');
      else if (!members.has(plan.userId)) plan.warnings.push(`Imported unassigned: user ${plan.userId} is not a member of this workspace`);
      if (!mayAssign || !members.has(plan.userId)) plan.userId = null;
    }
    for (const plan of plans) {
      if ('error' in plan || !plan.labels.length || mayLabel) continue;
      plan.warnings.push('Imported without its labels: labelling needs the label:create and label:update permissions');
      plan.labels = [];
    }

    const results = await this.ds.transaction(async (m) => {
      const out: ImportResult[] = [];
      for (const plan of plans) {
        if ('error' in plan) {
          out.push({ success: false, error: plan.error });
          continue;
        }
        const t = plan.task;
        const row = await this.changes.create(
          {
            workspaceId,
            projectId,
            status: plan.status,
            userId: plan.userId,
            title: t.title,
            description: t.description ?? null,
            priority: plan.priority,
            startDate: t.startDate ? new Date(t.startDate) : null,
            dueDate: t.dueDate ? new Date(t.dueDate) : null,
          },
          user.id,
          m,
          'imported',
        );
        // The statuses were checked against the columns read above: a column or the project went meanwhile.
        if (!row) throw new NotFoundException('Project not found');
        if (plan.labels.length) await this.labels.attachByName(workspaceId, row.id, plan.labels, m);
        out.push({ success: true, task: toTaskRecord(row), ...(plan.warnings.length ? { warnings: plan.warnings } : {}) });
      }
      return out;
    });
    const successful = results.filter((r) => r.success).length;
    return {
      importedAt: new Date().toISOString(),
      project: { id: project.id, name: project.name, slug: project.slug },
      results: { total: results.length, successful, failed: results.length - successful, tasks: results },
    };
  }

  /** Validates one task as the request pipeline would (unknown fields refused), then settles its status and priority. */
  private async check(item: Record<string, unknown>, slugs: string[]): Promise<Plan> {
    const task = plainToInstance(ImportTaskDto, item);
    const errors = await validate(task, { whitelist: true, forbidNonWhitelisted: true });
    if (errors.length) return { error: validationMessage(errors) };
    const warnings: string[] = [];
    const first = slugs[0] ?? 'planned';
    let status: string | null = task.status;
    if (status === '') status = null;
    else if (!slugs.includes(status) && !(VIRTUAL_STATUSES as readonly string[]).includes(status)) {
      warnings.push(`Unknown status "${status}": imported into "${first}"`);
      status = null;
    }
    let priority: Priority = 'no-priority';
    if (task.priority !== undefined && task.priority !== null && task.priority !== '') {
      if ((PRIORITIES as readonly string[]).includes(task.priority)) priority = task.priority as Priority;
      else warnings.push(`Unknown priority "${task.priority}": imported as "no-priority"`);
    }
    return { task, status, priority, userId: task.userId ?? null, labels: task.labels ?? [], warnings };
  }

  /** Which of the planned assignees are members of the workspace. */
  private async membersAmong(workspaceId: string, plans: Plan[]): Promise<Set<string>> {
    const wanted = new Set(plans.flatMap((p) => ('error' in p || p.userId === null ? [] : [p.userId])));
    const members = new Set<string>();
    for (const userId of wanted) if (await this.access.membership(workspaceId, userId)) members.add(userId);
    return members;
  }

  /** Whether the caller holds resource:action in the workspace, narrowed by its API key's scopes. */
  private may(scope: ResolvedScope, user: AuthUser, resource: string, action: string): boolean {
    return mayDo(scope, user, resource, action);
  }
}

/** The label names an import may use in all, across its tasks (docs/compatibility.md, "Export and import"). */
export const MAX_IMPORT_LABELS = 100;
export const TOO_MANY_IMPORT_LABELS = `An import may name at most ${MAX_IMPORT_LABELS} labels`;

/** The distinct label names (case-insensitive) the tasks of an import name, read before each task is checked. */
function labelNames(tasks: Record<string, unknown>[]): Set<string> {
  const names = new Set<string>();
  for (const t of tasks) {
    if (!Array.isArray(t.labels)) continue;
    for (const l of t.labels as unknown[]) {
      const name = l && typeof l === 'object' ? (l as { name?: unknown }).name : undefined;
      if (typeof name === 'string') names.add(name.trim().toLowerCase());
    }
  }
  return names;
}
