import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Projects: the unit tests (no database) once, the API tests on PGlite and the same on
// PostgreSQL (skipped only when scripts/test.mjs found no PostgreSQL and said so), the API files
// that start processes of their own after them, and the browser tests.
const withPostgres = process.env.BW_SKIP_POSTGRES !== '1';
const apiTests = ['apps/api/src/**/*.test.ts', 'packages/*/src/**/*.test.ts'];
// The repository's own rules: the lint zones and the ownership of tables (no database).
const layoutTests = ['eslint.config.test.ts', 'packages/db/src/table-ownership.test.ts', 'scripts/**/*.test.ts'];
// API files that open no test database (texts, settings, parsers, clients against local
// doubles): once a run, in the `unit` project with the layout tests, rather than once per
// database. A file here that opens one fails (createTestDatabase refuses under BW_UNIT_PROJECT).
// One project rather than two: each project's files start workers of their own, which load
// their modules again.
const unitTests = [
  'apps/api/src/integrations/email/mail-texts.test.ts',
  'apps/api/src/integrations/events/events-docs.test.ts',
  'apps/api/src/integrations/events/webhooks/webhook-sender.test.ts',
  'apps/api/src/platform/config.test.ts',
  'apps/api/src/platform/guest-language.test.ts',
  'apps/api/src/platform/jobs/jobs.plugin.test.ts',
  'apps/api/src/platform/park-time.test.ts',
  'apps/api/src/platform/start.test.ts',
  'apps/api/src/staff/auth/passwords.test.ts',
  'apps/api/src/staff/resources/resource-schemas.test.ts',
  'apps/api/src/wallet/apple/apns.test.ts',
  'apps/api/src/wallet/google/google-wallet-callbacks.test.ts',
  'apps/api/src/wallet/google/google-wallet-credentials.test.ts',
  'packages/contract/src/errors.test.ts',
  'packages/contract/src/i18n/i18n.test.ts',
  'packages/db/src/personal-data.test.ts',
];
// expect.poll waits 1 s by default: a job's write on a PGlite kept busy by the other files took
// longer (webhooks.test.ts failed that way in two loaded runs). A poll still fails, only later.
const pollOptions = { timeout: 10_000 };
// Files that start server processes of their own (the server, workers killed with SIGKILL) and
// time what those do: beside three other API files on this 2-core machine a start took over 60 s
// and CI failed them. They run after the other API files (a later sequence.groupOrder, as
// Vitest's recipe for sequential files has it), two at a time, one per core: one at a time took
// 171 s with a core mostly idle, two 101 s, each file still within a fifth of its timeouts.
// `npm run import`'s test runs the command three times, each process opening PGlite (121 s, over
// its 120 s, in a loaded run).
const processTests = [
  'apps/api/src/server.test.ts',
  'apps/api/src/**/*-processes.test.ts',
  'apps/api/src/integrations/import.command.test.ts',
];
// Each API test file's databases are copies of one template migrated once per run.
const templateSetup = ['packages/db/test-support/template-setup.ts'];
// API test files share their worker's loaded modules (isolate: false): a file makes its own
// app and database (apps/api/test-support/test-app.ts) and restores what it changes (fake
// timers), so only the loading (the app, PGlite's WebAssembly) is shared, and it is done once
// per worker instead of once per file.
const apiProject = {
  include: apiTests,
  exclude: [...configDefaults.exclude, ...layoutTests, ...unitTests, ...processTests],
  globalSetup: templateSetup,
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  expect: { poll: pollOptions },
};

// They start the API compiled, as `npm start` runs it: the global setup builds it when a source
// is newer (apps/api/test-support/compiled-api.ts).
const processProject = {
  ...apiProject,
  include: processTests,
  exclude: configDefaults.exclude,
  globalSetup: [...templateSetup, 'apps/api/test-support/compiled-api.ts'],
  maxWorkers: 2,
};

/**
 * The files that run 8 s or more, longest first (measured in the run of 2026-11-30 at 371c268;
 * a file not named here comes after these, in Vitest's order). Vitest starts the longest files
 * first when it has their times from an earlier run, and the largest otherwise (a clean clone, as
 * on CI): files whose source is short but which drive a table of states, or wait on deliveries,
 * came last, and a phase ended on one of them alone (states.test.ts ran 164 s after every other
 * browser file had ended; wallet-deliveries-processes.test.ts 29 s at the end of the API phase).
 */
