import { BadRequestException, ConflictException, ForbiddenException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ResolvedScope } from '../../common/decorators/require-permission.decorator';
import { isUuid } from '../../common/pipes/id.pipe';
import { AccessService } from '../../common/permissions/access.service';
import { assertMayDo } from '../../common/permissions/may';
import { hasPermission, insufficientPermissions } from '../../common/permissions/permissions';
import { liveData } from '../../redis/live-entry';
import { LiveStreams } from '../../redis/live-streams';
import { invalidStatusMessage } from '../column/board-statuses';
import { CreateTaskDto, ListTasksQuery, MoveTaskDto, MyTasksQuery, TaskFilterQuery } from './dto/task.dto';
import { diffTask, isEmptyDiff, TaskPatch } from './task-changes';
import { ExternalAuthor, NewTask, TaskChangesRepository } from './task-changes.repository';
import { Priority, TaskRecord, TaskRow, toTaskRecord } from './task.record';
import { TaskPage, TaskRepository } from './task.repository';
import { EVENT_KIND_OF_HISTORY } from './task-event';

/** A repository page as the API answers it: the records and the pagination. */
function taskPage({ rows, total, page, pageSize }: TaskPage) {
  return { data: rows.map(toTaskRecord), pagination: { total, page, pageSize, totalPages: Math.ceil(total / pageSize) } };
}

/** `assigneeId` and its alias `userId` name one assignee when both are given. */
function assertOneAssignee(q: TaskFilterQuery): void {
  if (q.assigneeId !== undefined && q.userId !== undefined && q.assigneeId !== q.userId) throw new BadRequestException('assigneeId and userId name different assignees: give one');
}

const NOT_FOUND = 'Task not found';
const PROJECT_NOT_FOUND = 'Project not found';
const MOVE_ELSEWHERE = 'Use PUT /task/move/{id} to move a task to another project';

export interface TaskMoveResult {
  task: TaskRecord;
  sourceProjectId: string;
  destinationProjectId: string;
}

