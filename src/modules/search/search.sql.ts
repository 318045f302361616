/**
 * SQL for global search (docs/decisions-local.md, "Search"), built as ONE statement so a search costs one round trip
 * whatever its type. Each section is a CTE the planner optimises on its own; each section's
 * matching conditions are plain ILIKE on columns with pg_trgm GIN indexes, so a selective `q`
 * is answered from the indexes, never by scanning every task. Task text is searched in
 * `task_text` (kept in step with `task` by triggers, see the TaskSearchText migration).
 *
 * Parameters: $1 user id, $2 ILIKE pattern, $3 limit, $4 workspace filter (uuid or null),
 * $5 project filter (uuid or null), $6 task-key slug (or null), $7 task-key number (or null).
 */
import type { SearchType } from './dto/search-query.dto';

export type Section = Exclude<SearchType, 'all'>;

const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const TASK_JSON = (t: string) => `json_build_object(
  'id', ${t}.id, 'projectId', ${t}.project_id, 'position', ${t}.position, 'number', ${t}.number,
  'userId', ${t}.user_id, 'title', ${t}.title, 'description', ${t}.description, 'status', ${t}.status,
  'priority', ${t}.priority, 'createdAt', ${iso(`${t}.created_at`)},
  'startDate', ${iso(`${t}.start_date`)}, 'dueDate', ${iso(`${t}.due_date`)})`;

const PROJECT_JSON = (p: string) => `json_build_object(
  'id', ${p}.id, 'workspaceId', ${p}.workspace_id, 'slug', ${p}.slug, 'icon', ${p}.icon, 'name', ${p}.name,
  'description', ${p}.description, 'createdAt', ${iso(`${p}.created_at`)}, 'isPublic', ${p}.is_public,
  'archivedAt', ${iso(`${p}.archived_at`)}, 'position', ${p}.position)`;

const WORKSPACE_JSON = (w: string) => `json_build_object(
  'id', ${w}.id, 'name', ${w}.name, 'slug', ${w}.slug, 'logo', ${w}.logo, 'metadata', ${w}.metadata,
  'description', ${w}.description, 'createdAt', ${iso(`${w}.created_at`)})`;

const ACTIVITY_JSON = (a: string) => `json_build_object(
  'id', ${a}.id, 'taskId', ${a}.task_id, 'type', ${a}.type, 'createdAt', ${iso(`${a}.created_at`)},
  'userId', ${a}.user_id, 'content', ${a}.content, 'eventData', ${a}.event_data,
  'externalUserName', ${a}.external_user_name, 'externalUserAvatar', ${a}.external_user_avatar,
  'externalSource', ${a}.external_source, 'externalUrl', ${a}.external_url)`;

// Workspaces in scope: the caller's, optionally narrowed to one. An array InitPlan rather than
// a semi-join: `workspace_id = ANY(<array>)` keeps planning cheap (measured 6.7 ms → 0.3 ms per
// search) and lets the planner walk the created_at index for common words.
const SCOPE = `ARRAY(SELECT organization_id FROM member WHERE user_id = $1 AND ($4::uuid IS NULL OR organization_id = $4::uuid))`;
const inScope = (col: string) => `${col} = ANY(${SCOPE})`;

const projectFilter = (col: string) => `($5::uuid IS NULL OR ${col} = $5::uuid)`;

/**
 * Which access path each searched column should take. `rare`: the trigram index (bitmap scan,
 * then sort the matches). `common`: walk the created_at index newest-first and filter, which
 * stops after `limit` matches. `project` (the walk, with a projectId filter): walk that
 * project's tasks newest-first (or their activities), so the walk is bounded by the project
 * instead of crossing every newer match of other projects. The choice is made by the caller from
 * column statistics (see SearchStatsService), so the statement can be prepared once per variant
 * and run from a cached generic plan: planning a five-section statement costs more than running
 * it (measured 2.4 ms planning vs 1.2 ms execution at 100k tasks).
 */
export type Path = 'rare' | 'common' | 'project';
export interface Variant {
  taskTitle: Path;
  taskDescription: Path;
  /** Content of comments (activities of type comment). */
  commentContent: Path;
  /** Content of the other activities. */
  activityContent: Path;
  /** A projectId filter is given ($5 not null). */
  projectScoped?: boolean;
}

// `(col || '')` hides the column from the trigram index, steering the plan to a walk.
const match = (col: string, path: Path) => (path === 'rare' ? `${col} ILIKE $2` : `(${col} || '') ILIKE $2`);

/**
 * task_text rows (aliased x) in scope that match `cond`. For a rare word the subquery is fenced
 * (OFFSET 0) so it is answered from the trigram index: otherwise the join to task and the
 * ORDER BY … LIMIT lead the generic plan to walk the created_at index (measured 140 ms instead
 * of 1 ms at 100k tasks). For a common word that walk is the plan wanted, so there is no fence.
 */
const taskText = (cond: string, path: Path) => `(SELECT x.* FROM task_text x WHERE ${cond} AND ${inScope('x.workspace_id')}${path === 'rare' ? ' OFFSET 0' : ''}) x`;