const longFiles = [
  'e2e/guest/states.test.ts',
  'e2e/staff/loyalty.test.ts',
  'apps/api/src/wallet/deliveries/wallet-deliveries.test.ts',
  'apps/api/src/api-fuzz.test.ts',
  'e2e/guest/photo.test.ts',
  'e2e/staff/screens.test.ts',
  'e2e/staff/loyalty-rewards.test.ts',
  'e2e/guest/offline.test.ts',
  'e2e/guest/loyalty.test.ts',
  'apps/api/src/wallet/loyalty-pass.test.ts',
  'e2e/guest/loyalty-statement.test.ts',
  'e2e/staff/admin.test.ts',
  'e2e/guest/wristband.test.ts',
  'apps/api/src/platform/database-outage.test.ts',
  'apps/api/src/staff/loyalty/loyalty-exports.test.ts',
  // Before server.test.ts, which takes 30 s on PGlite but 5 s on PostgreSQL, this file's one database.
  'apps/api/src/wallet/deliveries/wallet-deliveries-processes.test.ts',
  'apps/api/src/server.test.ts',
  'e2e/staff/loyalty-campaigns.test.ts',
  'e2e/staff/dashboard.test.ts',
  'e2e/staff/demo-history.test.ts',
  'e2e/staff/privacy.test.ts',
  'e2e/guest/shares.test.ts',
  'e2e/guest/visits.test.ts',
  'e2e/staff/deliveries.test.ts',
  'apps/api/src/integrations/events/webhooks/webhooks.test.ts',
  'apps/api/src/demo/demo.test.ts',
  'apps/api/src/staff/resources/resources-fuzz.test.ts',
  'apps/api/src/integrations/integrations-fuzz.test.ts',
  'apps/api/src/wallet/deliveries/apple-push-fetches.test.ts',
  'e2e/guest/wallet.test.ts',
  'apps/api/src/ops/backup.test.ts',
  'e2e/staff/webhooks.test.ts',
  'e2e/guest/pass-states.test.ts',
  'apps/api/src/wallet/google/google-rate.test.ts',
  'apps/api/src/integrations/import.command.test.ts',
  'e2e/staff/park-settings.test.ts',
  'e2e/staff/login.test.ts',
  'apps/api/src/staff/auth/staff-seed.test.ts',
  'e2e/bundle-size.test.ts',
  'apps/api/src/integrations/events/webhooks/webhooks-processes.test.ts',
  'apps/api/src/platform/jobs/job-queue.test.ts',
  'apps/api/src/ops/metrics.test.ts',
  'e2e/guest/privacy.test.ts',
  'eslint.config.test.ts',
  'e2e/guest/stored-value.test.ts',
  'e2e/guest/first-screen.test.ts',
  'e2e/guest/loyalty-pass.test.ts',
  'e2e/staff/wristbands.test.ts',
  'apps/api/src/wallet/deliveries/park-waves.test.ts',
  'apps/api/src/loyalty/loyalty-campaigns.test.ts',
  'apps/api/src/integrations/email/mail-delivery.test.ts',
];

class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = longFiles.findIndex((path) => file.moduleId.endsWith(path));
      return at === -1 ? longFiles.length : at;
    };
    // Vitest runs the files in this order, a worker taking the next file of its own project
    // (another project's file needs a new worker): the projects stay in Vitest's order (by
    // sequence.groupOrder, then name), the long files first within each. (Array.sort is stable:
    // the other files keep Vitest's order.)
    const sorted = await super.sort(files);
    const projectAt = new Map<string, number>();
    sorted.forEach((file, at) => projectAt.has(file.project.name) || projectAt.set(file.project.name, at));
    return sorted.sort((a, b) => projectAt.get(a.project.name)! - projectAt.get(b.project.name)! || rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    // An API test file spends much of its time waiting (on PostgreSQL, a server process it
    // started, a delivery retry coming due): with two workers the API phase left 30 % of this
    // 2-core machine idle (530 s); three took 412 s (14 % idle). Since the browser tests run in
    // a Vitest process of their own after the API tests (scripts/test.mjs), the API files have
    // the machine to themselves: three workers 363 s, four 308 s (9 % idle), five 308 s. So two
    // workers more than the cores; the browser project sets its own.
    maxWorkers: availableParallelism() + 2,
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      {
        test: { name: 'unit', include: [...layoutTests, ...unitTests], env: { BW_UNIT_PROJECT: '1' }, isolate: false, testTimeout: 30_000 },
      },
      { test: { name: 'pglite', env: { TEST_DB: 'pglite' }, ...apiProject } },
      ...(withPostgres ? [{ test: { name: 'postgres', env: { TEST_DB: 'postgres' }, ...apiProject } }] : []),
      { test: { name: 'pglite-processes', env: { TEST_DB: 'pglite' }, ...processProject, sequence: { groupOrder: 1 } } },
      ...(withPostgres
        ? [{ test: { name: 'postgres-processes', env: { TEST_DB: 'postgres' }, ...processProject, sequence: { groupOrder: 1 } } }]
        : []),
      {
        test: {
          name: 'browser',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: { poll: pollOptions },
          // After the API files (a group of its own), three files side by side, each on its own
          // server (global-setup.ts): a browser test spends much of its time waiting on the page,
          // the server and Chromium, so one file at a time left a core idle, and two left the
          // machine idle at times (the browser project alone: 647 s with two, 578 s with three).
          sequence: { groupOrder: 2 },
          maxWorkers: 3,
        },
      },
    ],
  },
});
