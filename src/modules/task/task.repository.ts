import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { escapeLike, firstRow, preparedRows, qualified, rows } from '../../database/sql';
import { OutboxSignal } from '../../queue/outbox-signal';
import { ListTasksQuery, TaskFilterQuery, TaskSort } from './dto/task.dto';
import { taskDeletedEventsSql } from './task-events.sql';
import { TASK_FIELDS, TaskRow } from './task.record';

/** The permission guard's way from a task id to its workspace (ScopeRegistry kind `task`). */
export const TASK_SCOPE_SQL = 'SELECT workspace_id FROM task WHERE id = $1';

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

export interface TaskPage {
  rows: TaskRow[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * The SQL conditions (on `task`) of a list's filters, their values appended to `params`
 * (docs/compatibility.md, "Task lists and their filters"). `…After` is inclusive, `…Before`
 * exclusive; labels: a task with any of them (a catalogue label, or a task's own copy, by id).
 * The assignee is `assigneeId` or its alias `userId` (the service checks that both agree).
 */
export function filterSql(q: TaskFilterQuery, params: unknown[]): string[] {
  const where: string[] = [];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (q.status !== undefined) add((n) => `status = ${n}`, q.status);
  if (q.priority !== undefined) add((n) => `priority = ${n}`, q.priority);
  const assignee = q.assigneeId ?? q.userId;
  if (assignee === 'none') where.push('user_id IS NULL');
  else if (assignee !== undefined) add((n) => `user_id = ${n}`, assignee);
  if (q.dueAfter !== undefined) add((n) => `due_date >= ${n}`, new Date(q.dueAfter));
  if (q.dueBefore !== undefined) add((n) => `due_date < ${n}`, new Date(q.dueBefore));
  if (q.startAfter !== undefined) add((n) => `start_date >= ${n}`, new Date(q.startAfter));
  if (q.startBefore !== undefined) add((n) => `start_date < ${n}`, new Date(q.startBefore));
  if (q.labelId?.length) add((n) => `EXISTS (SELECT 1 FROM label l WHERE l.task_id = task.id AND (l.catalog_label_id = ANY(${n}::uuid[]) OR l.id = ANY(${n}::uuid[])))`, q.labelId);
  // Through the task's searchable text (kept in step by triggers) and its trigram indexes: a rare
  // word is found from the index, a common one by walking the list's own order (the planner's pick).
  if (q.q) add((n) => `id IN (SELECT x.task_id FROM task_text x WHERE x.title ILIKE ${n} OR x.description ILIKE ${n})`, `%${escapeLike(q.q)}%`);
  return where;
}

/** Reads and deletion of tasks. Changes go through TaskChangesRepository (the task write path). */
@Injectable()
export class TaskRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly outbox: OutboxSignal,
  ) {}

  /** One named statement: the hot read path (GET /task/:id). */
  async findInWorkspace(workspaceId: string, id: string): Promise<TaskRow | undefined> {
    const [row] = await preparedRows<TaskRow>(this.ds, 'task_get', `SELECT ${TASK_FIELDS} FROM task WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]);
    return row;
  }

  /** Those of `ids` that are tasks of the workspace (any order). */
  findManyInWorkspace(workspaceId: string, ids: string[], m: EntityManager = this.ds.manager): Promise<TaskRow[]> {
    return rows<TaskRow>(m, `SELECT ${TASK_FIELDS} FROM task WHERE id = ANY($1::uuid[]) AND workspace_id = $2`, [ids, workspaceId]);
  }

  async existsInWorkspace(workspaceId: string, id: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    return !!(await firstRow(m, `SELECT 1 FROM task WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]));
  }

  /** The task with that number in the project (numbers are unique per project). */
  findByNumber(workspaceId: string, projectId: string, number: number, m: EntityManager = this.ds.manager): Promise<TaskRow | undefined> {
    return firstRow<TaskRow>(m, `SELECT ${TASK_FIELDS} FROM task WHERE workspace_id = $1 AND project_id = $2 AND number = $3`, [workspaceId, projectId, number]);
  }

  /** The project a task is in (for explaining a refused move). */
  async projectOf(workspaceId: string, id: string, m: EntityManager = this.ds.manager): Promise<string | undefined> {
    return (await firstRow<{ project_id: string }>(m, `SELECT project_id FROM task WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]))?.project_id;
  }

  /**
   * The task as an update reads it, with `lock` ('' or a row lock clause) and, with `withSlugs`,
   * the column slugs (board order) of its project, which a new status is checked against.
   */
  async findForUpdate(
    workspaceId: string,
    id: string,
    opts: { withSlugs: boolean; lock: '' | 'FOR NO KEY UPDATE' },
    m: EntityManager = this.ds.manager,
  ): Promise<(TaskRow & { slugs?: string[] }) | undefined> {
    const slugs = opts.withSlugs ? `, ARRAY(SELECT c.slug FROM board_column c WHERE c.project_id = task.project_id ORDER BY c.position, c.created_at, c.id) AS slugs` : '';
    const name = `task_for_update${opts.withSlugs ? '_slugs' : ''}${opts.lock ? '_locked' : ''}`;
    return (await preparedRows(m, name, `SELECT ${TASK_FIELDS}${slugs} FROM task WHERE id = $1 AND workspace_id = $2 ${opts.lock}`, [id, workspaceId]))[0];
  }

  /** The column slugs of a project in board order (to say which statuses are valid). */
  async statusSlugs(workspaceId: string, projectId: string): Promise<string[]> {
    const found = await rows<{ slug: string }>(this.ds.manager, `SELECT slug FROM board_column WHERE project_id = $1 AND workspace_id = $2 ORDER BY position, created_at, id`, [
      projectId,
      workspaceId,
    ]);
    return found.map((r) => r.slug);
  }

  /** A page of a project's tasks and the total count, filtered and sorted as the query says. */
  listInProject(workspaceId: string, projectId: string, q: ListTasksQuery): Promise<TaskPage> {
    return this.page(['project_id = $1', 'workspace_id = $2'], [projectId, workspaceId], q);
  }

  /** A page of the tasks assigned to `userId` in the workspaces `workspaceIds`, filtered and sorted as the query says. */
  listAssigned(userId: string, workspaceIds: string[], q: TaskFilterQuery): Promise<TaskPage> {
    return this.page(['user_id = $1', 'workspace_id = ANY($2::uuid[])'], [userId, workspaceIds], q);
  }

  /** Those of `ids` that are labels (catalogue labels or a task's copies) of the workspaces. */
  async knownLabels(workspaceIds: string[], ids: string[]): Promise<Set<string>> {
    const found = await rows<{ id: string }>(this.ds.manager, `SELECT id FROM label WHERE id = ANY($1::uuid[]) AND workspace_id = ANY($2::uuid[])`, [ids, workspaceIds]);
    return new Set(found.map((r) => r.id));
  }

  private async page(where: string[], params: unknown[], q: TaskFilterQuery): Promise<TaskPage> {
    const filter = [...where, ...filterSql(q, params)].join(' AND ');
    const page = q.page ?? 1;
    const pageSize = q.limit ?? 50;
    const dir = q.sortOrder === 'asc' ? 'ASC' : 'DESC';
    const sort = q.sortBy ?? 'createdAt';
    // Tasks without the date last; only the dates can be null, and NULLS LAST on a column that
    // cannot would keep the planner from reading it in an index's order (project_id, created_at DESC).
    const order = `${SORT_SQL[sort]} ${dir}${sort === 'dueDate' || sort === 'startDate' ? ' NULLS LAST' : ''}, number ${dir}, id ${dir}`;
    const [found, [{ total }]] = await Promise.all([
      rows<TaskRow>(this.ds.manager, `SELECT ${TASK_FIELDS} FROM task WHERE ${filter} ORDER BY ${order} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`, params),
      rows<{ total: number }>(this.ds.manager, `SELECT count(*)::int AS total FROM task WHERE ${filter}`, params),
    ]);
    return { rows: found, total, page, pageSize };
  }

  /** The workspace of each of `ids` that is a task (a locator, like the guard's: no tenant yet). */
  async workspacesOf(ids: string[]): Promise<Map<string, string>> {
    const found = await rows<{ id: string; workspace_id: string }>(this.ds.manager, `SELECT id, workspace_id FROM task WHERE id = ANY($1::uuid[])`, [ids]);
    return new Map(found.map((r) => [r.id, r.workspace_id]));
  }

  /**
   * Those of `ids` that are tasks of the workspace, as updates read them (with the column slugs of
   * each task's project when `withSlugs`), row-locked until `m`'s transaction ends. Locked in id
   * order, so two bulk updates of overlapping tasks wait for each other instead of deadlocking.
   */
  findManyForUpdate(workspaceId: string, ids: string[], withSlugs: boolean, m: EntityManager): Promise<(TaskRow & { slugs?: string[] })[]> {
    const slugs = withSlugs ? `, ARRAY(SELECT c.slug FROM board_column c WHERE c.project_id = task.project_id ORDER BY c.position, c.created_at, c.id) AS slugs` : '';
    return rows(m, `SELECT ${TASK_FIELDS}${slugs} FROM task WHERE id = ANY($1::uuid[]) AND workspace_id = $2 ORDER BY id FOR NO KEY UPDATE`, [ids, workspaceId]);
  }

  /**
   * Deletes those of `ids` that are tasks of the workspace, with a `taskDeleted` event each in the
   * same statement (by `actorId`); answers how many went.
   */
  async deleteManyInWorkspace(workspaceId: string, ids: string[], actorId: string | null, m: EntityManager): Promise<number> {
    const gone = await rows(
      m,
      `WITH t AS (DELETE FROM task WHERE id = ANY($1::uuid[]) AND workspace_id = $2 RETURNING ${TASK_FIELDS}),
       events AS (${taskDeletedEventsSql('t', '$3::uuid')})
       SELECT id FROM t`,
      [ids, workspaceId, actorId],
    );
    if (gone.length) this.outbox.afterCommit(m);
    return gone.length;
  }

  /**
   * The first `perStatus` tasks of each of `statuses` (by position, then number) and how many each
   * holds: a board's lists, read a status at a time through (project, status, position), the
   * counts from the same index, so that the read is as bounded as the answer.
   */
  async firstOfEachStatus(workspaceId: string, projectId: string, statuses: string[], perStatus: number): Promise<{ rows: TaskRow[]; counts: Map<string, number> }> {
    const [found, counted] = await Promise.all([
      rows<TaskRow>(
        this.ds.manager,
        `SELECT ${qualified(TASK_FIELDS, 't')} FROM unnest($3::text[]) AS s(status)
           CROSS JOIN LATERAL (SELECT * FROM task WHERE project_id = $1 AND workspace_id = $2 AND status = s.status ORDER BY position, number LIMIT $4) t
          ORDER BY t.status, t.position, t.number`,
        [projectId, workspaceId, statuses, perStatus],
      ),
      rows<{ status: string; n: number }>(
        this.ds.manager,
        `SELECT status, count(*)::int AS n FROM task WHERE project_id = $1 AND workspace_id = $2 AND status = ANY($3::text[]) GROUP BY status`,
        [projectId, workspaceId, statuses],
      ),
    ]);
    return { rows: found, counts: new Map(counted.map((c) => [c.status, c.n])) };
  }

  /**
   * A page of a project's tasks in board order: by the place of their status in `statuses` (others
   * after them), then position, then number; and the project's count of tasks. An export's page.
   */
  async pageInBoardOrder(workspaceId: string, projectId: string, statuses: string[], limit: number, offset: number): Promise<{ rows: TaskRow[]; total: number }> {
    const [found, [{ total }]] = await Promise.all([
      rows<TaskRow>(
        this.ds.manager,
        `SELECT ${TASK_FIELDS} FROM task WHERE project_id = $1 AND workspace_id = $2
          ORDER BY array_position($3::text[], status) NULLS LAST, position, number LIMIT $4 OFFSET $5`,
        [projectId, workspaceId, statuses, limit, offset],
      ),
      rows<{ total: number }>(this.ds.manager, `SELECT count(*)::int AS total FROM task WHERE project_id = $1 AND workspace_id = $2`, [projectId, workspaceId]),
    ]);
    return { rows: found, total };
  }

  /** Whether a project holds a task with this status (a column that does cannot be deleted). */
  async anyWithStatus(workspaceId: string, projectId: string, status: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    return !!(await firstRow(m, `SELECT 1 FROM task WHERE project_id = $1 AND workspace_id = $2 AND status = $3 LIMIT 1`, [projectId, workspaceId, status]));
  }

  /** Deletes the task with its `taskDeleted` event (by `actorId`) in one statement; undefined when it is not a task of the workspace. */
  async deleteInWorkspace(workspaceId: string, id: string, actorId: string | null): Promise<TaskRow | undefined> {
    const row = await firstRow<TaskRow>(
      this.ds.manager,
      `WITH t AS (DELETE FROM task WHERE id = $1 AND workspace_id = $2 RETURNING ${TASK_FIELDS}),
       events AS (${taskDeletedEventsSql('t', '$3::uuid')})
       SELECT * FROM t`,
      [id, workspaceId, actorId],
    );
    if (row) this.outbox.afterCommit(this.ds.manager);
    return row;
  }
}
