import { likePattern, parseTaskKey, searchSql } from './search.sql';

describe('search SQL helpers', () => {
  it('takes % _ and \\ literally', () => {
    expect(likePattern('50%')).toBe('%50\\%%');
    expect(likePattern('a_b')).toBe('%a\\_b%');
    expect(likePattern('c:\\x')).toBe('%c:\\\\x%');
    expect(likePattern('plain')).toBe('%plain%');
  });

  it('recognises task keys', () => {
    expect(parseTaskKey('API-12')).toEqual({ slug: 'API', number: 12 });
    expect(parseTaskKey(' web-app-7 ')).toEqual({ slug: 'web-app', number: 7 });
    expect(parseTaskKey('cli-test-1732400000000-3')).toEqual({ slug: 'cli-test-1732400000000', number: 3 });
    expect(parseTaskKey('проект-5')).toEqual({ slug: 'проект', number: 5 });
    expect(parseTaskKey('API-')).toBeNull();
    expect(parseTaskKey('12')).toBeNull();
    expect(parseTaskKey('API-0')).toBeNull();
    expect(parseTaskKey('API-99999999999')).toBeNull();
  });

  it('builds one statement holding only the requested sections', () => {
    const all = searchSql(['tasks', 'projects', 'workspaces', 'comments', 'activities']).text;
    for (const s of ['AS tasks', 'AS projects', 'AS workspaces', 'AS comments', 'AS activities']) expect(all).toContain(s);
    const one = searchSql(['projects']).text;
    expect(one).toContain('AS projects');
    expect(one).not.toContain('FROM task_text x');
  });

  it('steers common words away from the trigram index and names each variant once', () => {
    const rare = searchSql(['tasks'], { taskTitle: 'rare', taskDescription: 'rare', commentContent: 'rare', activityContent: 'rare' });
    const common = searchSql(['tasks'], { taskTitle: 'common', taskDescription: 'rare', commentContent: 'rare', activityContent: 'rare' });
    expect(rare.text).toContain('x.title ILIKE $2 AND');
    expect(common.text).toContain("(x.title || '') ILIKE $2");
    expect(common.name).not.toBe(rare.name);
    expect(searchSql(['tasks'], { taskTitle: 'common', taskDescription: 'rare', commentContent: 'rare', activityContent: 'rare' })).toBe(common);
  });
});

describe('access paths within one project', () => {
  it('walks the project’s own tasks and its tasks’ activities for common words', () => {
    const v = { taskTitle: 'project', taskDescription: 'rare', commentContent: 'project', activityContent: 'rare', projectScoped: true } as const;
    const text = searchSql(['tasks', 'comments'], v).text;
    // the walk reads the text from task itself, without a join to task_text per walked row
    expect(text).toContain("FROM task t\n     WHERE t.project_id = $5::uuid AND (t.title || '') ILIKE $2 AND");
    expect(text).not.toContain('JOIN task_text');
    expect(text).toContain('CROSS JOIN LATERAL');
    // rare words keep the trigram index, filtered to the project after the fenced lookup
    expect(text).toContain('x.description ILIKE $2 AND NOT (x.title ILIKE $2) AND x.workspace_id');
    expect(text).toContain('OFFSET 0) x JOIN task t ON t.id = x.task_id\n     WHERE ($5::uuid IS NULL OR t.project_id = $5::uuid)');
    expect(searchSql(['tasks', 'comments'], { ...v, projectScoped: false }).name).not.toBe(searchSql(['tasks', 'comments'], v).name);
  });
});
