// Two lint rules of our own, used by eslint.config.js (which holds their settings and allow-lists):
//
// - `tandem/boundaries`: who may import whom (docs/architecture.md). An import's specifier is
//   relative to the importing file, so the same target is `../task/x` from one folder and
//   `../../task/x` from another; this rule resolves it to a path from the repository root first,
//   then checks the path, which patterns on the written specifier cannot do.
// - `tandem/no-any-sql-params`: no `any` among the parameters of a SQL statement. TypeORM's
//   `query(sql, parameters?: any[])` and our helpers' `unknown[]` accept anything, so
//   @typescript-eslint/no-unsafe-argument never fires there; this rule looks at each parameter's type.
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

module.exports = { meta: { name: 'tandem' }, rules: { boundaries, 'no-any-sql-params': noAnySqlParams } };
