// ESLint (`npm run lint`): rules that catch real bugs, and the layering of docs/architecture.md.
// Formatting is Prettier's (`npm run format`); eslint-config-prettier, last, keeps the two apart.
// CommonJS like the rest of the tooling, so src/layers.spec.ts can load it under Jest.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const prettier = require('eslint-config-prettier');
const tandem = require('./eslint/tandem-plugin');

const SPECS = ['src/**/*.spec.ts'];

/** Options of tandem/no-literal-text (eslint/tandem-plugin.js): which strings of the web app are not words a person reads, and which are. */
const WEB_TEXT = {
  nonTextAttributes: [
    'className',
    'id',
    'key',
    'type',
    'role',
    'name',
    'value',
    'defaultValue',
    'htmlFor',
    'href',
    'to',
    'rel',
    'target',
    'src',
    'loading',
    'method',
    'lang',
    'dir',
    'autoComplete',
    'inputMode',
    'pattern',
    'form',
    'slot',
    'scope',
    'placement',
    'selectionMode',
    'orientation',
    'orient',
    'aria-labelledby',
    'aria-describedby',
    'aria-controls',
    'aria-hidden',
    'aria-live',
    'aria-modal',
    'aria-autocomplete',
    'aria-current',
    'aria-haspopup',
    'aria-expanded',
    'aria-sort',
    'aria-keyshortcuts',
    'aria-owns',
    'aria-activedescendant',
    'd',
    'fill',
    'stroke',
    'strokeLinejoin',
    'strokeLinecap',
    'markerEnd',
    'viewBox',
    'xmlns',
    'width',
    'height',
    'tone',
    'variant',
    'view',
    'mode',
    'dateTime',
    'accept',
    'enterKeyHint',
    'spellCheck',
  ],
  textProperties: ['title', 'label', 'description', 'placeholder', 'ariaLabel', 'confirmLabel', 'cancelLabel', 'heading', 'hint', 'help', 'text', 'what', 'summary'],
  allowed: ['Tandem'],
};

/** Where SQL and TypeORM data access belong: repositories, the SQL builders they use, and src/database (helpers, migrations, CLI). */
const DATA_ACCESS = ['src/**/*.repository.ts', 'src/**/*.sql.ts', 'src/database/**'];

/**
 * Files outside DATA_ACCESS that may hold the DataSource, and why. They open transactions and
 * pass the manager to repositories; running SQL or TypeORM calls stays forbidden in them.
 */
const DATA_SOURCE_HOLDERS = {
  'src/**/*.service.ts': 'services open transactions (ds.transaction) and pass the manager to repositories (docs/architecture.md, Layers)',
  'src/queue/outbox.relay.ts': "the relay claims, publishes and deletes outbox rows in one transaction (the worker side's service of the outbox)",
  'src/queue/outbox-signal.ts': 'a TypeORM transaction subscriber: it registers itself on the DataSource to notify after commit',
  'src/common/crypto/key-rotation.ts': 're-encrypts each table in one transaction of its own (run by the rotate-keys CLI)',
  'src/common/crypto/rotate-keys-cli.ts': 'a command-line entry point: it opens and closes its own DataSource',
};

/** Files that may print with `console`, and why: entry points that run before or without the application's logger. */
const CONSOLE_ALLOWED = {
  'src/main.ts': 'start-up errors are printed before the application (and its logger) exists',
  'src/database/migrate-cli.ts': 'a command-line tool: its output is its answer',
  'src/common/crypto/rotate-keys-cli.ts': 'a command-line tool: its output is its answer',
};

const DATA_ACCESS_MESSAGE = 'SQL and TypeORM data access live only in *.repository.ts (docs/architecture.md, Layers): add an intent-named repository method and call it.';
const dataAccessImports = ({ dataSource }) => ({
  paths: [
    {
      name: 'typeorm',
      importNames: [
        'Repository',
        'TreeRepository',
        'QueryBuilder',
        'SelectQueryBuilder',
        'InsertQueryBuilder',
        'UpdateQueryBuilder',
        'DeleteQueryBuilder',
        ...(dataSource ? [] : ['DataSource']),
      ],
      message: DATA_ACCESS_MESSAGE,
    },
    {
      name: '@nestjs/typeorm',
      importNames: ['InjectRepository', 'InjectEntityManager', 'getRepositoryToken', ...(dataSource ? [] : ['InjectDataSource'])],
      message: DATA_ACCESS_MESSAGE,
    },
  ],
  patterns: [{ group: ['**/database/sql'], importNames: ['rows', 'firstRow', 'preparedRows', 'setClause', 'escapeLike'], message: DATA_ACCESS_MESSAGE }],
});

