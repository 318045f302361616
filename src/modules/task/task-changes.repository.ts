import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { KeyedGate } from '../../common/concurrency/keyed-gate';
import { PreparedShapes, preparedRows, qualified, rows, setClause } from '../../database/sql';
import { ACTIVITY_FIELDS, ActivityDraft, ActivityRow } from '../activity/activity.record';
import { VIRTUAL_STATUSES } from '../column/board-statuses';
import { TaskDiff } from './task-changes';
import { OutboxSignal } from '../../queue/outbox-signal';
import { EVENT_KIND_OF_HISTORY } from './task-event';
import { commentUpdatedEventSql, taskEventsSql } from './task-events.sql';
import { TASK_FIELDS, TaskRow } from './task.record';
import { historySql as history, NO_EXTERNAL } from '../activity/activity-history.sql';

/**
 * The one write path of task changes (docs/architecture.md, "The task write path"). Creating a
 * task, updating its fields, moving it and commenting on it all go through here, and each writes
 * the change and its history rows (`activity`) in one statement, through `history()`, and the events of those history rows through `taskEventsSql()`, so
 * no change can be written without them.
 *
 * These statements are the only ones that lock `board_column` (is a status a column, where is the
 * end of it) or write `activity` outside their own modules: a task change is only consistent
 * with them inside the same statement (a column cannot be deleted while a task enters it; a
 * change never commits without its history). They write the task's events into the outbox in the
 * same statement (taskEventsSql; time entries do the same with timeEntryEventSql): a change, its
 * history and its events commit together or not at all (docs/architecture.md, "Cross-module SQL").
 */

const VIRTUAL_SQL = VIRTUAL_STATUSES.map((s) => `'${s}'`).join(', ');

/** `position` at the end of the column `statusSql` of project `projectSql` (SQL expressions). */
const endOfColumn = (projectSql: string, statusSql: string) => `(SELECT COALESCE(MAX(position) + 1, 0) FROM task WHERE project_id = ${projectSql} AND status = ${statusSql})`;

/**
 * The status a task gets in project `projectSql` (CTEs `cols` and `target`): `requestedSql` when
 * it names one of the project's columns (or, with `allowVirtual`, a virtual status); without a
 * request, the slug `keep` selects from `cols` if any, else the first column, else `planned`. target.status
 * is NULL when the request is not valid. The columns are key-share locked until the statement
 * ends, so the chosen column cannot be deleted under the task.
 */
function chooseStatus(projectSql: string, requestedSql: string, opts: { allowVirtual: boolean; keep?: string }): string {
  const requested = opts.allowVirtual
    ? `CASE WHEN ${requestedSql} IN (${VIRTUAL_SQL}) THEN ${requestedSql} ELSE (SELECT slug FROM cols WHERE slug = ${requestedSql}) END`
    : `(SELECT slug FROM cols WHERE slug = ${requestedSql})`;
  const keep = opts.keep ? `${opts.keep}, ` : '';
  return `cols AS (
      SELECT slug, position, created_at, id FROM board_column WHERE project_id = ${projectSql} FOR KEY SHARE
    ), target AS (
      SELECT CASE WHEN ${requestedSql} IS NOT NULL THEN ${requested}
                  ELSE COALESCE(${keep}(SELECT slug FROM cols ORDER BY position, created_at, id LIMIT 1), 'planned')
             END AS status
    )`;
}

/**
 * Hands out project `projectSql`'s next task number (CTE `claimed`) when `when` holds. The UPDATE
 * holds the project row until the statement's transaction ends, so creates and moves into one
 * project queue here and a number is never given twice; a refused change claims nothing.
 */
const claimNumber = (projectSql: string, workspaceSql: string, when: string) => `claimed AS (
      UPDATE project SET task_counter = task_counter + 1
       WHERE id = ${projectSql} AND workspace_id = ${workspaceSql} AND ${when}
      RETURNING task_counter
    )`;

