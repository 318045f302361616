import { Injectable, Logger } from '@nestjs/common';
import { SearchRepository, StatsColumn } from './search.repository';
import type { Variant } from './search.sql';

type Column = StatsColumn;

interface Sample {
  /** Histogram bounds: an even sample of the values that are neither null nor most common. */
  values: string[];
  /** Frequencies of the most common values, matching `mcv`, as shares of all rows. */
  mcv: string[];
  mcvFreq: number[];
  /** Share of rows where the column is null (no text, or for comment/activity content: the other kind). */
  nullFrac: number;
}

/** Matches at or above this share of rows make a newest-first index walk cheaper than the trigram bitmap. */
const COMMON_SHARE = 0.03;
const REFRESH_MS = 5 * 60_000;

/**
 * Chooses the search access path per column the way the planner would, from the same column
 * statistics (pg_stats histogram and most-common values), but in microseconds and without
 * planning: see Variant in search.sql.ts.
 */
@Injectable()
export class SearchStatsService {
  private readonly log = new Logger(SearchStatsService.name);
  private samples = new Map<Column, Sample>();
  private loadedAt = 0;
  private loading: Promise<void> | null = null;

  constructor(private readonly repository: SearchRepository) {}

  async variant(q: string): Promise<Variant> {
    if (Date.now() - this.loadedAt > REFRESH_MS) {
      // The first search waits for the statistics; later refreshes happen in the background.
      const pending = this.refresh();
      if (!this.loadedAt) await pending;
    }
    const path = (c: Column) => (this.share(c, q) >= COMMON_SHARE ? 'common' : 'rare');
    return {
      taskTitle: path('task.title'),
      taskDescription: path('task.description'),
      commentContent: path('comment.content'),
      activityContent: path('activity.content'),
    };
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
      if (v.toLowerCase().includes(needle)) mcvShare += s.mcvFreq[i];
    });
    // Too few histogram entries say little: the planner also ignores histograms under 100 entries.
    if (s.values.length < 100) return mcvShare;
    const hits = s.values.reduce((n, v) => n + (v.toLowerCase().includes(needle) ? 1 : 0), 0);
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
    const rows = await this.repository.columnStatistics();
    const next = new Map<Column, Sample>();
    for (const r of rows) {
      next.set(r.col, { values: r.hist ?? [], mcv: r.mcv ?? [], mcvFreq: (r.freq ?? []).map(Number), nullFrac: Number(r.null_frac ?? 0) });
    }
    this.samples = next;
  }
}