const SQL_START = '^\\s*(SELECT|INSERT\\s+INTO|UPDATE\\s+\\w+\\s+SET|DELETE\\s+FROM|WITH\\s+\\w+\\s+AS)\\b';
const MANAGER_CALLS = '^(save|find|findOne|findOneBy|findBy|findAndCount|update|delete|insert|remove|count|exists|increment|decrement|upsert|softDelete|restore)$';
const DATA_ACCESS_SYNTAX = [
  { selector: `Literal[value=/${SQL_START}/]`, message: `A SQL statement. ${DATA_ACCESS_MESSAGE}` },
  { selector: `TemplateLiteral > TemplateElement:first-child[value.raw=/${SQL_START}/]`, message: `A SQL statement. ${DATA_ACCESS_MESSAGE}` },
  {
    selector: 'CallExpression[callee.property.name=/^(query|getRepository|getTreeRepository|createQueryBuilder|createQueryRunner)$/]',
    message: `A raw query or TypeORM repository. ${DATA_ACCESS_MESSAGE}`,
  },
  {
    selector: `CallExpression[callee.object.name=/^(m|manager|em|tx|entityManager)$/][callee.property.name=/${MANAGER_CALLS}/]`,
    message: `An EntityManager data call. ${DATA_ACCESS_MESSAGE}`,
  },
  { selector: `CallExpression[callee.object.property.name='manager'][callee.property.name=/${MANAGER_CALLS}/]`, message: `An EntityManager data call. ${DATA_ACCESS_MESSAGE}` },
];

