import { ACTIVITY_FIELDS } from './activity.record';

/** The four external_* columns of a history row written by the service itself (nobody from outside). */
export const NO_EXTERNAL = 'NULL::text AS external_user_name, NULL::text AS external_user_avatar, NULL::text AS external_source, NULL::text AS external_url';

/**
 * `INSERT INTO activity` of the history rows that `source` selects, by `actorSql`, in `ord` order
 * with the clock time of each row (so several entries of one change keep their order).
 * `source` yields workspace_id, task_id, ord, type, content, event_data and the four external_*
 * columns. Every change of a task writes its history through this, as a CTE of the statement that
 * makes the change (the task write path, and the label, relation, comment and time entry
 * statements), so a change and its history commit together and a refused change writes none.
 */
export function historySql(source: string, actorSql: string): string {
  return `INSERT INTO activity (workspace_id, task_id, user_id, type, content, event_data,
                                external_user_name, external_user_avatar, external_source, external_url, created_at, updated_at)
    SELECT h.workspace_id, h.task_id, ${actorSql}, h.type, h.content, h.event_data,
           h.external_user_name, h.external_user_avatar, h.external_source, h.external_url, clock_timestamp(), clock_timestamp()
      FROM (${source}) h
     ORDER BY h.ord
    RETURNING ${ACTIVITY_FIELDS}`;
}

/**
 * One history row per row of CTE `from` (its `workspace_id` and `task_id` columns): type `type`,
 * content and event data given as SQL expressions over the CTE's columns (alias `x`).
 */
export const historyOf = (from: string, type: string, contentSql: string, eventDataSql: string, actorSql: string): string =>
  historySql(
    `SELECT x.workspace_id, x.task_id, 1 AS ord, '${type}'::text AS type, ${contentSql} AS content, ${eventDataSql} AS event_data, ${NO_EXTERNAL} FROM ${from} x`,
    actorSql,
  );