/**
 * Create: choose the status, claim the number, insert at the end of the column, write its history
 * row (`created`, or `imported` for a task brought in by an import).
 * $1 workspace, $2 project, $3 requested status or null, $4 actor, $5 assignee, $6 title,
 * $7 description, $8 priority, $9 start date, $10 due date, $11 history type, $12 its content.
 * No row: the project is gone or the status is not valid for it.
 */
const CREATE_SQL = `
  WITH ${chooseStatus('$2', '$3::text', { allowVirtual: true })},
  ${claimNumber('$2', '$1', '(SELECT status FROM target) IS NOT NULL')},
  changed AS (
    INSERT INTO task (workspace_id, project_id, number, position, status, user_id, created_by_id, title, description, priority, start_date, due_date)
    SELECT $1, $2, claimed.task_counter, ${endOfColumn('$2', 'target.status')}, target.status, $5, $4, $6, $7, $8, $9, $10
      FROM claimed, target
    RETURNING ${TASK_FIELDS}
  ), history AS (${history(
    `SELECT c.workspace_id, c.id AS task_id, 1 AS ord, $11::text AS type, $12::text AS content,
            jsonb_build_object('number', c.number, 'status', c.status, 'priority', c.priority, 'userId', c.user_id) AS event_data, ${NO_EXTERNAL}
       FROM changed c`,
    '$4::uuid',
  )}), events AS (${taskEventsSql('history', 'changed')})
  SELECT * FROM changed`;

/**
 * Move in ONE auto-committed statement: lock the task, choose the destination status (the
 * requested column; else the column with the task's current slug; else the first column;
 * `planned` when the project has none), claim the destination's next number, move the task to
 * the end of that column, keep its old key (`task_former_key`, docs/decisions-local.md, "Work items",
 * keys of moved tasks), and write `moved` (and `status_changed` when the status changes).
 * Without a round trip inside the transaction, the destination's counter row is locked only while
 * the statement runs. No row: the move was refused and nothing changed.
 * $1 task, $2 workspace, $3 destination project, $4 requested status or null, $5 actor.
 */
const MOVE_SQL = `
  WITH cur AS (
    SELECT id, project_id, number, status FROM task
     WHERE id = $1 AND workspace_id = $2 AND project_id <> $3 FOR UPDATE
  ), ${chooseStatus('$3', '$4::text', { allowVirtual: false, keep: '(SELECT c.slug FROM cols c JOIN cur ON c.slug = cur.status)' })},
  ${claimNumber('$3', '$2', 'EXISTS (SELECT 1 FROM cur) AND (SELECT status FROM target) IS NOT NULL')},
  changed AS (
    UPDATE task t SET project_id = $3, number = claimed.task_counter, status = target.status,
           position = ${endOfColumn('$3', 'target.status')}, updated_at = now()
      FROM cur, claimed, target
     WHERE t.id = cur.id
    RETURNING ${qualified(TASK_FIELDS, 't')},
              cur.project_id AS old_project_id, cur.number AS old_number, cur.status AS old_status
  ), former_key AS (
    INSERT INTO task_former_key (project_id, number, task_id, workspace_id)
    SELECT old_project_id, old_number, id, workspace_id FROM changed
    ON CONFLICT (project_id, number) DO NOTHING
  ), history AS (${history(
    `SELECT c.workspace_id, c.id AS task_id, e.ord, e.type, e.content, e.event_data, ${NO_EXTERNAL}
       FROM changed c
       CROSS JOIN LATERAL (
         SELECT 1 AS ord, 'moved' AS type, 'moved the task to another project' AS content,
                jsonb_build_object('sourceProjectId', c.old_project_id, 'destinationProjectId', $3::uuid,
                  'oldNumber', c.old_number, 'newNumber', c.number, 'oldStatus', c.old_status, 'newStatus', c.status) AS event_data
         UNION ALL
         SELECT 2, 'status_changed', 'changed the status from ' || c.old_status || ' to ' || c.status,
                jsonb_build_object('oldStatus', c.old_status, 'newStatus', c.status)
          WHERE c.status <> c.old_status
       ) e`,
    '$5::uuid',
  )}), events AS (${taskEventsSql('history', 'changed')})
  SELECT * FROM changed`;