/** Options of tandem/boundaries (eslint/tandem-plugin.js). Paths are from the repository root. */
const BOUNDARIES = {
  /** Shared infrastructure (docs/architecture.md): never imports a feature module. */
  sharedFolders: ['src/common/', 'src/config/', 'src/database/', 'src/queue/', 'src/redis/', 'src/startup/'],
  /** Repositories other modules may import: those their Nest modules export. Any other repository is internal to its module. */
  publicRepositories: {
    'src/modules/task/task-changes.repository.ts': 'the task write path (TaskModule exports it): every change of a task goes through it',
    'src/modules/task/task-watchers.repository.ts': "TaskWatchDataModule exports it: the fan-out reads a task's watchers and records who was mentioned",
    'src/modules/auth/user.repository.ts': 'UserDataModule exports it',
    'src/modules/auth/user-token.repository.ts': 'UserDataModule exports it',
    'src/modules/organization/workspace.repository.ts': 'OrganizationDataModule exports it',
    'src/modules/organization/member.repository.ts': 'OrganizationDataModule exports it',
    'src/modules/organization/invitation.repository.ts': 'OrganizationDataModule exports it',
    'src/modules/organization/team.repository.ts': 'OrganizationDataModule exports it',
    'src/modules/organization/role.repository.ts': 'OrganizationDataModule exports it',
    'src/modules/notification-preferences/notification-preferences.repository.ts': 'NotificationPreferencesDataModule exports it',
  },
  /** Code only the worker role runs: only other worker-only code imports it. */
  workerOnly: [
    'src/worker.module.ts',
    '*-worker.module.ts',
    '*.processor.ts',
    '*.processors.ts',
    '*.runner.ts',
    // The delivery module but its channel table (channels.ts) and the delivery log the API serves (delivery-log.*, delivery.record.ts).
    'src/modules/delivery/integrations/',
    'src/modules/delivery/people/',
    'src/modules/delivery/delivery.module.ts',
    'src/modules/delivery/delivery-policy.ts',
    'src/modules/delivery/delivery-pruner.ts',
    'src/modules/delivery/delivery-queues.ts',
    'src/modules/delivery/delivery-recorder.ts',
    'src/modules/delivery/delivery-target-kinds.ts',
    'src/modules/delivery/delivery.repository.ts',
    'src/modules/delivery/target-kinds.ts',
    'src/modules/delivery/task-event-filter.ts',
    'src/modules/delivery/live-tap.ts',
    'src/modules/delivery/worker-options.ts',
    'src/modules/mail/mailer.service.ts',
    'src/modules/auth/account-email.module.ts',
    'src/modules/organization/invitation-email.module.ts',
  ],
  /** The justified exceptions to the rules above: importer → imported → why. */
  allowedImports: {
    'src/app.module.ts': { 'src/worker.module.ts': 'the root module adds WorkerModule when the process has the worker role (APP_ROLES)' },
    'src/config/app-config.ts': {
      'src/modules/oauth/oauth-urls.ts': 'the configuration checks the OAuth provider URLs with the very rule the OAuth flow applies (pure functions, no imports)',
    },
    'src/queue/queues.ts': {
      'src/modules/delivery/channels.ts': 'the delivery queues are derived from the channel table (pure data, no imports), so a channel is declared once',
    },
    'src/modules/search/search.service.ts': {
      'src/modules/search/search.sql.ts': 'the service picks the statement variant from the search statistics and parses the query; SearchRepository.search runs the statement',
    },
  },
  /**
   * Modules that import (types too) only from the feature modules listed for them: module → module → why.
   * A module not listed here is bound by the rules above only.
   */
  moduleDependencies: {
    'git-hosts': {
      task: 'imports and inbound webhooks create, change and comment tasks only through TaskService (the task write path); the task fields and priorities of the rules (task.record)',
      project: "ProjectService: the key and slug of an integration's project (task numbers, the task-link comment)",
      column: "ColumnService: the project's columns, which an event or a workflow rule moves a task into; the board's virtual statuses the rules name (board-statuses)",
      label: "LabelService: an issue's labels attached to its task by name",
      auth: "hostedgit linking: at the App's callback AuthService checks that the session or key that started the link is still live; the callbackURL must be on an allowed origin (account-links: allowedRedirect, originRule)",
      oauth:
        'hostedgit linking: the browser binding of the authorization round trip (oauth-browser-binding) and the quoting of the provider error code (safeCode), the same as the OAuth sign-in uses',
      organization: 'the shared string validator of DTOs (organization/dto/validators, IsRequiredString)',
      integrations: 'the settings validators shared with the notifying integrations (integrations/dto/validators: IsWebhookUrl, IsIntInRange)',
    },
    delivery: {
      task: 'the task event (task-event: its kinds, names and snapshot), which every delivery carries',
      auth: "UserRepository: an email notification's address, read when sending",
      organization: 'MemberRepository: a person is told only while a member of the workspace',
      'notification-preferences': "a person's channels and workspace rules (channel-rules, NotificationPreferencesRepository) decide which channels a notification uses",
      mail: 'MailerService: notification emails go over the shared SMTP pool',
      notifications: "the in-app notification's row and record (notification.record), which a person's fan-out writes and sends to their live event streams",
    },
  },
};

/**
 * Options of tandem/table-ownership (eslint/tandem-plugin.js): who owns each table, from
 * docs/architecture.md, "Module map". An owner is a feature module (`src/modules/<name>/`, by its
 * name) or a shared folder (ending in '/'). Every table the migrations (src/database/migrations)
 * leave in the database is here; `email_outbox` is not: 1763780900000-Outbox moved its rows into
 * `outbox` and dropped it.
 */
const TABLE_OWNERS = {
  user: 'auth',
  session: 'auth',
  api_key: 'auth',
  user_token: 'auth',
  account: 'oauth',
  workspace: 'organization',
  member: 'organization',
  team: 'organization',
  team_member: 'organization',
  invitation: 'organization',
  organization_role: 'organization',
  project: 'project',
  board_column: 'column',
  task: 'task',
  task_text: 'task',
  task_former_key: 'task',
  task_watcher: 'task',
  task_relation: 'task-relation',
  label: 'label',
  time_entry: 'time-entry',
  activity: 'activity',
  email_job: 'mail',
  outbox: 'src/queue/',
  integration: 'integrations',
  // Every channel's deliveries: project integrations' and people's (docs/architecture.md, "Delivery").
  delivery: 'delivery',
  git_integration: 'git-hosts',
  external_link: 'git-hosts',
  external_comment: 'git-hosts',
  git_webhook_receipt: 'git-hosts',
  workflow_rule: 'git-hosts',
  notification_preference: 'notification-preferences',
  notification_rule: 'notification-preferences',
  notification: 'notifications',
  asset: 'asset',
  stored_file_removal: 'asset',
  reminder_sent: 'reminders',
  reminder_clock: 'reminders',
};

