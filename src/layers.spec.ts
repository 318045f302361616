import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The layering rule of docs/architecture.md, checked on the source: SQL and TypeORM data access
 * live only in repositories (`*.repository.ts`, and `*.sql.ts` builders that repositories use),
 * never in controllers, services or anything else. Migrations and the database helpers are the
 * exception by nature.
 */

const SRC = __dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const allowed = (file: string) =>
  file.endsWith('.repository.ts') || file.endsWith('.sql.ts') || file.startsWith('database/');

const RULES: Array<[string, RegExp]> = [
  ['a SQL statement', /[`'"]\s*(SELECT|INSERT INTO|UPDATE\s+\w+\s+SET|DELETE FROM|WITH\s+\w+\s+AS)\b/],
  ['a raw query', /\.query\s*[<(]/],
  ['a TypeORM repository', /\.getRepository\s*\(|\.createQueryBuilder\s*\(|@InjectRepository\s*\(/],
  ['an EntityManager data call', /\b(m|manager|em|tx|this\.ds\.manager|this\.dataSource\.manager)\.(save|find|findOne|findOneBy|findBy|update|delete|insert|remove|count|exists|increment|upsert|softDelete)\s*\(/],
  ['a SQL helper', /\b(preparedRows|firstRow|rows)\s*</],
  ['a SQL helper', /\b(preparedRows|firstRow)\s*\(/],
];

describe('layers', () => {
  it('no SQL or TypeORM data call outside repositories', () => {
    const offences: string[] = [];
    for (const path of sourceFiles(SRC)) {
      const file = relative(SRC, path);
      if (allowed(file)) continue;
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\*|\/\/)/.test(line)) return; // comments may name statements
          for (const [what, re] of RULES) if (re.test(line)) offences.push(`${file}:${i + 1} ${what}: ${line.trim().slice(0, 100)}`);
        });
    }
    expect(offences).toEqual([]);
  });

  it('the rule sees what it is meant to see', () => {
    const hit = (line: string) => RULES.some(([, re]) => re.test(line));
    expect(hit('const r = await this.ds.query(`SELECT 1`)')).toBe(true);
    expect(hit("await m.save(Member, row)")).toBe(true);
    expect(hit("this.ds.getRepository(User).findOneBy({ id })")).toBe(true);
    expect(hit('const x = `DELETE FROM task WHERE id = $1`;')).toBe(true);
    expect(hit('return preparedRows(this.ds, name, text, params);')).toBe(true);
    expect(hit('await this.tasks.findInWorkspace(workspaceId, id);')).toBe(false);
    expect(hit("throw new NotFoundException('Task not found');")).toBe(false);
  });
});
