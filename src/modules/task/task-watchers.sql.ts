/**
 * Everyone who watches the task `taskIdSql` (a SQL expression; docs/notifications.md, "Watchers"),
 * as rows of (user_id, reasons): its creator and its assignee (the task's columns) and the
 * `task_watcher` rows that watch, minus whoever unwatched (a row with `watching` false overrides
 * every other reason). The watcher list and the reminder scan read the same set through this.
 */
export const watchingSql = (taskIdSql: string): string => `
  SELECT x.user_id, array_agg(DISTINCT x.reason ORDER BY x.reason) AS reasons FROM (
    SELECT wt.created_by_id AS user_id, 'creator' AS reason FROM task wt WHERE wt.id = ${taskIdSql} AND wt.created_by_id IS NOT NULL
    UNION ALL SELECT wt.user_id, 'assignee' FROM task wt WHERE wt.id = ${taskIdSql} AND wt.user_id IS NOT NULL
    UNION ALL SELECT w.user_id, w.reason FROM task_watcher w WHERE w.task_id = ${taskIdSql} AND w.watching
  ) x
  WHERE NOT EXISTS (SELECT 1 FROM task_watcher n WHERE n.task_id = ${taskIdSql} AND n.user_id = x.user_id AND NOT n.watching)
  GROUP BY x.user_id`;