/**
 * SQL that names another owner's table, and why: file (or folder ending in '/') → table → reason;
 * '*' for any table. The same list as docs/architecture.md, "Cross-module SQL": change both together.
 */
const TABLE_EXCEPTIONS = {
  'src/database/': { '*': 'the migrations create and change every table; the SQL helpers and the migration CLI serve every module' },
  'src/modules/task/task-changes.repository.ts': {
    board_column:
      'the write path reads (FOR KEY SHARE) the columns of the project: is the new status one of them, and where is its end; a column cannot be deleted while a task enters it',
    project: 'the number claim of a create or a move (project.task_counter)',
    activity: 'a comment edit rewrites the comment (an activity row) in the statement that writes its history row and its event',
  },
  'src/modules/reminders/reminder.repository.ts': {
    task: 'the scan reads the tasks whose due date (less a lead time) falls in its span, or whose due date was just set, and their watchers (watchingSql)',
    board_column: "a task in its project's final column is finished: no reminder",
    member: 'only members of the workspace are reminded',
    notification_preference: "each person's choice of reminders and lead time",
    integration: 'the active integrations of the project that chose dueDateReminder, with their lead time',
  },
  'src/modules/task/task-watchers.repository.ts': {
    user: "a watcher's name and image in the watcher list",
    member: 'the watcher list shows members of the workspace only',
  },
  'src/modules/asset/asset.repository.ts': {
    task: "an upload is recorded only for a task of the workspace (its id and workspace read in the insert); a reader's file is found with its task's project",
    project: "a public project's files are open to anyone (project.is_public, read with the file)",
    member: 'whether the reader of a file is a member of its workspace, read with the file in one statement',
    user: "the uploader's name in the asset record",
  },
  'src/modules/task-relation/task-relation.repository.ts': {
    task: "a relation's history row names its target task by key (its number), as it was when the relation changed; a project's relations are those with an end among its tasks",
    project: "a relation's history row names its target task by key (its project's slug)",
  },
  'src/modules/task/task-events.sql.ts': {
    outbox: "the task events (and a new time entry's event) are written into the outbox in the statement of the change",
    project: "the event snapshot carries the project's name and slug",
    user: "the event snapshot carries the actor's name",
  },
  'src/modules/task/card-details.repository.ts': {
    label: "a card's labels (the task's copies), read with the task in one query",
    activity: "a card's comment count (activity rows of type comment)",
    asset: "a card's attachment count",
    task_relation: "a card's subtask progress and open blockers",
    board_column: 'a subtask or blocker is done when its status is a final column',
  },
  'src/modules/task/task.repository.ts': {
    board_column: "the column slugs of a task's project, which a new status is checked against (findForUpdate, findManyForUpdate, statusSlugs)",
    label:
      'a task list filtered by label (filterSql: tasks with any of the labels, in the statement of the list) and the check that each filter names a label of the workspace (knownLabels)',
  },
  'src/modules/git-hosts/workflow-rule.repository.ts': {
    board_column: "a rule's column name and slug; a rule is saved only for a column of its project; event → column slug for the git events",
  },
  'src/modules/auth/session.repository.ts': {
    member: "the session check also finds the route's resource and the caller's membership, in one statement (early location)",
  },
  'src/modules/auth/user.repository.ts': {
    account: 'a proven address ends the sign-in identities linked before it; OAuth imports Auth, so Auth cannot call it',
  },
  'src/common/permissions/access.repository.ts': {
    member: "the permission guard's membership",
    organization_role: "the permission guard's custom roles",
  },
  'src/common/crypto/key-rotation.repository.ts': {
    '*': 're-encrypts the secret columns under the current key; its tables (account, integration, notification_preference, git_integration) come from the registry src/common/crypto/encrypted-columns.ts, not from the SQL text',
  },
  'src/modules/search/search.sql.ts': {
    task: "search is a read model across the work items, within the caller's workspaces",
    task_text: 'search is a read model across the work items (the text of tasks)',
    activity: 'search is a read model across the work items (comments and history)',
    project: 'search is a read model across the work items (the project of each hit)',
    task_former_key: 'search finds a moved task by its old key',
    workspace: "search is kept within the caller's workspaces",
    member: "search is kept within the caller's workspaces (the caller's memberships)",
  },
  'src/modules/delivery/integrations/integration-deliveries.repository.ts': {
    integration: "the fan-out joins the active integrations that want an event's kind, and an attempt reads its delivery with the integration's settings, each in one statement",
  },
  'src/modules/events/live-access.repository.ts': {
    member: 'an open event stream is ended when its holder is no longer a member: one statement per workspace for all its streams',
    session: "an open event stream is ended when the session it was opened with ends (the session check's conditions)",
    api_key: 'an open event stream is ended when the API key it was opened with is deleted or expires',
  },
  'src/modules/delivery/people/person-delivery.repository.ts': {
    notification: "a person's in-app notification is written in the statement that writes their deliveries of the event, once per event and user",
  },
};