@Injectable()
export class TaskService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly access: AccessService,
    private readonly tasks: TaskRepository,
    private readonly changes: TaskChangesRepository,
    private readonly live: LiveStreams,
  ) {}
  private readonly logger = new Logger(TaskService.name);

  /** One statement after the guard: the hot read path (GET /task/:id). */
  async get(workspaceId: string, id: string): Promise<TaskRecord> {
    const row = await this.tasks.findInWorkspace(workspaceId, id);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toTaskRecord(row);
  }

  /** Whether the task exists in the workspace (for modules that hang things on tasks). */
  async existsInWorkspace(workspaceId: string, id: string, m?: EntityManager): Promise<boolean> {
    if (!isUuid(id)) return false;
    return this.tasks.existsInWorkspace(workspaceId, id.toLowerCase(), m);
  }

  /** Those of `ids` (UUIDs) that are tasks of the workspace, as rows (any order). */
  findManyInWorkspace(workspaceId: string, ids: string[], m?: EntityManager): Promise<TaskRow[]> {
    return ids.length ? this.tasks.findManyInWorkspace(workspaceId, ids, m) : Promise.resolve([]);
  }

  /** The first `perStatus` tasks of each status as rows, with each status's count (the public board). */
  firstOfEachStatus(workspaceId: string, projectId: string, statuses: string[], perStatus: number) {
    return this.tasks.firstOfEachStatus(workspaceId, projectId, statuses, perStatus);
  }

  /** A page of a project's tasks as rows in board order (`statuses`' order, then position), and the project's count (exports). */
  pageInBoardOrder(workspaceId: string, projectId: string, statuses: string[], limit: number, offset: number) {
    return this.tasks.pageInBoardOrder(workspaceId, projectId, statuses, limit, offset);
  }

  /** Whether a project holds a task with this status (for the column module). */
  anyWithStatus(workspaceId: string, projectId: string, status: string, m?: EntityManager): Promise<boolean> {
    return this.tasks.anyWithStatus(workspaceId, projectId, status, m);
  }

  /** The next number of the project and the end of the chosen column, with the `created` history, in one statement. */
  async create(scope: ResolvedScope, user: AuthUser, projectId: string, dto: CreateTaskDto): Promise<TaskRecord> {
    const workspaceId = scope.workspaceId;
    if (dto.userId) {
      this.assertMayAssign(scope, user);
      await this.assertAssignable(workspaceId, dto.userId);
    }
    const row = await this.changes.create(
      {
        workspaceId,
        projectId,
        status: dto.status ?? null,
        userId: dto.userId ?? null,
        title: dto.title,
        description: dto.description ?? null,
        priority: dto.priority ?? 'no-priority',
        startDate: dto.startDate ? new Date(dto.startDate) : null,
        dueDate: dto.dueDate ? new Date(dto.dueDate) : null,
      },
      user.id,
    );
    if (row) return toTaskRecord(row);
    // Refused: the status is not one of the project's (or the project went away meanwhile).
    if (dto.status !== undefined) this.assertStatus(dto.status, await this.tasks.statusSlugs(workspaceId, projectId));
    throw new NotFoundException(PROJECT_NOT_FOUND);
  }

  /**
   * The order of one column's tasks (the board's drag within a column): positions 0, 1, 2, … in the
   * order given, all or nothing; tasks not listed keep theirs (docs/decisions-local.md, "Positions").
   */
  async reorder(workspaceId: string, projectId: string, status: string, taskIds: string[]): Promise<Record<string, never>> {
    const seen = new Set<string>();
    for (const id of taskIds) {
      if (seen.has(id)) throw new BadRequestException(`Task ${id} is listed more than once`);
      seen.add(id);
    }
    if (!taskIds.length) return {};
    const { missing, moved } = await this.changes.reorder(workspaceId, projectId, status, taskIds);
    if (missing) throw new BadRequestException(`Task ${missing} is not in column ${status} of this project`);
    if (moved > 0) await this.signalReorder(workspaceId, projectId, status, taskIds);
    return {};
  }

  /**
   * A new order is not a task event (no webhook, no activity), but the boards open on the project
   * should show it: a live-only `task.reordered` entry on the workspace's stream once it has
   * committed (docs/live-events.md).
   */
  private signalReorder(workspaceId: string, projectId: string, status: string, taskIds: string[]): Promise<void> {
    return this.signal(workspaceId, 'task.reordered', { kind: 'taskReordered', workspaceId, project: { id: projectId }, status, taskIds });
  }

  /**
   * A live-only entry (docs/live-events.md, "Live signals"): what open views should show though no
   * task event says it. Appended once the change has committed; best effort: the change is written,
   * and a stream that misses the signal shows it at its next fetch.
   */
  private async signal(workspaceId: string, event: string, data: Record<string, unknown>): Promise<void> {
    const entry = { id: `${event.slice(5)}:${randomUUID()}`, event, userId: null, data: liveData({ ...data, at: new Date().toISOString() }) };
    try {
      await this.live.append(new Map([[workspaceId, [entry]]]));
    } catch (err) {
      this.logger.warn(`the live signal ${event} of workspace ${workspaceId} was not sent: ${(err as Error).message}`);
    }
  }

  /** A page of a project's tasks, filtered (docs/compatibility.md, "Task lists and their filters"). */
  async list(workspaceId: string, projectId: string, q: ListTasksQuery) {
    assertOneAssignee(q);
    if (q.status !== undefined) this.assertStatus(q.status, await this.tasks.statusSlugs(workspaceId, projectId));
    await this.assertLabels([workspaceId], q.labelId);
    return taskPage(await this.tasks.listInProject(workspaceId, projectId, q));
  }

  /**
   * A page of the tasks assigned to the caller, in one workspace (404 when not a member, 403
   * without task:read there) or in every workspace where the caller may read tasks.
   */
  async mine(user: AuthUser, q: MyTasksQuery) {
    let workspaceIds: string[];
    if (q.workspaceId !== undefined) {
      const m = await this.access.membership(q.workspaceId, user.id);
      if (!m) throw new NotFoundException('Workspace not found');
      if (!hasPermission(await this.access.permissionsFor(m.workspaceId, m.roles), 'task', 'read')) throw new ForbiddenException(insufficientPermissions('task', 'read'));
      workspaceIds = [m.workspaceId];
    } else {
      workspaceIds = await this.access.workspacesWhere(user.id, 'task', 'read');
    }
    await this.assertLabels(workspaceIds, q.labelId);
    return taskPage(await this.tasks.listAssigned(user.id, workspaceIds, q));
  }

  /** Each label filter names a label of those workspaces (400 otherwise: no filter silently matches nothing). */
  private async assertLabels(workspaceIds: string[], labelIds: string[] | undefined): Promise<void> {
    if (!labelIds?.length) return;
    const known = await this.tasks.knownLabels(workspaceIds, labelIds);
    const unknown = labelIds.find((id) => !known.has(id));
    if (unknown) throw new BadRequestException(`Label ${unknown} not found in this workspace`);
  }

  /**
   * Every field update goes through here. The task is read, compared with the request, and only a
   * real change is written, together with one activity per changed field, in one statement that
   * applies only if the changed fields still hold the values read (and a new status is still a
   * column): four statements in all with the session check and the guard, the hot path of the
   * PUTs. If someone changed the same fields meanwhile, it is worked out again under the row lock,
   * which waits for them, so concurrent updates all land.
   */
  async update(scope: ResolvedScope, user: AuthUser, id: string, patch: TaskPatch): Promise<TaskRecord> {
    const silent: string[] = [];
    let row = await this.tryUpdate(this.ds.manager, scope, user, id, patch, '', silent);
    // Under the lock only a column deleted meanwhile can refuse the write, and the next read sees that.
    for (let attempt = 0; !row && attempt < 3; attempt++) {
      row = await this.ds.transaction((m) => this.tryUpdate(m, scope, user, id, patch, 'FOR NO KEY UPDATE', silent));
    }
    if (!row) throw new ConflictException('The task is being changed by someone else; try again');
    // A change no task event tells of (a date, an unassignment): open views still hear of it.
    if (silent.length)
      await this.signal(row.workspace_id, 'task.changed', {
        kind: 'taskChanged',
        workspaceId: row.workspace_id,
        project: { id: row.project_id },
        task: { id: row.id },
        changes: silent,
      });
    return toTaskRecord(row);
  }

  /** Reads the task and writes the change the patch makes to it; undefined when the changed fields moved on meanwhile. */
  private async tryUpdate(
    m: EntityManager,
    scope: ResolvedScope,
    user: AuthUser,
    id: string,
    patch: TaskPatch,
    lock: '' | 'FOR NO KEY UPDATE',
    silent: string[],
  ): Promise<TaskRow | undefined> {
    const workspaceId = scope.workspaceId;
    const cur = await this.tasks.findForUpdate(workspaceId, id, { withSlugs: patch.status !== undefined, lock }, m);
    if (!cur) throw new NotFoundException(NOT_FOUND);
    // Checked against the row already read: accepting projectId costs no statement.
    if (patch.projectId !== undefined && patch.projectId.toLowerCase() !== cur.project_id) throw new BadRequestException(MOVE_ELSEWHERE);
    const diff = diffTask(cur, patch);
    if (isEmptyDiff(diff)) return cur;
    if (diff.set.user_id !== undefined) {
      this.assertMayAssign(scope, user);
      if (diff.set.user_id !== null) await this.assertAssignable(workspaceId, diff.set.user_id as string, m);
    }
    if (diff.set.status !== undefined) this.assertStatus(diff.set.status as string, cur.slugs!);
    const row = await this.changes.update(cur, diff, user.id, m);
    // The changed fields no task event tells of (their history types have no event kind), once written.
    if (row) silent.splice(0, silent.length, ...diff.activities.map((a) => a.type).filter((t) => !Object.hasOwn(EVENT_KIND_OF_HISTORY, t)));
    return row;
  }

  /** The column slugs of a project in board order (which statuses are valid there, besides the virtual ones). */
  statusSlugs(workspaceId: string, projectId: string): Promise<string[]> {
    return this.tasks.statusSlugs(workspaceId, projectId);
  }

  /** The workspace of each of `ids` (UUIDs) that is a task: how a bulk operation finds where it acts. */
  workspacesOf(ids: string[]): Promise<Map<string, string>> {
    return this.tasks.workspacesOf(ids);
  }

  /**
   * Applies one patch to several tasks of the workspace in `m`'s transaction, each through the
   * write path (its history and events), under row locks. A task the patch does not change is
   * not written and not counted. Answers how many changed. The caller has checked the
   * permissions and the assignee; a status must be valid in each task's project (else 400 and the
   * transaction rolls back).
   */
  async updateMany(workspaceId: string, actorId: string, ids: string[], patch: TaskPatch, m: EntityManager): Promise<number> {
    const found = await this.tasks.findManyForUpdate(workspaceId, ids, patch.status !== undefined, m);
    if (found.length !== ids.length) throw new NotFoundException(NOT_FOUND);
    let changed = 0;
    for (const cur of found) {
      const diff = diffTask(cur, patch);
      if (isEmptyDiff(diff)) continue;
      if (diff.set.status !== undefined) this.assertStatus(diff.set.status as string, cur.slugs!);
      // Under the row lock the write cannot be refused but by a column deleted meanwhile.
      if (!(await this.changes.update(cur, diff, actorId, m))) throw new ConflictException('The task is being changed by someone else; try again');
      changed++;
    }
    return changed;
  }

  /** Deletes several tasks of the workspace in `m`'s transaction; answers how many went. */
  removeMany(workspaceId: string, ids: string[], actorId: string, m: EntityManager): Promise<number> {
    return this.tasks.deleteManyInWorkspace(workspaceId, ids, actorId, m);
  }

  // ---- changes made by the service itself (git-host imports and inbound webhooks) ----
  // They go through the same write path as the REST routes (history and events in the change's
  // statement), inside the caller's transaction `m`, without a user's permission checks: the
  // integration decided them. `actorId` is the user behind them, or null for none (a webhook).

  /** The task with that number in the project, if any. */
  findByNumber(workspaceId: string, projectId: string, number: number, m?: EntityManager): Promise<TaskRow | undefined> {
    return this.tasks.findByNumber(workspaceId, projectId, number, m);
  }

  /** Creates a task (status null: the first column); undefined when the project is gone or the status is not one of its columns. */
  createFromIntegration(task: NewTask, actorId: string | null, m: EntityManager): Promise<TaskRow | undefined> {
    return this.changes.create(task, actorId, m);
  }

  /** The task, locked in `m` until its transaction ends (to decide a change from its current state). */
  lockForIntegration(workspaceId: string, id: string, m: EntityManager): Promise<TaskRow | undefined> {
    return this.tasks.findForUpdate(workspaceId, id, { withSlugs: false, lock: 'FOR NO KEY UPDATE' }, m);
  }

  /**
   * Applies `patch` (title, description, status, priority) to the task, read under its row lock in
   * `m`: only the fields that really change are written, each with its history row and event.
   * Answers the task after the change and whether anything changed; undefined when it is gone.
   * A status that is not one of the project's columns (or a virtual status) is refused (400).
   */
  async changeFromIntegration(
    workspaceId: string,
    id: string,
    patch: { title?: string; description?: string | null; status?: string; priority?: Priority },
    actorId: string | null,
    m: EntityManager,
  ): Promise<{ task: TaskRow; changed: boolean } | undefined> {
    const cur = await this.tasks.findForUpdate(workspaceId, id, { withSlugs: patch.status !== undefined, lock: 'FOR NO KEY UPDATE' }, m);
    if (!cur) return undefined;
    const diff = diffTask(cur, patch);
    if (isEmptyDiff(diff)) return { task: cur, changed: false };
    if (diff.set.status !== undefined) this.assertStatus(diff.set.status as string, cur.slugs!);
    const row = await this.changes.update(cur, diff, actorId, m);
    // Under the row lock only a column deleted meanwhile can refuse the write.
    if (!row) throw new ConflictException('The task changed while it was being updated; try again');
    return { task: row, changed: true };
  }

  /** A comment on the task by `actorId` or, with `external`, by someone outside the service; undefined when the task is gone. */
  async commentFromIntegration(workspaceId: string, taskId: string, content: string, actorId: string | null, external: ExternalAuthor | null, m: EntityManager) {
    return this.changes.comment(workspaceId, taskId, actorId, content, external, m);
  }

  async remove(workspaceId: string, id: string, actorId: string): Promise<TaskRecord> {
    const row = await this.tasks.deleteInWorkspace(workspaceId, id, actorId);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toTaskRecord(row);
  }

  /**
   * Moves a task to another project of the same workspace: it takes the destination's next
   * number and the end of its column, with its history, in one statement (TaskChangesRepository).
   */
  async move(scope: ResolvedScope, user: AuthUser, id: string, dto: MoveTaskDto): Promise<TaskMoveResult> {
    const workspaceId = scope.workspaceId;
    const destinationId = dto.destinationProjectId.toLowerCase();
    if (!isUuid(destinationId)) throw new NotFoundException(PROJECT_NOT_FOUND);
    const row = await this.changes.move(workspaceId, id, destinationId, dto.destinationStatus ?? null, user.id);
    if (!row) return this.explainRefusedMove(user, workspaceId, id, destinationId, dto);
    return { task: toTaskRecord(row), sourceProjectId: row.old_project_id, destinationProjectId: destinationId };
  }

  /**
   * Moves tasks `ids` of the workspace into project `destinationId` (checked by the caller to be one
   * of the workspace's), each as the single move does, in the caller's transaction `m`. A task
   * already there is left as it is and not counted; one that is gone fails the whole.
   */
  async moveMany(workspaceId: string, actorId: string, ids: string[], destinationId: string, m: EntityManager): Promise<number> {
    let moved = 0;
    for (const id of ids) {
      if (await this.changes.move(workspaceId, id, destinationId, null, actorId, m)) moved++;
      else if ((await this.tasks.projectOf(workspaceId, id, m)) !== destinationId) throw new NotFoundException(NOT_FOUND);
    }
    return moved;
  }

  /**
   * Why the move statement changed nothing (it only moves within the task's workspace): the destination is
   * not the caller's to see (404) or in another workspace (400), the task is gone or already
   * there, or the status does not fit. Checked only on refusal, so a move costs one statement.
   */
  private async explainRefusedMove(user: AuthUser, workspaceId: string, id: string, destinationId: string, dto: MoveTaskDto): Promise<never> {
    // A project the caller cannot see does not exist for them; one in another of their workspaces is a bad request.
    const dest = await this.access.locate('project', destinationId, user.id);
    if (!dest?.memberId) throw new NotFoundException(PROJECT_NOT_FOUND);
    if (dest.workspaceId !== workspaceId) throw new BadRequestException('Tasks can only be moved within the same workspace');
    const current = await this.tasks.projectOf(workspaceId, id);
    if (!current) throw new NotFoundException(NOT_FOUND);
    if (current === destinationId) throw new BadRequestException('Task is already in that project');
    if (dto.destinationStatus !== undefined) throw new BadRequestException('Selected status is not valid for the destination project');
    throw new NotFoundException(PROJECT_NOT_FOUND);
  }

  private assertStatus(status: string, slugs: string[]): void {
    const message = invalidStatusMessage(status, slugs);
    if (message) throw new BadRequestException(message);
  }

  /** Changing the assignee needs task:assign, from the role and (for an API key) from its scopes. */
  private assertMayAssign(scope: ResolvedScope, user: AuthUser): void {
    assertMayDo(scope, user, 'task', 'assign');
  }

  /** 400 unless `userId` is a member of the workspace (who may be assigned tasks there). */
  async assertAssignable(workspaceId: string, userId: string, m?: EntityManager): Promise<void> {
    if (!(await this.access.membership(workspaceId, userId, m))) throw new BadRequestException('Assignee must be a member of this workspace');
  }
}