/**
 * Tasks whose text matches `cond` (given the alias of the table whose title and description it
 * tests), newest first, at most $3, with `extra` columns. Without a project filter the newest
 * matches are picked from task_text alone and only those are joined to task (a word in 1,600
 * titles: 7 ms → about 2 ms). The walk within a project reads the text from task itself (task_text
 * is its copy, kept by triggers in the same transaction): the walk fetches each task row anyway,
 * so a join to task_text per row was most of its cost (a word in 1.75 % of titles, project of
 * 2,000 tasks: 10.4 ms → 1.4 ms).
 */
const taskHits = (cond: (alias: string) => string, path: Path, extra: string, projectScoped: boolean) => {
  if (path === 'project') {
    return `SELECT ${extra} FROM task t
     WHERE t.project_id = $5::uuid AND ${cond('t')} AND ${inScope('t.workspace_id')}
     ORDER BY t.created_at DESC LIMIT $3`;
  }
  if (!projectScoped) {
    return `SELECT ${extra} FROM (SELECT x.task_id, x.created_at FROM ${taskText(cond('x'), path)} ORDER BY x.created_at DESC LIMIT $3) x
      JOIN task t ON t.id = x.task_id`;
  }
  return `SELECT ${extra} FROM ${taskText(cond('x'), path)} JOIN task t ON t.id = x.task_id
     WHERE ${projectFilter('t.project_id')}
     ORDER BY x.created_at DESC LIMIT $3`;
};

/**
 * For a rare word, the matching rows are looked up apart from the ORDER BY … LIMIT (fenced with
 * OFFSET 0), so the generic plan takes the trigram index: otherwise it may walk the kind's
 * created_at index newest first and test every activity (measured 160 ms instead of 3 ms for a
 * type-all search at 100k tasks). For a common word that walk is the plan wanted.
 */
const fenceIfRare = (query: string, path: Path) => `(${query}${path === 'rare' ? ' OFFSET 0' : ''})`;

/** Activities (a) of the wanted kind whose content matches, newest first, at most $3. */
const activityHits = (kind: string, path: Path, extra = 'a.*') =>
  path === 'project'
    ? // LATERAL per task: a plain join let the generic plan walk every activity newest-first and
      // look up each one's task (measured 224 ms for a project of 2,000 tasks; this way ~5 ms).
      `SELECT ${extra} FROM (SELECT id FROM task WHERE project_id = $5::uuid AND ${inScope('workspace_id')} OFFSET 0) t
     CROSS JOIN LATERAL (
       SELECT * FROM activity a WHERE a.task_id = t.id AND ${kind} AND ${match('a.content', path)}
        ORDER BY a.created_at DESC LIMIT $3) a
     ORDER BY a.created_at DESC LIMIT $3`
    : `SELECT ${extra} FROM ${fenceIfRare(
        `SELECT a.* FROM activity a
     WHERE ${kind} AND ${match('a.content', path)} AND ${inScope('a.workspace_id')}
       AND ($5::uuid IS NULL OR a.task_id IN (SELECT id FROM task WHERE project_id = $5::uuid))`,
        path,
      )} a
     ORDER BY a.created_at DESC LIMIT $3`;