const NODE_GLOBALS = Object.fromEntries(
  'process console Buffer URL URLSearchParams fetch AbortController TextEncoder TextDecoder performance structuredClone setTimeout clearTimeout setInterval clearInterval setImmediate clearImmediate queueMicrotask __dirname __filename'
    .split(' ')
    .map((name) => [name, 'readonly']),
);

module.exports = [
  { ignores: ['dist/', 'coverage/', '.tandem/', '.tmp/', 'bench/results/', 'reports/', '.stryker-tmp/'] },

  // Plain JavaScript (tooling, benchmarks, Jest helpers): the recommended checks, no type information.
  {
    files: ['**/*.js'],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: 'commonjs', globals: NODE_GLOBALS },
  },

  // TypeScript: type-aware bug checks.
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    plugins: { '@typescript-eslint': tseslint.plugin, tandem },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      ...js.configs.recommended.rules,
      ...tseslint.configs.eslintRecommended.rules,
      // A promise nobody awaits or catches: its failure is lost (or kills the process as an unhandled rejection).
      '@typescript-eslint/no-floating-promises': 'error',
      // A promise where a plain value or a void callback is expected (an async listener, `if (promise)`).
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // `return promise` inside try/catch/finally skips the catch and runs the finally too early.
      '@typescript-eslint/return-await': ['error', 'error-handling-correctness-only'],
      'no-unused-vars': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },

  // The application logs through its logger (pino), never `console`.
  { files: ['src/**/*.ts'], ignores: [...SPECS, ...Object.keys(CONSOLE_ALLOWED)], rules: { 'no-console': 'error' } },

  // Where values become SQL parameters, nothing typed `any` may flow in.
  {
    files: DATA_ACCESS,
    ignores: SPECS,
    rules: { 'tandem/no-any-sql-params': 'error', '@typescript-eslint/no-unsafe-argument': 'error' },
  },

  // Boundaries (docs/architecture.md): tests may reach anything, the application may not.
  { files: ['src/**/*.ts'], ignores: SPECS, rules: { 'tandem/boundaries': ['error', BOUNDARIES] } },
  // Each table has one owner; SQL naming another owner's table is a declared exception (docs/architecture.md, "Cross-module SQL").
  { files: ['src/**/*.ts'], ignores: SPECS, rules: { 'tandem/table-ownership': ['error', { owners: TABLE_OWNERS, exceptions: TABLE_EXCEPTIONS }] } },
  {
    files: ['src/**/*.ts'],
    ignores: [...SPECS, ...DATA_ACCESS],
    rules: { 'no-restricted-imports': ['error', dataAccessImports({ dataSource: false })], 'no-restricted-syntax': ['error', ...DATA_ACCESS_SYNTAX] },
  },
  {
    files: Object.keys(DATA_SOURCE_HOLDERS),
    ignores: [...SPECS, ...DATA_ACCESS],
    rules: { 'no-restricted-imports': ['error', dataAccessImports({ dataSource: true })] },
  },

  // The web app's words are in its message catalogs (docs/web.md, "Languages").
  {
    files: ['web/src/**/*.ts', 'web/src/**/*.tsx'],
    ignores: ['web/src/**/*.spec.ts', 'web/src/i18n/messages/**', 'web/src/api/schema.d.ts'],
    rules: { 'tandem/no-literal-text': ['error', WEB_TEXT] },
  },

  prettier,
];