/**
 * A comment on task $1 of workspace $2 by $3 (null: nobody of this service, e.g. an issue comment
 * copied from a git host, whose author is $5–$8: external user name, avatar, source, URL); no row
 * when the task is gone. Its author watches the task from now on, unless they unwatched it.
 */
const COMMENT_SQL = `
  WITH t AS (SELECT ${TASK_FIELDS} FROM task WHERE id = $1 AND workspace_id = $2),
  history AS (${history(
    `SELECT t.workspace_id, t.id AS task_id, 1 AS ord, 'comment' AS type, $4::text AS content, NULL::jsonb AS event_data,
            $5::text AS external_user_name, $6::text AS external_user_avatar, $7::text AS external_source, $8::text AS external_url FROM t`,
    '$3::uuid',
  )}),
  events AS (${taskEventsSql('history', 't')}),
  watcher AS (
    INSERT INTO task_watcher (task_id, user_id, workspace_id, watching, reason)
    SELECT t.id, $3, t.workspace_id, true, 'commenter' FROM t WHERE $3::uuid IS NOT NULL
    ON CONFLICT (task_id, user_id) DO NOTHING
  )
  SELECT * FROM history`;

/**
 * An edit of comment $1 of workspace $2 by its author $3 to text $4: its `comment_edited` history
 * row and, when the text changed, a `taskCommentUpdated` event (people hear of it when it mentions
 * someone new). No row: not a comment of that author in the workspace.
 */
const EDIT_COMMENT_SQL = `
  WITH old AS (
    SELECT id, content FROM activity WHERE id = $1 AND workspace_id = $2 AND user_id = $3 AND type = 'comment' FOR UPDATE
  ), c AS (
    UPDATE activity a SET content = $4, updated_at = now() FROM old WHERE a.id = old.id
    RETURNING ${qualified(ACTIVITY_FIELDS, 'a')}, old.content AS old_content
  ), history AS (${history(
    `SELECT $2::uuid AS workspace_id, c.task_id, 1 AS ord, 'comment_edited'::text AS type, 'edited a comment'::text AS content,
            jsonb_build_object('commentId', c.id) AS event_data, ${NO_EXTERNAL} FROM c`,
    '$3::uuid',
  )}), events AS (${commentUpdatedEventSql('(SELECT * FROM c WHERE c.old_content IS DISTINCT FROM c.content)')})
  SELECT ${ACTIVITY_FIELDS}, (old_content IS DISTINCT FROM content) AS text_changed FROM c`;

/** Who wrote a comment that comes from outside the service (a git host's issue comment). */
export interface ExternalAuthor {
  userName: string | null;
  userAvatar: string | null;
  source: string;
  url: string | null;
}

export interface NewTask {
  workspaceId: string;
  projectId: string;
  /** null: the first column of the project (`planned` when it has none). */
  status: string | null;
  userId: string | null;
  title: string;
  description: string | null;
  priority: string;
  startDate: Date | null;
  dueDate: Date | null;
}

export type MovedTaskRow = TaskRow & { old_project_id: string; old_status: string };

/** Task update shapes (sets of changed fields) prepared per process: the first ones seen, in practice the frequent ones (a status, a title, the client's edit form). */
const UPDATE_SHAPES = 12;

/**
 * Sets the positions of tasks of one column ($1 project, $2 workspace, $3 status) to their index in
 * $4, all or nothing: `missing` names the first listed task that is not in that column (nothing is
 * written then). The listed rows are locked first so two reorders of one column queue up.
 */
const REORDER_SQL = `
  WITH wanted AS (SELECT id, ord - 1 AS position FROM unnest($4::uuid[]) WITH ORDINALITY AS w(id, ord)),
  found AS (
    SELECT t.id FROM task t JOIN wanted w ON w.id = t.id
     WHERE t.project_id = $1 AND t.workspace_id = $2 AND t.status = $3
     ORDER BY t.id FOR UPDATE OF t
  ),
  missing AS (SELECT w.id FROM wanted w WHERE w.id NOT IN (SELECT id FROM found) ORDER BY w.position LIMIT 1),
  moved AS (
    UPDATE task t SET position = w.position, updated_at = now() FROM wanted w
     WHERE t.id = w.id AND t.project_id = $1 AND t.workspace_id = $2 AND t.status = $3
       AND t.position <> w.position AND NOT EXISTS (SELECT 1 FROM missing)
    RETURNING t.id
  )
  SELECT (SELECT id FROM missing) AS missing, (SELECT count(*)::int FROM moved) AS moved`;

