import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Projects: unit and API tests on PGlite, the same API tests on PostgreSQL (skipped only
// when scripts/test.mjs found no PostgreSQL and said so), and the browser tests.
const withPostgres = process.env.BW_SKIP_POSTGRES !== '1';
const apiTests = ['apps/api/src/**/*.test.ts', 'packages/*/src/**/*.test.ts'];
// Each API test file's databases are copies of one template migrated once per run.
const templateSetup = ['packages/db/test-support/template-setup.ts'];
// API test files share their worker's loaded modules (isolate: false): a file makes its own
// app and database (apps/api/test-support/test-app.ts) and restores what it changes (fake
// timers), so only the loading (the app, PGlite's WebAssembly) is shared, and it is done once
// per worker instead of once per file.
const apiProject = { include: apiTests, globalSetup: templateSetup, isolate: false, testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    // Two workers at least: an API test file spends much of its time waiting (on PostgreSQL, a
    // server process it started, a delivery retry coming due), so two files in turn keep two
    // cores busy where Vitest's default (one worker less than the cores) would leave one idle.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      // The repository's own rules (eslint.config.js).
      { test: { name: 'layout', include: ['eslint.config.test.ts'], testTimeout: 30_000 } },
      { test: { name: 'pglite', env: { TEST_DB: 'pglite' }, ...apiProject } },
      ...(withPostgres ? [{ test: { name: 'postgres', env: { TEST_DB: 'postgres' }, ...apiProject } }] : []),
      {
        test: {
          name: 'browser',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // After the API files (a group of its own), two files side by side, each on its own
          // server (global-setup.ts): a browser test spends most of its time waiting on the page,
          // the server and Chromium, so one file at a time left a core idle.
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
        },
      },
    ],
  },
});
