import { ColumnStatistics, SearchRepository, StatsColumn, TableSizes } from './search.repository';
import { SearchStatsService } from './search-stats.service';

/** A histogram of 1,000 values of which `hits` contain `word`. */
function histogram(word: string, hits: number): string[] {
  return Array.from({ length: 1000 }, (_, i) => (i < hits ? `text with ${word} ${i}` : `plain text ${i}`));
}

/** Statistics as Postgres would give them: per column a histogram (no common values) and a null share. */
class Statistics {
  columns: ColumnStatistics[] = [];
  sizes: TableSizes = { tasks: 100_000, activities: 150_000, projects: 50 };

  set(col: StatsColumn, word: string, hits: number, nullFrac = 0): this {
    this.columns = this.columns.filter((c) => c.col !== col);
    this.columns.push({ col, hist: histogram(word, hits), mcv: null, freq: null, null_frac: nullFrac });
    return this;
  }

  service(): SearchStatsService {
    const repository = { columnStatistics: async () => this.columns, tableSizes: async () => this.sizes };
    return new SearchStatsService(repository as unknown as SearchRepository);
  }
}

describe('SearchStatsService: the access path per column', () => {
  it('walks newest first only when that looks at fewer rows than the trigram bitmap, by a margin', async () => {
    const stats = new Statistics().set('task.title', 'walrus', 30).set('task.description', 'walrus', 5);
    const service = stats.service();
    // 3 % of 100,000 titles: bitmap 3,000 rows, walk ~667 (x2 margin) → walk.
    // 0.5 % of descriptions: bitmap 500 rows, walk 4,000 → bitmap.
    expect(await service.variant('walrus')).toMatchObject({ taskTitle: 'common', taskDescription: 'rare' });
    // A larger page needs a longer walk: 3 % and 100 rows wanted → walk 3,333 (x2) > 3,000.
    expect((await service.variant('walrus', { limit: 100 })).taskTitle).toBe('rare');
  });

  it('the share where the walk wins falls as the table grows', async () => {
    const stats = new Statistics().set('task.title', 'walrus', 10);
    stats.sizes = { tasks: 1_000, activities: 0, projects: 1 };
    expect((await stats.service().variant('walrus')).taskTitle).toBe('rare');
    stats.sizes = { tasks: 1_000_000, activities: 0, projects: 1 };
    expect((await stats.service().variant('walrus')).taskTitle).toBe('common');
  });

  it('within one project, the walk is bounded by the project and is taken unless the word is rare', async () => {
    const stats = new Statistics().set('task.title', 'numbat', 12).set('task.description', 'numbat', 1);
    const v = await stats.service().variant('numbat', { projectScoped: true });
    // 1.2 %: the project walk stops after ~1,667 of its 2,000 tasks; the bitmap reads 1,200 matches
    // and looks up each one's task (counted twice). 0.1 %: the walk reads the whole project, the
    // bitmap 100 rows.
    expect(v).toMatchObject({ taskTitle: 'project', taskDescription: 'rare', projectScoped: true });
    // Across every project the same 1.2 % is not worth a walk: ~1,667 rows (x2) against 1,200.
    expect((await stats.service().variant('numbat')).taskTitle).toBe('rare');
  });

  it('counts comments among all activities: the share of the statistics is of the whole table', async () => {
    // 150,000 activities, 60 % of them not comments (null in the comment statistics).
    const stats = new Statistics().set('comment.content', 'quoll', 25, 0.6).set('activity.content', 'quoll', 0, 0.4);
    // 1 % of all activities = 1,500 comments in 60,000: walk 800 (x2 = 1,600) > bitmap 1,500.
    expect((await stats.service().variant('quoll')).commentContent).toBe('rare');
    stats.set('comment.content', 'quoll', 100, 0.6);
    // 4 %: 6,000 matches, walk 200.
    expect((await stats.service().variant('quoll')).commentContent).toBe('common');
  });

  it('without row counts (never analysed) a word in at least 3 % of the sample is walked', async () => {
    const stats = new Statistics().set('task.title', 'wombat', 30).set('task.description', 'wombat', 29);
    stats.sizes = { tasks: -1, activities: -1, projects: -1 };
    expect(await stats.service().variant('wombat')).toMatchObject({ taskTitle: 'common', taskDescription: 'rare' });
  });

  it('answers a repeated word from memory until the statistics are loaded again', async () => {
    const stats = new Statistics().set('task.title', 'quokka', 1);
    const service = stats.service();
    expect((await service.variant('Quokka')).taskTitle).toBe('rare');
    stats.set('task.title', 'quokka', 300);
    expect((await service.variant('Quokka')).taskTitle).toBe('rare');
    await service.refresh();
    expect((await service.variant('Quokka')).taskTitle).toBe('common');
  });
});
