import { join } from 'node:path';
import { Linter } from 'eslint';
import * as tseslint from 'typescript-eslint';
import * as ts from 'typescript';

/**
 * The layering of docs/architecture.md is checked by `npm run lint` (eslint.config.js and
 * eslint/tandem-plugin.js). These tests lint made-up files with that configuration to show that
 * each rule fires on a violation and stays quiet on what the code does today. The boundary
 * rules need no type information, so they run here with it turned off (fast); the one rule that
 * needs types gets a small in-memory program.
 */

const ROOT = join(__dirname, '..');
// The configuration is CommonJS, so Jest loads it as it is.
const config: Linter.Config[] = require('../eslint.config.js');
const linter = new Linter({ cwd: ROOT });
const withoutTypes = [...config, tseslint.configs.disableTypeChecked as Linter.Config];

/** `rule: message start` for each finding in `code` as if it were the file `file`. */
function lint(file: string, code: string, configs: Linter.Config[] = withoutTypes): string[] {
  return linter.verify(code, configs, { filename: join(ROOT, file) }).map((m) => `${m.ruleId}: ${m.message}`);
}

const rulesOf = (findings: string[]) => findings.map((f) => f.slice(0, f.indexOf(':')));

describe('data access only in repositories', () => {
  it('a service that runs SQL through its DataSource fails', () => {
    const findings = lint(
      'src/modules/task/bogus.service.ts',
      `import { InjectDataSource } from '@nestjs/typeorm';
       import { DataSource } from 'typeorm';
       export class BogusService {
         constructor(@InjectDataSource() private readonly ds: DataSource) {}
         count(projectId: string) {
           return this.ds.query(\`SELECT count(*) FROM task WHERE project_id = $1\`, [projectId]);
         }
       }`,
    );
    expect(findings).toEqual([expect.stringMatching(/^no-restricted-syntax: A raw query/), expect.stringMatching(/^no-restricted-syntax: A SQL statement/)]);
  });

  it('a service may hold the DataSource to open a transaction and pass the manager on', () => {
    const code = `import { InjectDataSource } from '@nestjs/typeorm';
       import { DataSource } from 'typeorm';
       import { TaskRepository } from './task.repository';
       export class BogusService {
         constructor(@InjectDataSource() private readonly ds: DataSource, private readonly tasks: TaskRepository) {}
         remove(id: string) {
           return this.ds.transaction((m) => this.tasks.remove(id, m));
         }
       }`;
    expect(lint('src/modules/task/bogus.service.ts', code)).toEqual([]);
    // Anything else (a controller, a processor) may not even hold it.
    expect(rulesOf(lint('src/modules/task/bogus.controller.ts', code))).toEqual(['no-restricted-imports', 'no-restricted-imports']);
  });

  it('sees TypeORM calls, SQL text and the SQL helpers', () => {
    const found = (code: string) => lint('src/modules/task/bogus.ts', code);
    expect(rulesOf(found('export const f = (m: any, row: object) => m.save(Member, row);'))).toEqual(['no-restricted-syntax']);
    expect(rulesOf(found('export const f = (ds: any, id: string) => ds.getRepository(User).findOneBy({ id });'))).toEqual(['no-restricted-syntax']);
    expect(rulesOf(found('export const f = (ds: any) => ds.manager.delete(Task, {});'))).toEqual(['no-restricted-syntax']);
    expect(rulesOf(found("export const sql = 'DELETE FROM task WHERE id = $1';"))).toEqual(['no-restricted-syntax']);
    expect(rulesOf(found('export const sql = `\n  WITH moved AS (UPDATE task SET status = $2 RETURNING id) SELECT 1`;'))).toEqual(['no-restricted-syntax']);
    expect(rulesOf(found("import { preparedRows } from '../../database/sql';\nexport const f = preparedRows;"))).toEqual(['no-restricted-imports']);
    expect(found("import { isUniqueViolation } from '../../database/sql';\nexport const f = isUniqueViolation;")).toEqual([]);
    expect(found('export const f = (tasks: any, w: string, id: string) => tasks.findInWorkspace(w, id);')).toEqual([]);
    expect(found("export const e = new Error('Task not found'); export const t = `${e.message} SELECT`;")).toEqual([]);
  });

  it('a repository runs SQL', () => {
    const code = `import { EntityManager } from 'typeorm';
       import { rows } from '../../database/sql';
       export class BogusRepository {
         count(projectId: string, m: EntityManager) {
           return rows(m, \`SELECT count(*) FROM task WHERE project_id = $1\`, [projectId]);
         }
       }`;
    expect(lint('src/modules/task/bogus.repository.ts', code)).toEqual([]);
  });

  it('a SQL builder is imported only by a repository', () => {
    const code = "import { taskEventsSql } from './task-events.sql';\nexport const f = taskEventsSql;";
    expect(lint('src/modules/task/bogus.service.ts', code)).toEqual([expect.stringMatching(/^tandem\/boundaries: src\/modules\/task\/task-events.sql.ts builds SQL/)]);
    expect(lint('src/modules/task/bogus.repository.ts', code)).toEqual([]);
  });
});

