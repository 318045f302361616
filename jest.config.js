// Two projects: unit tests beside the code (the service's and the web app's), end-to-end tests that boot the real app
// against real Postgres and Redis (each file in its own database cloned from a migrated template).
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];
// Dependencies published only as ES modules (the hostedgit App authentication, @octokit/auth-app,
// and what it imports, its own node_modules included; the web app's FormatJS, for its unit specs). Node loads them with require() (Node >=
// 20.19); Jest's module system does not, so swc rewrites them to CommonJS like our own sources.
const ESM_ONLY = ['@octokit', 'universal-user-agent', 'universal-github-app-jwt', 'toad-cache', 'json-with-bigint', '@formatjs', 'react-intl', 'intl-messageformat'];
const swcEsm = ['@swc/jest', { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } }];
const esmTransform = {
  transform: { '^.+\\.ts$': swc, [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: swcEsm },
  transformIgnorePatterns: [`^(?!.*/node_modules/(${ESM_ONLY.join('|')})/).*/node_modules/`],
};

module.exports = {
  maxWorkers: process.env.JEST_MAX_WORKERS || 2,
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      // The web app's pure helpers (web/src/**/*.spec.ts) are unit-tested here too.
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/web/src/**/*.spec.ts'],
      ...esmTransform,
      testEnvironment: 'node',
    },
    {
      displayName: 'e2e',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      ...esmTransform,
      testEnvironment: 'node',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
