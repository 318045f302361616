// Lint rules of our own, used by eslint.config.js (which holds their settings and allow-lists):
//
// - `tandem/boundaries`: who may import whom (docs/architecture.md). An import's specifier is
//   relative to the importing file, so the same target is `../task/x` from one folder and
//   `../../task/x` from another; this rule resolves it to a path from the repository root first,
//   then checks the path, which patterns on the written specifier cannot do.
// - `tandem/no-any-sql-params`: no `any` among the parameters of a SQL statement. TypeORM's
//   `query(sql, parameters?: any[])` and our helpers' `unknown[]` accept anything, so
//   @typescript-eslint/no-unsafe-argument never fires there; this rule looks at each parameter's type.
// - `tandem/table-ownership`: each table has one owner (a feature module or a shared folder), and
//   SQL text that names another owner's table needs an exception with its reason
//   (docs/architecture.md, "Module map" and "Cross-module SQL").
// - `tandem/no-literal-text`: the web app writes no words of its own outside its message catalogs
//   (docs/web.md, "Languages"): text between JSX tags, string props and the texts of toasts and
//   options (`title:`, `label:`, …) come from `t()`; attributes that are not text (className,
//   role, …) are named in the rule's options.
'use strict';
const path = require('node:path');
const ts = require('typescript');

/** `src/x/` matches a folder, `*.y.ts` a file-name ending, anything else one file. */
const matches = (file, pattern) => (pattern.endsWith('/') ? file.startsWith(pattern) : pattern.startsWith('*') ? file.endsWith(pattern.slice(1)) : file === pattern);
const matchesAny = (file, patterns) => patterns.some((p) => matches(file, p));
const moduleOf = (file) => /^src\/modules\/([^/]+)\//.exec(file)?.[1];

/** The file an import names, from the repository root, with its `.ts`; null for a package. */
function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  return /\.(ts|js|json)$/.test(target) ? target : `${target}.ts`;
}

/** An import that brings only types, which the build erases: `import type {…}` or `import { type A, type B }`. */
const typeOnly = (node) =>
  node.importKind === 'type' || node.exportKind === 'type' || (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));

/**
 * What is wrong with `from` importing `to`, or null. Type-only imports are exempt where the rule is
 * about reaching data or running SQL (entities, repositories, SQL builders), not where it is about
 * direction (shared code to a feature module, the API side to worker code). The options are
 * described in eslint.config.js.
 */
function violation(o, from, to, onlyTypes) {
  if (o.allowedImports[from]?.[to] !== undefined) return null;
  if (matchesAny(from, o.sharedFolders) && to.startsWith('src/modules/')) {
    return `${from} is shared infrastructure: it never imports a feature module (${to}). Move what both need out of the module.`;
  }
  if (matchesAny(to, o.workerOnly) && !matchesAny(from, o.workerOnly)) {
    return `${to} is worker-only code (processors, delivery runners, worker modules): the API side never imports it (docs/architecture.md, "One build, two roles").`;
  }
  // A module with a declared list of dependencies imports (types too) only from the modules it names.
  const importer = moduleOf(from);
  const imported = moduleOf(to);
  const allowed = importer && o.moduleDependencies?.[importer];
  if (allowed && imported && imported !== importer && allowed[imported] === undefined) {
    return `${from} is in the ${importer} module, which imports only from the modules listed for it in moduleDependencies (eslint.config.js), not from ${imported} (${to}). Add ${imported} there with the reason, or use what a listed module offers.`;
  }
  if (onlyTypes) return null;
  if (to.endsWith('.sql.ts') && !from.endsWith('.repository.ts') && !from.endsWith('.sql.ts')) return `${to} builds SQL: only a repository imports it.`;
  const owner = moduleOf(to);
  if (!owner || owner === moduleOf(from)) return null;
  if (to.endsWith('.controller.ts')) return `${to} is a route of the ${owner} module: another module never imports a controller; use what the module exports.`;
  if (to.endsWith('.entity.ts')) {
    return `${to} is the ${owner} module's own table: reach it through what that module exports (its service or an exported repository); \`import type\` is fine for its shape.`;
  }
  if (to.endsWith('.repository.ts') && o.publicRepositories[to] === undefined) {
    return `${to} is internal to the ${owner} module: use its service, or export the repository from its Nest module and list it in publicRepositories (eslint.config.js).`;
  }
  return null;
}

