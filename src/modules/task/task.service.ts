import { BadRequestException, ConflictException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ResolvedScope } from '../../common/decorators/require-permission.decorator';
import { isUuid } from '../../common/pipes/id.pipe';
import { AccessService } from '../../common/permissions/access.service';
import { hasPermission } from '../../common/permissions/permissions';
import { escapeLike, firstRow, preparedRows, rows, setClause } from '../../database/sql';
import { ActivityDraft, NewActivity } from '../activity/activity.record';
import { ActivityService } from '../activity/activity.service';
import { invalidStatusMessage } from '../column/board-statuses';
import { ColumnService } from '../column/column.service';
import { ProjectService } from '../project/project.service';
import { CreateTaskDto, ListTasksQuery, MoveTaskDto, TaskSort } from './dto/task.dto';
import { diffTask, isEmptyDiff, TaskDiff, TaskPatch } from './task-changes';
import { TASK_FIELDS, TaskRecord, TaskRow, toTaskRecord } from './task.record';

const NOT_FOUND = 'Task not found';
const PROJECT_NOT_FOUND = 'Project not found';

/** `position` at the end of the column `statusSql` of project `projectSql` (SQL expressions). */
const endOfColumn = (projectSql: string, statusSql: string) =>
  `(SELECT COALESCE(MAX(position) + 1, 0) FROM task WHERE project_id = ${projectSql} AND status = ${statusSql})`;

interface MoveOrigin {
  old_project_id: string;
}

/**
 * A whole task move in ONE auto-committed statement (decisions §4): lock the task, pick the
 * destination status (the requested column; else the column with the task's current slug; else
 * the first column; `planned` when the project has none), claim the destination's next number
 * from its counter row, move the task to the end of that column, and write the `moved` (and,
 * when the status changes, `status_changed`) activity. Without a client round trip inside the
 * transaction, the destination's counter row is locked only while the statement runs, so moves
 * into one project queue briefly. No row comes back when the move is refused (task missing or
 * already there, status not a column of the destination): nothing was changed then.
 * $1 task, $2 workspace, $3 destination project, $4 requested status or null, $5 actor.
 */
const MOVE_SQL = `
  WITH cur AS (
    SELECT id, project_id, number, status FROM task
     WHERE id = $1 AND workspace_id = $2 AND project_id <> $3 FOR UPDATE
  ), cols AS (
    SELECT slug, position, created_at, id FROM board_column WHERE project_id = $3 FOR KEY SHARE
  ), target AS (
    SELECT CASE WHEN $4::text IS NOT NULL THEN (SELECT slug FROM cols WHERE slug = $4::text)
                ELSE COALESCE((SELECT c.slug FROM cols c JOIN cur ON c.slug = cur.status),
                              (SELECT slug FROM cols ORDER BY position, created_at, id LIMIT 1),
                              'planned')
           END AS status
  ), claimed AS (
    UPDATE project SET task_counter = task_counter + 1
     WHERE id = $3 AND workspace_id = $2 AND EXISTS (SELECT 1 FROM cur) AND (SELECT status FROM target) IS NOT NULL
    RETURNING task_counter
  ), changed AS (
    UPDATE task t SET project_id = $3, number = claimed.task_counter, status = target.status,
           position = ${endOfColumn('$3', 'target.status')}, updated_at = now()
      FROM cur, claimed, target
     WHERE t.id = cur.id
    RETURNING ${TASK_FIELDS.split(', ').map((f) => `t.${f}`).join(', ')},
              cur.project_id AS old_project_id, cur.number AS old_number, cur.status AS old_status
  ), history AS (
    INSERT INTO activity (workspace_id, task_id, user_id, type, content, event_data, created_at, updated_at)
    SELECT c.workspace_id, c.id, $5::uuid, h.type, h.content, h.event_data, clock_timestamp(), clock_timestamp()
      FROM changed c
      CROSS JOIN LATERAL (
        SELECT 1 AS ord, 'moved' AS type, 'moved the task to another project' AS content,
               jsonb_build_object('sourceProjectId', c.old_project_id, 'destinationProjectId', $3::uuid,
                 'oldNumber', c.old_number, 'newNumber', c.number, 'oldStatus', c.old_status, 'newStatus', c.status) AS event_data
        UNION ALL
        SELECT 2, 'status_changed', 'changed the status from ' || c.old_status || ' to ' || c.status,
               jsonb_build_object('oldStatus', c.old_status, 'newStatus', c.status)
         WHERE c.status <> c.old_status
      ) h
     ORDER BY h.ord
  )
  SELECT * FROM changed`;

