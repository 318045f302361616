import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { preparedRows, rows } from '../../database/sql';
import type { SearchResult } from './search.record';

/** The column a search statistic describes (see SearchStatsService). */
export type StatsColumn = 'task.title' | 'task.description' | 'comment.content' | 'activity.content';

export interface TableSizes {
  tasks: number;
  activities: number;
  projects: number;
}

export interface ColumnStatistics {
  col: StatsColumn;
  hist: string[] | null;
  mcv: string[] | null;
  freq: number[] | null;
  null_frac: number | null;
}

/**
 * Search's read model: one statement over tasks (their `task_text`), projects, workspaces and
 * activities of the caller's workspaces (built by search.sql.ts), and the column statistics that
 * choose its access paths. Search only reads; every module's own tables are written by that module.
 */
@Injectable()
export class SearchRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Runs a search statement as a named prepared statement: Postgres plans each variant once per connection. */
  async search(statement: { name: string; text: string }, params: unknown[]): Promise<Partial<SearchResult>> {
    const [row] = await preparedRows(this.ds, statement.name, statement.text, params);
    return row;
  }

  /**
   * Row counts as the planner knows them (pg_class.reltuples, kept by ANALYZE and VACUUM): the
   * searched text of tasks, all activities, and projects. -1 or 0 where never analysed.
   */
  async tableSizes(): Promise<TableSizes> {
    const [row] = await rows<Record<keyof TableSizes, string | number | null>>(
      this.ds.manager,
      `SELECT (SELECT reltuples FROM pg_class WHERE oid = 'task_text'::regclass) AS tasks,
              (SELECT reltuples FROM pg_class WHERE oid = 'activity'::regclass) AS activities,
              (SELECT reltuples FROM pg_class WHERE oid = 'project'::regclass) AS projects`,
    );
    return { tasks: Number(row?.tasks ?? -1), activities: Number(row?.activities ?? -1), projects: Number(row?.projects ?? -1) };
  }

  /**
   * Histograms and most common values of the searched text: the task text columns' own
   * statistics, and for activity content the expression statistics that split comments from
   * other activities (migration SearchByActivityKind).
   */
  columnStatistics(): Promise<ColumnStatistics[]> {
    return rows<ColumnStatistics>(
      this.ds.manager,
      `SELECT 'task.' || attname AS col, histogram_bounds::text::text[] AS hist,
              most_common_vals::text::text[] AS mcv, most_common_freqs AS freq, null_frac
         FROM pg_stats
        WHERE schemaname = current_schema() AND tablename = 'task_text' AND attname IN ('title', 'description')
       UNION ALL
       SELECT CASE statistics_name WHEN 'activity_comment_content_stats' THEN 'comment.content' ELSE 'activity.content' END,
              histogram_bounds::text::text[], most_common_vals::text::text[], most_common_freqs, null_frac
         FROM pg_stats_ext_exprs
        WHERE statistics_schemaname = current_schema()
          AND statistics_name IN ('activity_comment_content_stats', 'activity_other_content_stats')`,
    );
  }
}
