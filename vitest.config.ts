import { defineConfig } from 'vitest/config';

// Projects: unit and API tests on PGlite, the same API tests on PostgreSQL (skipped only
// when scripts/test.mjs found no PostgreSQL and said so), and the browser tests.
const withPostgres = process.env.BW_SKIP_POSTGRES !== '1';
const apiTests = ['apps/api/src/**/*.test.ts', 'packages/*/src/**/*.test.ts'];
// Each API test file's databases are copies of one template migrated once per run.
const templateSetup = ['packages/db/test-support/template-setup.ts'];

export default defineConfig({
  test: {
    projects: [
      // The repository's own rules (eslint.config.js).
      { test: { name: 'layout', include: ['eslint.config.test.ts'], testTimeout: 30_000 } },
      {
        test: {
          name: 'pglite',
          include: apiTests,
          globalSetup: templateSetup,
          env: { TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(withPostgres
        ? [
            {
              test: {
                name: 'postgres',
                include: apiTests,
                globalSetup: templateSetup,
                env: { TEST_DB: 'postgres' },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        test: {
          name: 'browser',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
