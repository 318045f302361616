import { Injectable, Logger } from '@nestjs/common';
import { SearchRepository, StatsColumn } from './search.repository';
import type { Path, Variant } from './search.sql';

type Column = StatsColumn;

const lower = (values: string[] | null) => (values ?? []).map((v) => v.toLowerCase());

/** One column's statistics; its values are lower-cased once when loaded. */
interface Sample {
  /** Histogram bounds: an even sample of the values that are neither null nor most common. */
  values: string[];
  /** Frequencies of the most common values, matching `mcv`, as shares of all rows. */
  mcv: string[];
  mcvFreq: number[];
  /** Share of rows where the column is null (no text, or for comment/activity content: the other kind). */
  nullFrac: number;
}

/** Without row counts (never analysed), matches at or above this share make the walk the choice. */
const COMMON_SHARE = 0.03;
/**
 * How many times fewer rows a newest-first walk across everyone's rows must be expected to look
 * at than the trigram bitmap before it is chosen. The walk's estimate assumes matches are spread
 * evenly over time; when they are not, it looks at more, without bound, while the bitmap's cost
 * is what the index says. A walk within one project is bounded by that project, so it needs no
 * margin.
 */
const WALK_MARGIN = 2;
const REFRESH_MS = 5 * 60_000;
const CHOSEN_MAX = 1000;

/** Row counts behind each searched column, from the planner's statistics (pg_class, pg_stats). */
interface Sizes {
  /** Rows of the table whose statistics describe the column (shares are of these rows). */
  table: Record<Column, number>;
  /** Rows a newest-first walk steps through: task text, or the activities of the column's kind. */
  walked: Record<Column, number>;
  projects: number;
}

export interface VariantOptions {
  /** Rows wanted per section (the request's limit). */
  limit?: number;
  /** The search is narrowed to one project. */
  projectScoped?: boolean;
}

/**
 * Chooses the search access path per column the way the planner would, from the same statistics
 * (pg_stats histogram and most-common values, pg_class row counts), but in microseconds and
 * without planning: see Variant in search.sql.ts. Each path's cost is counted in rows looked at,
 * which cost about the same per row on either path (measured at 100,000 tasks: 0.9–1.8 µs per
 * title or description on the walk, 1.1–2 µs on the bitmap's recheck):
 * - the trigram bitmap looks at every match: share × rows;
 * - the walk newest-first looks at rows until `limit` matches: limit / share;
 * - within one project, the walk through that project's tasks stops at `limit` matches or at the
 *   project's end: min(limit / share, rows / projects), and activities are read for every task
 *   of the project (rows / projects); the bitmap then also looks up each match's task to test
 *   its project, which counts it twice.
 * So the share where the walk wins falls as the tables grow: a word in 3 % of 100,000
 * descriptions costs the bitmap 3,000 rows (6 ms) and the walk ~670 (1.1 ms).
 */
@Injectable()
export class SearchStatsService {
  private readonly log = new Logger(SearchStatsService.name);
  private samples = new Map<Column, Sample>();
  private sizes: Sizes | null = null;
  /** Variants chosen since the statistics were last loaded, oldest first. */
  private readonly chosen = new Map<string, Variant>();
  private loadedAt = 0;
  private loading: Promise<void> | null = null;

  constructor(private readonly repository: SearchRepository) {}

  async variant(q: string, options: VariantOptions = {}): Promise<Variant> {
    if (Date.now() - this.loadedAt > REFRESH_MS) {
      // The first search waits for the statistics; later refreshes happen in the background.
      const pending = this.refresh();
      if (!this.loadedAt) await pending;
    }
    const limit = Math.max(1, options.limit ?? 20);
    const scoped = !!options.projectScoped;
    // Testing a word against 1,000 sampled values per column costs ~0.3 ms; repeated words are answered from memory.
    const key = `${limit}|${scoped ? 1 : 0}|${q}`;
    const known = this.chosen.get(key);
    if (known) return known;
    const path = (c: Column): Path => this.path(c, this.share(c, q), limit, scoped);
    const v: Variant = {
      taskTitle: path('task.title'),
      taskDescription: path('task.description'),
      commentContent: path('comment.content'),
      activityContent: path('activity.content'),
      ...(scoped ? { projectScoped: true } : {}),
    };
    if (this.chosen.size >= CHOSEN_MAX) this.chosen.delete(this.chosen.keys().next().value as string);
    this.chosen.set(key, v);
    return v;
  }

  /** The cheaper path for a column whose matches are `share` of its table's rows (see the class comment). */
  private path(column: Column, share: number, limit: number, scoped: boolean): Path {
    const walk: Path = scoped ? 'project' : 'common';
    const table = this.sizes?.table[column] ?? 0;
    const walked = this.sizes?.walked[column] ?? 0;
    if (!(table > 0 && walked > 0)) return share >= COMMON_SHARE ? walk : 'rare';
    const matches = share * table;
    if (matches <= 0) return 'rare';
    const walkRows = (limit * walked) / matches;
    if (!scoped) return walkRows * WALK_MARGIN < matches ? walk : 'rare';
    const perProject = walked / Math.max(1, this.sizes?.projects ?? 1);
    const projectWalk = column.startsWith('task.') ? Math.min(walkRows, perProject) : perProject;
    return projectWalk < matches * 2 ? walk : 'rare';
  }

  /** Estimated share of all rows whose column contains q (case-insensitive). 0 when unknown. */
  share(column: Column, q: string): number {
    const s = this.samples.get(column);
    if (!s) return 0;
    const needle = q.toLowerCase();
    let mcvShare = 0;
    let mcvTotal = 0;
    s.mcv.forEach((v, i) => {
      mcvTotal += s.mcvFreq[i];
      if (v.includes(needle)) mcvShare += s.mcvFreq[i];
    });
    // Too few histogram entries say little: the planner also ignores histograms under 100 entries.
    if (s.values.length < 100) return mcvShare;
    const hits = s.values.reduce((n, v) => n + (v.includes(needle) ? 1 : 0), 0);
    return mcvShare + Math.max(0, 1 - s.nullFrac - mcvTotal) * (hits / s.values.length);
  }

  /** Reloads the statistics now (also done by itself every few minutes). */
  refresh(): Promise<void> {
    if (!this.loading) {
      this.loading = this.load()
        .catch((err) => this.log.warn(`search statistics unavailable: ${err?.message ?? err}`))
        .finally(() => {
          this.loadedAt = Date.now();
          this.loading = null;
        });
    }
    return this.loading;
  }

  private async load(): Promise<void> {
    const [rows, sizes] = await Promise.all([this.repository.columnStatistics(), this.repository.tableSizes()]);
    const next = new Map<Column, Sample>();
    for (const r of rows) {
      next.set(r.col, { values: lower(r.hist), mcv: lower(r.mcv), mcvFreq: (r.freq ?? []).map(Number), nullFrac: Number(r.null_frac ?? 0) });
    }
    this.samples = next;
    this.chosen.clear();
    // Comments and other activities share one table; the comment statistics count every other
    // activity as null.
    const comments = sizes.activities * (1 - (next.get('comment.content')?.nullFrac ?? 0));
    this.sizes = {
      table: { 'task.title': sizes.tasks, 'task.description': sizes.tasks, 'comment.content': sizes.activities, 'activity.content': sizes.activities },
      walked: { 'task.title': sizes.tasks, 'task.description': sizes.tasks, 'comment.content': comments, 'activity.content': sizes.activities - comments },
      projects: sizes.projects,
    };
  }
}