/* Ranking: title/name matches before description matches, then newest. */
const SECTIONS: Record<Section, (v: Variant, sections: readonly Section[]) => string> = {
  tasks: (v) => `
  key_hit AS (
    (SELECT t.*, 0 AS rank FROM task t JOIN project p ON p.id = t.project_id
      WHERE $6::text IS NOT NULL AND lower(p.slug) = lower($6::text) AND t.number = $7::int
        AND ${inScope('t.workspace_id')} AND ${projectFilter('t.project_id')}
      ORDER BY t.created_at DESC LIMIT $3)
    UNION ALL
    -- A moved task's old key, unless a task of that project holds that number now (docs/decisions-local.md, "Work items", keys of moved tasks).
    (SELECT t.*, 0 AS rank FROM task_former_key f JOIN project p ON p.id = f.project_id JOIN task t ON t.id = f.task_id
      WHERE $6::text IS NOT NULL AND lower(p.slug) = lower($6::text) AND f.number = $7::int
        AND ${inScope('f.workspace_id')} AND t.workspace_id = f.workspace_id AND ${projectFilter('t.project_id')}
        AND NOT EXISTS (SELECT 1 FROM task n WHERE n.project_id = f.project_id AND n.number = f.number)
      ORDER BY t.created_at DESC LIMIT $3)),
  title_hits AS (
    ${taskHits((a) => match(`${a}.title`, v.taskTitle), v.taskTitle, 't.*, 1 AS rank', !!v.projectScoped)}),
  description_hits AS (
    ${taskHits((a) => `${match(`${a}.description`, v.taskDescription)} AND NOT (${a}.title ILIKE $2)`, v.taskDescription, 't.*, 2 AS rank', !!v.projectScoped)}),
  tasks_found AS (
    SELECT DISTINCT ON (id) * FROM (
      SELECT * FROM key_hit UNION ALL SELECT * FROM title_hits UNION ALL SELECT * FROM description_hits) u
     ORDER BY id, rank),
  tasks AS (SELECT * FROM tasks_found ORDER BY rank, created_at DESC, id LIMIT $3)`,
  projects: () => `
  projects AS (
    SELECT p.*, CASE WHEN p.name ILIKE $2 THEN 1 ELSE 2 END AS rank FROM project p
     WHERE (p.name ILIKE $2 OR p.description ILIKE $2)
       AND ${inScope('p.workspace_id')} AND ${projectFilter('p.id')}
     ORDER BY rank, p.created_at DESC, p.id LIMIT $3)`,
  workspaces: () => `
  workspaces AS (
    SELECT w.*, CASE WHEN w.name ILIKE $2 THEN 1 ELSE 2 END AS rank FROM workspace w
     WHERE (w.name ILIKE $2 OR w.description ILIKE $2) AND ${inScope('w.id')}
       AND $5::uuid IS NULL
     ORDER BY rank, w.created_at DESC, w.id LIMIT $3)`,
  comments: (v) => `
  comments AS (
    ${activityHits(`a.type = 'comment'`, v.commentContent)})`,
  // With the tasks section earlier in the same statement, the tasks whose title matches are its
  // title_hits (the same rows): found once, not twice.
  activities: (v, sections) => `
  activity_content_hits AS (
    ${activityHits(`a.type <> 'comment'`, v.activityContent, 'a.*, 1 AS rank')}),
  activity_task_hits AS (
    SELECT a.*, 2 AS rank FROM activity a
      JOIN (${
        sections.indexOf('tasks') !== -1 && sections.indexOf('tasks') < sections.indexOf('activities')
          ? 'SELECT id FROM title_hits'
          : taskHits((a) => match(`${a}.title`, v.taskTitle), v.taskTitle, 't.id', !!v.projectScoped)
      }) mt ON mt.id = a.task_id
     WHERE a.type <> 'comment'
     ORDER BY a.created_at DESC LIMIT $3),
  activities AS (
    SELECT DISTINCT ON (id) * FROM (SELECT * FROM activity_content_hits UNION ALL SELECT * FROM activity_task_hits) u
     ORDER BY id, rank),
  activities_ranked AS (SELECT * FROM activities ORDER BY rank, created_at DESC, id LIMIT $3)`,
};

const OUTPUT: Record<Section, string> = {
  tasks: `(SELECT coalesce(json_agg(${TASK_JSON('x')} ORDER BY x.rank, x.created_at DESC, x.id), '[]') FROM tasks x)`,
  projects: `(SELECT coalesce(json_agg(${PROJECT_JSON('x')} ORDER BY x.rank, x.created_at DESC, x.id), '[]') FROM projects x)`,
  workspaces: `(SELECT coalesce(json_agg(${WORKSPACE_JSON('x')} ORDER BY x.rank, x.created_at DESC, x.id), '[]') FROM workspaces x)`,
  comments: `(SELECT coalesce(json_agg(${ACTIVITY_JSON('x')} ORDER BY x.created_at DESC, x.id), '[]') FROM comments x)`,
  activities: `(SELECT coalesce(json_agg(${ACTIVITY_JSON('x')} ORDER BY x.rank, x.created_at DESC, x.id), '[]') FROM activities_ranked x)`,
};

export const RARE: Variant = { taskTitle: 'rare', taskDescription: 'rare', commentContent: 'rare', activityContent: 'rare' };

const cache = new Map<string, { name: string; text: string }>();

/**
 * The statement for a set of sections and access paths; each column holds a JSON array.
 * `name` identifies it for server-side prepared statements (one per distinct text).
 */
export function searchSql(sections: readonly Section[], variant: Variant = RARE): { name: string; text: string } {
  const key = `${sections.join(',')}|${variant.taskTitle},${variant.taskDescription},${variant.commentContent},${variant.activityContent},${!!variant.projectScoped}`;
  let stmt = cache.get(key);
  if (!stmt) {
    const ctes = sections.map((s) => SECTIONS[s](variant, sections)).join(',\n');
    const cols = sections.map((s) => `${OUTPUT[s]} AS ${s}`).join(',\n  ');
    stmt = { name: `search_${cache.size + 1}`, text: `WITH ${ctes}\nSELECT ${cols}` };
    cache.set(key, stmt);
  }
  return stmt;
}

/** `%`, `_` and `\` in the user's text are literal (the default ILIKE escape is `\`). */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `KEY-12` → {slug: 'KEY', number: 12}; a key is up to 64 letters (any script), digits, `-`, `_`. */
export function parseTaskKey(q: string): { slug: string; number: number } | null {
  const m = /^\s*([\p{L}\p{N}][\p{L}\p{M}\p{N}_-]{0,63})-(\d{1,9})\s*$/u.exec(q.normalize('NFC'));
  if (!m) return null;
  const n = Number(m[2]);
  return n >= 1 && n <= 2_147_483_647 ? { slug: m[1], number: n } : null;
}