const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Module and layer boundaries of docs/architecture.md, checked on resolved import paths' },
    schema: [
      {
        type: 'object',
        properties: {
          sharedFolders: { type: 'array', items: { type: 'string' } },
          publicRepositories: { type: 'object' },
          workerOnly: { type: 'array', items: { type: 'string' } },
          allowedImports: { type: 'object' },
          moduleDependencies: { type: 'object' },
        },
        required: ['sharedFolders', 'publicRepositories', 'workerOnly', 'allowedImports'],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const options = context.options[0];
    const from = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    const check = (node, source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const to = resolveImport(from, source.value);
      if (!to) return;
      const message = violation(options, from, to, typeOnly(node));
      if (message) context.report({ node: source, message });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

/** Which argument holds the parameters: TypeORM's `x.query(sql, params)` and the helpers of src/database/sql.ts. */
const PARAMS_AT = { query: 1, rows: 2, firstRow: 2, preparedRows: 3 };

const noAnySqlParams = {
  meta: {
    type: 'problem',
    docs: { description: 'No value typed `any` among the parameters of a SQL statement' },
    schema: [],
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    // Without type information (a config that turns it off) there is nothing to look at.
    if (!services?.program) return {};
    const checker = services.program.getTypeChecker();
    const hasAny = (type) => (type.flags & ts.TypeFlags.Any) !== 0 || ((checker.isArrayType(type) || checker.isTupleType(type)) && checker.getTypeArguments(type).some(hasAny));
    return {
      CallExpression(node) {
        const { callee } = node;
        const name =
          callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier' && callee.property.name === 'query'
            ? 'query'
            : callee.type === 'Identifier' && callee.name !== 'query'
              ? callee.name
              : null;
        const params = name && Object.hasOwn(PARAMS_AT, name) ? node.arguments[PARAMS_AT[name]] : undefined;
        if (!params) return;
        const values = params.type === 'ArrayExpression' ? params.elements.filter(Boolean) : [params];
        for (const value of values) {
          const expr = value.type === 'SpreadElement' ? value.argument : value;
          if (hasAny(services.getTypeAtLocation(expr))) {
            context.report({ node: expr, message: 'A SQL parameter typed `any`: give the value its real type (or narrow an unknown) before it reaches the statement.' });
          }
        }
      },
    };
  },
};

/** Functions whose argument list may hold a FROM that is not a table: `extract(epoch FROM t)`, `trim(… FROM …)`, `substring(x FROM …)`. */
const FROM_FUNCTIONS = new Set(['extract', 'trim', 'substring', 'overlay', 'position']);
/** A table name as SQL writes it here: lower-case, or quoted (`"user"`); possibly schema-qualified (`public.task`). */
const NAME = '("[^"]+"|[a-z_][a-z0-9_]*)(?:\\.("[^"]+"|[a-z_][a-z0-9_]*))?';
/**
 * The keywords after which a table is named. SQL keywords are upper-case in this code base (and
 * names lower-case), which keeps prose ("removes it from every task") and the keyword-like words
 * after a keyword (`FOR UPDATE SKIP LOCKED`, `DO UPDATE SET`, `JOIN LATERAL`) out.
 */
const TABLE_AFTER = new RegExp(
  `\\b(INSERT\\s+INTO|UPDATE(?:\\s+ONLY)?|DELETE\\s+FROM(?:\\s+ONLY)?|TRUNCATE(?:\\s+TABLE)?(?:\\s+ONLY)?|ALTER\\s+TABLE(?:\\s+IF\\s+EXISTS)?(?:\\s+ONLY)?|REFERENCES|FROM(?:\\s+ONLY)?|JOIN(?:\\s+ONLY)?|USING)\\s+${NAME}`,
  'g',
);
/** The next table of a list after one (and its alias): `, b` in `FROM a x, b`. */
const LIST_ITEM = new RegExp(`^(?:\\s+(?:AS\\s+)?[a-z_][a-z0-9_]*)?\\s*,\\s*${NAME}`);
/** Statements that write: a name after them that is no declared table is a new table without an owner. */
const WRITES = /^(INSERT|UPDATE|DELETE|TRUNCATE|ALTER)/;
/** `WITH x AS (`, `, y AS (`, `WITH RECURSIVE z(a, b) AS MATERIALIZED (`: names the statement defines for itself. */
const CTE = /(?:\bWITH(?:\s+RECURSIVE)?|,)\s*("[^"]+"|[a-z_][a-z0-9_]*)\s*(?:\([^()]*\)\s*)?AS\s+(?:(?:NOT\s+)?MATERIALIZED\s+)?\(/g;
/** Stands for a template literal's `${…}` between its quasis: no name can be read into it. */
const GAP = ' $expr ';

const unquote = (name) => (name.startsWith('"') ? name.slice(1, -1) : name);

/** The identifier before the innermost parenthesis open at `at`, e.g. `extract` in `extract(epoch FROM x)`. */
function enclosingCall(sql, at) {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    if (sql[i] === ')') depth++;
    else if (sql[i] === '(' && depth-- === 0) return /([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(sql.slice(0, i))?.[1].toLowerCase() ?? null;
  }
  return null;
}

/**
 * The tables one SQL text names: `{table, write, declared}` for each name after a table keyword that
 * is a declared table, or that a writing statement names (an undeclared one). Skipped: the text's
 * own CTE names, function calls (`FROM unnest(…)`, `JOIN jsonb_to_recordset(…)`), a FROM inside
 * extract/trim/substring/overlay/position, `IS DISTINCT FROM x`, and a column (`FROM t.col`).
 */
function tablesNamed(sql, owners) {
  const ctes = new Set([...sql.matchAll(CTE)].map((m) => unquote(m[1])));
  const found = new Map();
  const consider = (keyword, at, first, second, end) => {
    // `schema.table` only when the second part is a declared table; else it is `alias.column`.
    let name = unquote(first);
    if (second !== undefined) {
      if (!Object.hasOwn(owners, unquote(second))) return;
      name = unquote(second);
    }
    if (ctes.has(name)) return;
    if (!/^(INSERT|REFERENCES)/.test(keyword) && /^\s*\(/.test(sql.slice(end))) return;
    if (keyword.startsWith('FROM')) {
      if (/\bDISTINCT\s+$/.test(sql.slice(0, at))) return;
      if (FROM_FUNCTIONS.has(enclosingCall(sql, at))) return;
    }
    const declared = Object.hasOwn(owners, name);
    const write = WRITES.test(keyword);
    if ((declared || write) && !found.has(name)) found.set(name, { table: name, write, declared });
  };
  for (const m of sql.matchAll(TABLE_AFTER)) {
    const keyword = m[1].replace(/\s+/g, ' ');
    let end = m.index + m[0].length;
    consider(keyword, m.index, m[2], m[3], end);
    // A list: `FROM a x, b y`, `USING a, b`, `TRUNCATE a, b`.
    if (!/^(FROM|USING|TRUNCATE)/.test(keyword)) continue;
    let next = LIST_ITEM.exec(sql.slice(end));
    while (next) {
      end += next[0].length;
      consider(keyword, m.index, next[1], next[2], end);
      next = LIST_ITEM.exec(sql.slice(end));
    }
  }
  return [...found.values()];
}

/** The SQL text of a literal: a string's value, or a template literal's quasis joined by GAP; null otherwise. */
function sqlText(node) {
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : null;
  return node.quasis.map((q) => q.value.cooked ?? q.value.raw).join(GAP);
}

const tableOwnership = {
  meta: {
    type: 'problem',
    docs: { description: "SQL names another owner's table only with a declared exception (docs/architecture.md, Cross-module SQL)" },
    schema: [
      {
        type: 'object',
        properties: {
          owners: { type: 'object', additionalProperties: { type: 'string' } },
          exceptions: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'string' } } },
        },
        required: ['owners', 'exceptions'],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const { owners, exceptions } = context.options[0];
    const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    const ownModule = moduleOf(file);
    const ownsIt = (owner) => (owner.endsWith('/') ? file.startsWith(owner) : owner === ownModule);
    // The exceptions that apply to this file: its own, and those of the folders it is in.
    const mine = Object.entries(exceptions).filter(([key]) => (key.endsWith('/') ? file.startsWith(key) : file === key));
    const excepted = (table) => mine.some(([, tables]) => Object.hasOwn(tables, table) || Object.hasOwn(tables, '*'));
    const named = new Set();
    const ownerName = (owner) => (owner.endsWith('/') ? `shared folder ${owner}` : `${owner} module`);
    const check = (node) => {
      const sql = sqlText(node);
      if (!sql) return;
      for (const { table, declared } of tablesNamed(sql, owners)) {
        named.add(table);
        if (excepted(table)) continue;
        if (!declared) {
          context.report({
            node,
            message: `Table ${table} has no owner in TABLE_OWNERS (eslint.config.js): declare the module or shared folder that owns it (docs/architecture.md, "Module map").`,
          });
        } else if (!ownsIt(owners[table])) {
          context.report({
            node,
            message: `Table ${table} belongs to the ${ownerName(owners[table])} (TABLE_OWNERS, eslint.config.js), not to ${ownModule ? `the ${ownModule} module` : file}: go through what its owner exports, or declare an exception for ${file} and ${table} with its reason in TABLE_EXCEPTIONS (eslint.config.js) and a row in docs/architecture.md, "Cross-module SQL".`,
          });
        }
      }
    };
    return {
      Literal: check,
      TemplateLiteral: check,
      // An exception of this very file that no statement here needs any more is stale: it goes.
      'Program:exit'(program) {
        const own = exceptions[file];
        if (!own) return;
        for (const table of Object.keys(own)) {
          if (table !== '*' && !named.has(table)) {
            context.report({
              node: program,
              loc: { line: 1, column: 0 },
              message: `TABLE_EXCEPTIONS (eslint.config.js) lets ${file} name ${table}, but no statement here does: remove the exception (and its row in docs/architecture.md, "Cross-module SQL").`,
            });
          }
        }
      },
    };
  },
};

const LETTER = /\p{L}/u;

const noLiteralText = {
  meta: {
    type: 'problem',
    docs: { description: "No words of the web app outside its message catalogs: they come from t() (docs/web.md, 'Languages')" },
    schema: [
      {
        type: 'object',
        properties: {
          /** JSX attributes whose strings are not text a person reads. */
          nonTextAttributes: { type: 'array', items: { type: 'string' } },
          /** Object keys whose strings are text a person reads (toasts, menu entries). */
          textProperties: { type: 'array', items: { type: 'string' } },
          /** Words that are the same in every language (the product's name). */
          allowed: { type: 'array', items: { type: 'string' } },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const options = context.options[0] ?? {};
    const nonText = new Set(options.nonTextAttributes ?? []);
    const textProps = new Set(options.textProperties ?? []);
    const allowed = new Set(options.allowed ?? []);
    const wordy = (text) => LETTER.test(text) && !allowed.has(text.trim());
    const report = (node) =>
      context.report({ node, message: 'Text of the web app belongs in its message catalogs (web/src/i18n/messages): write t(…) (docs/web.md, "Languages").' });
    /** Reports the string parts of an expression that can become text: literals, templates, both arms of `?:`, `&&`, `||`, `??`. */
    const checkValue = (node) => {
      if (!node) return;
      if (node.type === 'Literal' && typeof node.value === 'string') {
        if (wordy(node.value)) report(node);
      } else if (node.type === 'TemplateLiteral') {
        if (node.quasis.some((q) => wordy(q.value.cooked ?? q.value.raw))) report(node);
      } else if (node.type === 'ConditionalExpression') {
        checkValue(node.consequent);
        checkValue(node.alternate);
      } else if (node.type === 'LogicalExpression') {
        checkValue(node.left);
        checkValue(node.right);
      }
    };
    const attributeName = (name) => (name.type === 'JSXNamespacedName' ? `${name.namespace.name}:${name.name.name}` : name.name);
    return {
      JSXText: (node) => {
        if (wordy(node.value)) report(node);
      },
      JSXExpressionContainer: (node) => {
        if (node.parent?.type !== 'JSXAttribute') checkValue(node.expression);
      },
      JSXAttribute: (node) => {
        const name = attributeName(node.name);
        if (nonText.has(name) || name.startsWith('data-') || /^on[A-Z]/.test(name)) return;
        if (node.value?.type === 'Literal') checkValue(node.value);
        else if (node.value?.type === 'JSXExpressionContainer') checkValue(node.value.expression);
      },
      Property: (node) => {
        const key = node.key.type === 'Identifier' ? node.key.name : node.key.type === 'Literal' ? String(node.key.value) : null;
        if (key && textProps.has(key) && node.parent?.type === 'ObjectExpression') checkValue(node.value);
      },
    };
  },
};

module.exports = {
  meta: { name: 'tandem' },
  rules: { boundaries, 'no-any-sql-params': noAnySqlParams, 'table-ownership': tableOwnership, 'no-literal-text': noLiteralText },
};