@Injectable()
export class TaskChangesRepository {
  private readonly updateShapes = new PreparedShapes('task_update', UPDATE_SHAPES);
  /**
   * Creates and moves claim their project's next number by locking its counter row until they
   * commit: of those that commit on their own, two per project are in flight from this process at
   * a time (KeyedGate), one holding the row and one next in line for it in Postgres (so the row
   * never waits for a round trip); the rest wait here rather than on the row.
   */
  private readonly claims = new KeyedGate(2);

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly outbox: OutboxSignal,
  ) {}

  /** Every write here may have written events into the outbox: wake the relay once they commit. */
  private written<T>(row: T | undefined, m: EntityManager): T | undefined {
    if (row !== undefined) this.outbox.afterCommit(m);
    return row;
  }

  /**
   * Creates a task with its history row, `created` (or `imported`: docs/compatibility.md,
   * "Export and import"); in `m`'s transaction when given. undefined when the project is gone or
   * the status is not valid for it. `actorId` null: no user of the service is behind it (an
   * inbound git webhook).
   */
  async create(task: NewTask, actorId: string | null, m: EntityManager = this.ds.manager, how: 'created' | 'imported' = 'created'): Promise<TaskRow | undefined> {
    const params = [
      task.workspaceId,
      task.projectId,
      task.status,
      actorId,
      task.userId,
      task.title,
      task.description,
      task.priority,
      task.startDate,
      task.dueDate,
      how,
      how === 'imported' ? 'imported the task' : 'created the task',
    ];
    const create = () => preparedRows<TaskRow>(m, 'task_create', CREATE_SQL, params);
    // Inside a caller's transaction the counter row stays locked until that transaction ends: not gated (KeyedGate).
    const [row] = m.queryRunner?.isTransactionActive ? await create() : await this.claims.run(task.projectId, create);
    return this.written(row, m);
  }

  /**
   * Writes `diff` (made from `cur`) with one history row per changed field, in one statement that
   * applies only if the changed fields still hold the values read and a new status is still valid
   * in the task's project. undefined: something moved on meanwhile and nothing was written.
   */
  async update(cur: TaskRow, diff: TaskDiff, actorId: string | null, m: EntityManager = this.ds.manager): Promise<TaskRow | undefined> {
    const set = setClause(diff.set, 3);
    const params: unknown[] = [cur.id, cur.workspace_id, ...set.params];
    const param = (v: unknown) => (params.push(v), `$${params.length}`);
    let assignments = set.sql;
    const unchanged = Object.keys(diff.set).map((column) => {
      // Dates travel as JS dates (milliseconds); compare at that precision.
      const stored = column.endsWith('_date') ? `date_trunc('milliseconds', ${column})` : column;
      return `${stored} IS NOT DISTINCT FROM ${param(cur[column as keyof TaskRow])}`;
    });
    if (diff.set.status !== undefined) {
      const project = `${param(cur.project_id)}::uuid`;
      const status = `${param(diff.set.status)}::text`;
      // The status was checked against the columns of the project the task was in when read.
      unchanged.push(
        `project_id = ${project}`,
        `(${status} IN (${VIRTUAL_SQL}) OR EXISTS (SELECT 1 FROM board_column c WHERE c.project_id = ${project} AND c.slug = ${status} FOR KEY SHARE))`,
      );
      // A task that changes column goes to its end unless the request places it.
      if (diff.set.position === undefined) assignments += `, position = ${endOfColumn(project, status)}`;
    }
    const historySql = diff.activities.length
      ? `, history AS (${history(this.draftsSource(diff.activities, param), `${param(actorId)}::uuid`)}), events AS (${taskEventsSql('history', 'changed')})`
      : '';
    // The text depends only on which fields change (values are parameters): a few shapes, each
    // prepared once per connection, up to UPDATE_SHAPES of them.
    const text = `WITH changed AS (
         UPDATE task SET ${assignments}, updated_at = now()
          WHERE id = $1 AND workspace_id = $2 AND ${unchanged.join(' AND ')}
         RETURNING ${TASK_FIELDS}
       )${historySql}
       SELECT * FROM changed`;
    const name = this.updateShapes.nameFor(text);
    const [row] = name ? await preparedRows<TaskRow>(m, name, text, params) : await rows<TaskRow>(m, text, params);
    // Only history rows with an event kind write events (an assignee or date change may not).
    return diff.activities.some((a) => Object.hasOwn(EVENT_KIND_OF_HISTORY, a.type)) ? this.written(row, m) : row;
  }

  /** The order of one column's tasks (REORDER_SQL): the first listed task not in it (nothing written), and how many positions changed. */
  async reorder(workspaceId: string, projectId: string, status: string, taskIds: string[]): Promise<{ missing: string | null; moved: number }> {
    const [row] = await preparedRows<{ missing: string | null; moved: number }>(this.ds.manager, 'task_reorder', REORDER_SQL, [projectId, workspaceId, status, taskIds]);
    return row;
  }

  /**
   * Moves a task to another project of its workspace (MOVE_SQL); undefined when refused. Inside a
   * caller's transaction (a bulk move) the destination's counter row stays locked until it ends, so
   * it is not gated, as for a create.
   */
  async move(
    workspaceId: string,
    taskId: string,
    destinationProjectId: string,
    requestedStatus: string | null,
    actorId: string,
    m: EntityManager = this.ds.manager,
  ): Promise<MovedTaskRow | undefined> {
    const run = () => preparedRows<MovedTaskRow>(m, 'task_move', MOVE_SQL, [taskId, workspaceId, destinationProjectId, requestedStatus, actorId]);
    const [row] = m.queryRunner?.isTransactionActive ? await run() : await this.claims.run(destinationProjectId, run);
    // A move writes its `moved` event (and a status change's when the status changes).
    return this.written(row, m);
  }

  /**
   * A comment (a history row of type `comment`); undefined when the task is gone. A comment copied
   * from outside has no actor and names its `external` author.
   */
  async comment(
    workspaceId: string,
    taskId: string,
    actorId: string | null,
    content: string,
    external: ExternalAuthor | null = null,
    m: EntityManager = this.ds.manager,
  ): Promise<ActivityRow | undefined> {
    const [row] = await preparedRows<ActivityRow>(m, 'task_comment', COMMENT_SQL, [
      taskId,
      workspaceId,
      actorId,
      content,
      external?.userName ?? null,
      external?.userAvatar ?? null,
      external?.source ?? null,
      external?.url ?? null,
    ]);
    return this.written(row, m);
  }

  /** Edits the author's own comment (EDIT_COMMENT_SQL); undefined when it is not a comment of `authorId` in the workspace. */
  async editComment(workspaceId: string, authorId: string, id: string, content: string): Promise<ActivityRow | undefined> {
    const [row] = await preparedRows<ActivityRow & { text_changed: boolean }>(this.ds.manager, 'comment_edit', EDIT_COMMENT_SQL, [id, workspaceId, authorId, content]);
    if (!row) return undefined;
    const { text_changed: changed, ...comment } = row;
    if (changed) this.outbox.afterCommit(this.ds.manager);
    return comment;
  }

  /** History rows of `drafts` for each row of CTE `changed` (no row changed, no history). */
  private draftsSource(drafts: ActivityDraft[], param: (v: unknown) => string): string {
    const types = param(drafts.map((d) => d.type));
    const contents = param(drafts.map((d) => d.content));
    const data = param(drafts.map((d) => JSON.stringify(d.eventData)));
    return `SELECT s.workspace_id, s.id AS task_id, d.ord, d.type, d.content, d.event_data, ${NO_EXTERNAL}
              FROM changed s, unnest(${types}::text[], ${contents}::text[], ${data}::jsonb[]) WITH ORDINALITY AS d(type, content, event_data, ord)`;
  }
}