describe('module boundaries', () => {
  it('common/ and database/ never import a feature module', () => {
    const findings = lint('src/common/guards/bogus.guard.ts', "import { TaskService } from '../../modules/task/task.service';\nexport const s = TaskService;");
    expect(findings).toEqual([expect.stringMatching(/^tandem\/boundaries: src\/common\/guards\/bogus.guard.ts is shared infrastructure/)]);
    expect(rulesOf(lint('src/database/bogus.ts', "export { TaskRecord } from '../modules/task/task.record';"))).toEqual(['tandem/boundaries']);
  });

  it("another module's repository, entity or controller only through what the module exports", () => {
    const findings = lint(
      'src/modules/label/bogus.service.ts',
      `import { TaskRepository } from '../task/task.repository';
       import { Task } from '../task/task.entity';
       import { TaskController } from '../task/task.controller';
       export const internals = [TaskRepository, Task, TaskController];`,
    );
    expect(findings).toEqual([
      expect.stringMatching(/^tandem\/boundaries: src\/modules\/task\/task.repository.ts is internal to the task module/),
      expect.stringMatching(/^tandem\/boundaries: src\/modules\/task\/task.entity.ts is the task module's own table/),
      expect.stringMatching(/^tandem\/boundaries: src\/modules\/task\/task.controller.ts is a route of the task module/),
    ]);
    const allowed = lint(
      'src/modules/label/bogus.service.ts',
      `import { TaskChangesRepository } from '../task/task-changes.repository';
       import { TaskService } from '../task/task.service';
       import type { Task } from '../task/task.entity';
       import { LabelRepository } from './label.repository';
       export const exported = [TaskChangesRepository, TaskService, LabelRepository];
       export type Shape = Task;`,
    );
    expect(allowed).toEqual([]);
  });

  it('a module with declared dependencies (moduleDependencies) imports, types too, only from the modules it names', () => {
    const findings = lint(
      'src/modules/git-hosts/bogus.service.ts',
      `import { SearchService } from '../search/search.service';
       import type { NotificationRecord } from '../notifications/notification.record';
       export const s = SearchService;
       export type N = NotificationRecord;`,
    );
    expect(findings).toEqual(
      Array(2).fill(expect.stringMatching(/^tandem\/boundaries: src\/modules\/git-hosts\/bogus.service.ts is in the git-hosts module, which imports only from the modules listed/)),
    );
    // The modules it names, its own files and shared code are fine; a module without a list is bound by the other rules only.
    const allowed = lint(
      'src/modules/git-hosts/selfgit/bogus.service.ts',
      `import { TaskService } from '../../task/task.service';
       import { IsWebhookUrl } from '../../integrations/dto/validators';
       import { GitSyncService } from '../git-sync.service';
       import { DestinationGuard } from '../../../common/net/destination-guard';
       export const used = [TaskService, IsWebhookUrl, GitSyncService, DestinationGuard];`,
    );
    expect(allowed).toEqual([]);
    expect(lint('src/modules/label/bogus.service.ts', "import { SearchService } from '../search/search.service';\nexport const s = SearchService;")).toEqual([]);
  });

  it('the API side never imports worker-only code; the root module adds the worker role', () => {
    const code = `import { FanOutProcessor } from '../delivery/fan-out.processor';
       import { PersonTargets } from '../delivery/people/person-targets';
       export const worker = [FanOutProcessor, PersonTargets];`;
    expect(rulesOf(lint('src/modules/task/task.controller.ts', code))).toEqual(['tandem/boundaries', 'tandem/boundaries']);
    expect(lint('src/modules/delivery/integrations/bogus.runner.ts', code.replaceAll('../delivery/', '../'))).toEqual([]);
    // The channel table is not worker code: the API side derives its integration types and channels from it.
    expect(lint('src/modules/integrations/bogus.ts', "import { CHANNELS } from '../delivery/channels';\nexport const c = CHANNELS;")).toEqual([]);
    expect(lint('src/app.module.ts', "import { WorkerModule } from './worker.module';\nexport const m = WorkerModule;")).toEqual([]);
    expect(rulesOf(lint('src/bootstrap.ts', "import { WorkerModule } from './worker.module';\nexport const m = WorkerModule;"))).toEqual(['tandem/boundaries']);
  });
});

describe('table ownership', () => {
  const rule = 'tandem/table-ownership';
  const tableFindings = (file: string, code: string) => lint(file, code).filter((f) => f.startsWith(`${rule}:`));

  it("a module's SQL naming another owner's table fails, with the table, its owner and how to declare an exception", () => {
    const findings = tableFindings('src/modules/label/bogus.repository.ts', 'export const sql = `SELECT l.name FROM label l JOIN task t ON t.id = l.task_id`;');
    expect(findings).toEqual([
      expect.stringMatching(
        /^tandem\/table-ownership: Table task belongs to the task module \(TABLE_OWNERS, eslint.config.js\), not to the label module: .*TABLE_EXCEPTIONS \(eslint.config.js\) and a row in docs\/architecture.md, "Cross-module SQL"/,
      ),
    ]);
    // Any file under src/ (not only repositories), any statement, quoted names, the text after a template's gap.
    expect(rulesOf(tableFindings('src/modules/label/bogus.ts', 'export const sql = \'DELETE FROM "user" WHERE id = $1\';'))).toEqual([rule]);
    expect(rulesOf(tableFindings('src/modules/label/bogus.sql.ts', 'export const f = (w: string) => `SELECT ${w} FROM label, board_column c`;'))).toEqual([rule]);
    // A shared folder owns its tables too; other shared code does not.
    expect(tableFindings('src/queue/bogus.repository.ts', "export const sql = 'DELETE FROM outbox WHERE id = $1';")).toEqual([]);
    expect(tableFindings('src/common/bogus.repository.ts', "export const sql = 'DELETE FROM outbox WHERE id = $1';")).toEqual([
      expect.stringMatching(/^tandem\/table-ownership: Table outbox belongs to the shared folder src\/queue\//),
    ]);
  });

  it('an exception declared for the file (TABLE_EXCEPTIONS) lets it name that table, and only that one', () => {
    const file = 'src/modules/git-hosts/workflow-rule.repository.ts';
    expect(tableFindings(file, "export const sql = 'SELECT slug FROM board_column WHERE project_id = $1';")).toEqual([]);
    expect(tableFindings(file, "export const sql = 'SELECT slug FROM board_column b JOIN label l ON true';")).toEqual([
      expect.stringMatching(/^tandem\/table-ownership: Table label belongs to the label module/),
    ]);
    // An exception of the file that its SQL no longer needs is reported, so the list stays true.
    expect(tableFindings(file, "export const sql = 'SELECT 1 FROM workflow_rule';")).toEqual([
      expect.stringMatching(
        /^tandem\/table-ownership: TABLE_EXCEPTIONS \(eslint.config.js\) lets src\/modules\/git-hosts\/workflow-rule.repository.ts name board_column, but no statement here does/,
      ),
    ]);
    // src/database (migrations, SQL helpers) may name any table.
    expect(tableFindings('src/database/migrations/1-Bogus.ts', "export const sql = 'ALTER TABLE task ADD COLUMN x int REFERENCES board_column(id)';")).toEqual([]);
  });

  it('CTE names, function calls and columns are not tables', () => {
    const code = `export const sql = \`
      WITH project AS (SELECT id FROM label WHERE id = ANY($1::uuid[])),
           moved AS (UPDATE label l SET position = r.position FROM jsonb_to_recordset($2) AS r(id uuid, position int) WHERE l.id = r.id RETURNING l.id)
      SELECT p.id FROM project p JOIN moved m ON m.id = p.id, unnest($3::text[]) AS u(name)
      CROSS JOIN generate_series(1, 3) g
      WHERE p.id IS DISTINCT FROM m.id\`;`;
    expect(tableFindings('src/modules/label/bogus.repository.ts', code)).toEqual([]);
  });

  it('a FROM inside extract, trim or substring names no table', () => {
    const code = `export const sql = \`SELECT extract(epoch FROM now() - task.created_at), trim(both FROM project), substring(name FROM '^x') FROM label\`;`;
    expect(tableFindings('src/modules/label/bogus.repository.ts', code)).toEqual([]);
  });

  it('a table without an owner is reported where a statement writes it', () => {
    const findings = tableFindings('src/modules/label/bogus.repository.ts', "export const sql = 'INSERT INTO label_color (label_id, color) VALUES ($1, $2)';");
    expect(findings).toEqual([expect.stringMatching(/^tandem\/table-ownership: Table label_color has no owner in TABLE_OWNERS \(eslint.config.js\)/)]);
    // A name that is read only may be a function's result or a system catalog: not reported.
    expect(tableFindings('src/modules/label/bogus.repository.ts', "export const sql = 'SELECT relname FROM pg_class';")).toEqual([]);
  });
});

describe('SQL parameters', () => {
  // A program of one in-memory file, so the type-aware rule sees real types without the project's.
  function withTypes(file: string, code: string): Linter.Config[] {
    const fileName = join(ROOT, file);
    const options: ts.CompilerOptions = { strict: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], types: [], noEmit: true };
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile;
    host.getSourceFile = (name, version, ...rest) => (name === fileName ? ts.createSourceFile(name, code, version) : read(name, version, ...rest));
    host.fileExists = (
      (exists) => (name: string) =>
        name === fileName || exists(name)
    )(host.fileExists);
    const program = ts.createProgram([fileName], options, host);
    return [...config, { files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false, programs: [program] } } }];
  }

  it('no value typed any among the parameters of a statement', () => {
    const file = 'src/modules/task/bogus.repository.ts';
    const code = `interface Manager { query(sql: string, params?: any[]): Promise<unknown[]> }
       export const byId = (m: Manager, id: string) => m.query('SELECT 1 FROM task WHERE id = $1', [id]);
       export const loose = (m: Manager, body: any) => m.query('SELECT 1 FROM task WHERE id = $1', [body.id]);
       export const spread = (m: Manager, ids: any[]) => m.query('SELECT 1 FROM task WHERE id = ANY($1)', [...ids]);
       export const whole = (m: Manager, params: any[]) => m.query('SELECT 1', params);`;
    const findings = lint(file, code, withTypes(file, code));
    expect(findings).toEqual(Array(3).fill(expect.stringMatching(/^tandem\/no-any-sql-params: A SQL parameter typed `any`/)));
  });
});
