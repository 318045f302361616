// Mutation testing (`npm run test:mutation`, docs/testing.md, "Mutation testing"): Stryker changes
// the code of the modules below one small change (mutant) at a time and runs the unit tests that
// cover it; a mutant no test notices is a change to behaviour the tests let through. Unit tests
// only (jest.mutation.config.js): the end-to-end tests boot the whole service and take minutes,
// too slow to run per mutant. One mutant at a time (concurrency 1): the machine has 2 cores and
// other test runs share them.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  jest: { projectType: 'custom', configFile: 'jest.mutation.config.js', enableFindRelatedTests: true },
  // The checker drops mutants that do not compile. It type-checks tsconfig.mutation.json, the
  // files of `mutate` below and what they import, instead of the whole project (seconds instead of
  // a minute per check on this machine): keep its list the same as `mutate`.
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.mutation.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  concurrency: 1,
  timeoutMS: 10000,
  mutate: [
    // The destination guard and the outbound HTTP client.
    'src/common/net/destination-guard.ts',
    'src/common/net/outbound-http.ts',
    'src/common/net/capped-fetch.ts',
    // Delivery: classification of answers and errors, the retry schedule (deliveryBackoffMs only:
    // the rest of queues.ts is queue settings), signing.
    'src/modules/delivery/delivery-policy.ts',
    'src/modules/delivery/delivery.runner.ts',
    'src/modules/delivery/worker-options.ts',
    'src/modules/delivery/fan-out.processor.ts',
    'src/queue/queues.ts:57-60',
    'src/modules/delivery/integrations/generic-webhook.format.ts',
    'src/modules/delivery/integrations/channel-formats.ts',
    // The integrations as delivery targets: what one attempt sends and signs, the fan-out's jobs.
    'src/modules/delivery/integrations/integration-targets.ts',
    // Git hosts: the signature of an incoming webhook, and the rules that need no database.
    'src/modules/git-hosts/webhook-signature.ts',
    'src/modules/git-hosts/git-rules.ts',
    // The outbox relay: the jobs it publishes for the rows it claimed (jobsOf only: the rest is
    // database and Redis work).
    'src/queue/outbox.relay.ts:215-224',
    // The permission guard and access checks.
    'src/common/guards/permission.guard.ts',
    'src/common/permissions/permissions.ts',
    'src/common/permissions/access.service.ts',
    'src/common/permissions/prefetched-membership.ts',
    'src/common/decorators/api-key-scope.decorator.ts',
    // Notification rules: who hears of an event, on which channels.
    'src/modules/notification-preferences/channel-rules.ts',
    'src/modules/delivery/people/recipients.ts',
  ],
  ignorePatterns: ['web', 'docs', 'bench', 'reports', 'dist', 'coverage', '.tandem', '.tmp'],
  reporters: ['clear-text', 'html', 'json', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  // Mutants whose code and covering tests did not change since the last run keep their result.
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  thresholds: { high: 85, low: 70, break: null },
};