const PRIORITY_RANK = `CASE priority WHEN 'urgent' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 ELSE 0 END`;
const SORT_SQL: Record<TaskSort, string> = {
  createdAt: 'created_at',
  position: 'position',
  number: 'number',
  title: 'lower(title)',
  status: 'status',
  priority: PRIORITY_RANK,
  dueDate: 'due_date',
  startDate: 'start_date',
};

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
    private readonly projects: ProjectService,
    private readonly columns: ColumnService,
    private readonly activities: ActivityService,
  ) {}

  /** One statement: the hot read path (GET /task/:id) must stay at one query after the guard. */
  async get(workspaceId: string, id: string): Promise<TaskRecord> {
    const [row] = await preparedRows<TaskRow>(this.ds, 'task_get', `SELECT ${TASK_FIELDS} FROM task WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toTaskRecord(row);
  }

  /** Whether the task exists in the workspace (for modules that hang things on tasks). */
  async existsInWorkspace(workspaceId: string, id: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    if (!isUuid(id)) return false;
    return !!(await firstRow(m, `SELECT 1 FROM task WHERE id = $1 AND workspace_id = $2`, [id.toLowerCase(), workspaceId]));
  }

  async create(scope: ResolvedScope, user: AuthUser, projectId: string, dto: CreateTaskDto): Promise<TaskRecord> {
    const workspaceId = scope.workspaceId;
    if (dto.userId) this.assertMayAssign(scope, user);
    return this.ds.transaction(async (m) => {
      const number = await this.projects.claimTaskNumber(m, workspaceId, projectId);
      if (number === null) throw new NotFoundException(PROJECT_NOT_FOUND);
      const slugs = await this.columns.statusSlugs(m, projectId);
      const status = dto.status ?? slugs[0] ?? 'planned';
      this.assertStatus(status, slugs);
      if (dto.userId) await this.assertAssignable(m, workspaceId, dto.userId);
      const row = (await firstRow<TaskRow>(
        m,
        `INSERT INTO task (workspace_id, project_id, number, position, status, user_id, created_by_id, title, description, priority, start_date, due_date)
         VALUES ($1, $2, $3, ${endOfColumn('$2', '$4')}, $4, $5, $6, $7, $8, $9, $10, $11)
         RETURNING ${TASK_FIELDS}`,
        [
          workspaceId,
          projectId,
          number,
          status,
          dto.userId ?? null,
          user.id,
          dto.title,
          dto.description ?? null,
          dto.priority ?? 'no-priority',
          dto.startDate ? new Date(dto.startDate) : null,
          dto.dueDate ? new Date(dto.dueDate) : null,
        ],
      ))!;
      await this.record(m, row, user, [
        { type: 'created', content: 'created the task', eventData: { number: row.number, status: row.status, priority: row.priority, userId: row.user_id } },
      ]);
      return toTaskRecord(row);
    });
  }

  async list(workspaceId: string, projectId: string, q: ListTasksQuery) {
    const params: unknown[] = [projectId, workspaceId];
    const where = ['project_id = $1', 'workspace_id = $2'];
    const add = (sql: (n: number) => string, value: unknown) => {
      params.push(value);
      where.push(sql(params.length));
    };
    if (q.status !== undefined) add((n) => `status = $${n}`, q.status);
    if (q.priority !== undefined) add((n) => `priority = $${n}`, q.priority);
    if (q.userId !== undefined) add((n) => `user_id = $${n}`, q.userId);
    if (q.q) add((n) => `(title ILIKE $${n} OR description ILIKE $${n})`, `%${escapeLike(q.q)}%`);
    const page = q.page ?? 1;
    const pageSize = q.limit ?? 50;
    const dir = q.sortOrder === 'asc' ? 'ASC' : 'DESC';
    const order = `${SORT_SQL[q.sortBy ?? 'createdAt']} ${dir} NULLS LAST, number ${dir}`;
    const filter = where.join(' AND ');
    const [found, [{ total }]] = await Promise.all([
      rows<TaskRow>(this.ds.manager, `SELECT ${TASK_FIELDS} FROM task WHERE ${filter} ORDER BY ${order} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`, params),
      rows<{ total: number }>(this.ds.manager, `SELECT count(*)::int AS total FROM task WHERE ${filter}`, params),
    ]);
    return {
      data: found.map(toTaskRecord),
      pagination: { total, page, pageSize, totalPages: Math.ceil(total / pageSize) },
    };
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
    let row = await this.tryUpdate(this.ds.manager, scope, user, id, patch, '');
    // Under the lock only a column deleted meanwhile can refuse the write, and the next read sees that.
    for (let attempt = 0; !row && attempt < 3; attempt++) {
      row = await this.ds.transaction((m) => this.tryUpdate(m, scope, user, id, patch, 'FOR NO KEY UPDATE'));
    }
    if (!row) throw new ConflictException('The task is being changed by someone else; try again');
    return toTaskRecord(row);
  }

  /** Reads the task and writes the change the patch makes to it; undefined when the changed fields moved on meanwhile. */
  private async tryUpdate(m: EntityManager, scope: ResolvedScope, user: AuthUser, id: string, patch: TaskPatch, lock: string): Promise<TaskRow | undefined> {
    const workspaceId = scope.workspaceId;
    const statuses = patch.status !== undefined ? `, ${this.columns.statusSlugsSql('task.project_id')} AS slugs` : '';
    const cur = await firstRow<TaskRow & { slugs?: string[] }>(m, `SELECT ${TASK_FIELDS}${statuses} FROM task WHERE id = $1 AND workspace_id = $2 ${lock}`, [
      id,
      workspaceId,
    ]);
    if (!cur) throw new NotFoundException(NOT_FOUND);
    const diff = diffTask(cur, patch);
    if (isEmptyDiff(diff)) return cur;
    if (diff.set.user_id !== undefined) {
      this.assertMayAssign(scope, user);
      if (diff.set.user_id !== null) await this.assertAssignable(m, workspaceId, diff.set.user_id as string);
    }
    if (diff.set.status !== undefined) this.assertStatus(diff.set.status as string, cur.slugs!);
    return this.writeIfUnchanged(m, cur, diff, user);
  }

  private async writeIfUnchanged(m: EntityManager, cur: TaskRow, diff: TaskDiff, user: AuthUser): Promise<TaskRow | undefined> {
    const set = setClause(diff.set, 3);
    const params: unknown[] = [cur.id, cur.workspace_id, ...set.params];
    let assignments = set.sql;
    const unchanged = Object.keys(diff.set).map((column) => {
      params.push(cur[column as keyof TaskRow]);
      // Dates travel as JS dates (milliseconds); compare at that precision.
      const stored = column.endsWith('_date') ? `date_trunc('milliseconds', ${column})` : column;
      return `${stored} IS NOT DISTINCT FROM $${params.length}`;
    });
    if (diff.set.status !== undefined) {
      params.push(cur.project_id, diff.set.status);
      const [project, status] = [`$${params.length - 1}::uuid`, `$${params.length}::text`];
      // The status was checked against the columns of the project the task was in when read.
      unchanged.push(`project_id = ${project}`, this.columns.statusValidSql(project, status));
      // A task that changes column goes to its end unless the request places it.
      if (diff.set.position === undefined) assignments += `, position = ${endOfColumn(project, status)}`;
    }
    const history = diff.activities.length ? `, history AS (${this.activities.insertForEachSql('changed', user.id, diff.activities, params)})` : '';
    return firstRow<TaskRow>(
      m,
      `WITH changed AS (
         UPDATE task SET ${assignments}, updated_at = now()
          WHERE id = $1 AND workspace_id = $2 AND ${unchanged.join(' AND ')}
         RETURNING ${TASK_FIELDS}
       )${history}
       SELECT * FROM changed`,
      params,
    );
  }

  async remove(workspaceId: string, id: string): Promise<TaskRecord> {
    const row = await firstRow<TaskRow>(this.ds.manager, `DELETE FROM task WHERE id = $1 AND workspace_id = $2 RETURNING ${TASK_FIELDS}`, [id, workspaceId]);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toTaskRecord(row);
  }

  /**
   * Moves a task to another project of the same workspace (decisions §4): it takes the
   * destination's next number and the end of its column, in one transaction with its activity.
   */
  async move(scope: ResolvedScope, user: AuthUser, id: string, dto: MoveTaskDto): Promise<TaskMoveResult> {
    const workspaceId = scope.workspaceId;
    const destinationId = dto.destinationProjectId.toLowerCase();
    if (!isUuid(destinationId)) throw new NotFoundException(PROJECT_NOT_FOUND);
    const [row] = await preparedRows<TaskRow & MoveOrigin>(this.ds, 'task_move', MOVE_SQL, [
      id,
      workspaceId,
      destinationId,
      dto.destinationStatus ?? null,
      user.id,
    ]);
    if (!row) return this.explainRefusedMove(user, workspaceId, id, destinationId, dto);
    return { task: toTaskRecord(row), sourceProjectId: row.old_project_id, destinationProjectId: destinationId };
  }

  /**
   * Why MOVE_SQL changed nothing (it only moves within the task's workspace): the destination is
   * not the caller's to see (404) or in another workspace (400), the task is gone or already
   * there, or the status does not fit. Checked only on refusal, so a move costs one statement.
   */
  private async explainRefusedMove(user: AuthUser, workspaceId: string, id: string, destinationId: string, dto: MoveTaskDto): Promise<never> {
    // A project the caller cannot see does not exist for them; one in another of their workspaces is a bad request.
    const dest = await this.access.locate('project', destinationId, user.id);
    if (!dest?.memberId) throw new NotFoundException(PROJECT_NOT_FOUND);
    if (dest.workspaceId !== workspaceId) throw new BadRequestException('Tasks can only be moved within the same workspace');
    const cur = await firstRow<{ project_id: string }>(this.ds.manager, `SELECT project_id FROM task WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]);
    if (!cur) throw new NotFoundException(NOT_FOUND);
    if (cur.project_id === destinationId) throw new BadRequestException('Task is already in that project');
    if (dto.destinationStatus !== undefined) throw new BadRequestException('Selected status is not valid for the destination project');
    throw new NotFoundException(PROJECT_NOT_FOUND);
  }

  private record(m: EntityManager, task: TaskRow, user: AuthUser, drafts: ActivityDraft[]) {
    const entries: NewActivity[] = drafts.map((d) => ({ ...d, workspaceId: task.workspace_id, taskId: task.id, userId: user.id }));
    return this.activities.record(m, entries);
  }

  private assertStatus(status: string, slugs: string[]): void {
    const message = invalidStatusMessage(status, slugs);
    if (message) throw new BadRequestException(message);
  }

  /** Changing the assignee needs task:assign, from the role and (for an API key) from its scopes. */
  private assertMayAssign(scope: ResolvedScope, user: AuthUser): void {
    if (!hasPermission(scope.permissions, 'task', 'assign')) throw new ForbiddenException('Insufficient permissions');
    const keyScopes = user.apiKey?.permissions;
    if (keyScopes && !(keyScopes.task ?? []).includes('assign')) throw new ForbiddenException('Insufficient API key scope');
  }

  private async assertAssignable(m: EntityManager, workspaceId: string, userId: string): Promise<void> {
    if (!(await this.access.membership(workspaceId, userId, m))) throw new BadRequestException('Assignee must be a member of this workspace');
  }
}
