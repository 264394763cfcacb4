#!/usr/bin/env node
// `npm test`: everything the project checks, in one command.
// build beside ESLint -> unit and API tests on PGlite and PostgreSQL -> browser tests, with the
// typechecks and Prettier beside the tests at the lowest priority; all on the project's Node.js
// (project-node.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { useProjectNode } from './project-node.mjs';

await useProjectNode();

// Debian packages the tests use: Chromium's headless shell for the browser tests
// (e2e/support/chromium.ts), zbarimg (zbar-tools) to decode the pass barcode from a screenshot
// the way a gate scanner would.
const debianPackages = [
  { path: '/usr/bin/chromium-headless-shell', pkg: 'chromium-headless-shell', name: "Chromium's headless shell" },
  { path: '/usr/bin/zbarimg', pkg: 'zbar-tools', name: 'zbarimg (zbar-tools)' },
  { path: '/usr/bin/pdftoppm', pkg: 'poppler-utils', name: 'pdftoppm (poppler-utils)' },
  // The Apple Wallet tests check passes without trusting the generator: unzip and openssl.
  { path: '/usr/bin/unzip', pkg: 'unzip', name: 'unzip' },
  { path: '/usr/bin/openssl', pkg: 'openssl', name: 'openssl' },
];

function ensureDebianPackages() {
  const missing = debianPackages.filter(({ path }) => !existsSync(path));
  if (missing.length === 0) return;
  const names = missing.map(({ name }) => name).join(' and ');
  const pkgs = missing.map(({ pkg }) => pkg);
  if (process.getuid?.() === 0) {
    console.log(`▶ installing ${names} from Debian packages (apt-get install ${pkgs.join(' ')})`);
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', ...pkgs], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    return;
  }
  console.error(
    `${names} ${missing.length === 1 ? 'is' : 'are'} missing. Install as root:  apt-get update && apt-get install -y ${pkgs.join(' ')}`,
  );
  process.exit(1);
}

function reachable(url, fallbackPort) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname || '127.0.0.1', port: Number(port || fallbackPort) });
    socket.setTimeout(2000);
    socket.once('connect', () => (socket.end(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/**
 * Runs a step with its output held, at the priority `nice` gives (Linux's: 0 as usual, 19 the
 * lowest): answers whether it passed and what it printed.
 */
function step(label, args, nice = 0) {
  return new Promise((resolve) => {
    const child = spawn('nice', ['-n', String(nice), 'npm', 'run', '--silent', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) => resolve({ label, passed: status === 0, output: Buffer.concat(output) }));
  });
}

const printStep = ({ label, passed, output }) => {
  console.log(`\n▶ ${label}`);
  process.stdout.write(output);
  if (!passed) console.error(`✖ ${label} failed`);
};

ensureDebianPackages();
// The production build comes first: the API tests serve the built web app (web.test.ts,
// compression.test.ts) and start the compiled server (server.test.ts), the browser tests drive
// it. ESLint runs beside it, one core each.
const before = await Promise.all([step('build', ['build']), step('lint (ESLint)', ['lint:code'])]);
before.forEach(printStep);
if (!before[0].passed) process.exit(1);
// The typechecks and Prettier (no test needs them) run beside the tests at the lowest priority:
// they take the CPU the tests leave idle (an API file waiting on PostgreSQL, a retry, a server it
// started; the browser tests' servers starting) and yield it whenever a test wants it. Before
// the tests, one core each in two chains, they held the tests back: the whole set-up took 102 s
// alone on a slow machine, the build beside ESLint 34 s of it (2026-11-30). A check beside an API
// file at nice 19 left the file's time unchanged (api-fuzz.test.ts: 42.7 s alone, 42.8 s beside
// two typechecks that took the idle core). Their outputs are printed after the tests'.
const chain = async (...steps) => {
  const results = [];
  for (const [label, args] of steps) results.push(await step(label, args, 19));
  return results;
};
const checks = Promise.all([
  chain(['typecheck (contract, database, API, benches)', ['typecheck:server']]),
  chain(
    ['typecheck (web, service worker, browser tests, browser benches)', ['typecheck:rest']],
    ['format check (Prettier)', ['lint:format']],
  ),
]).then((chains) => chains.flat());

const env = {};
const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
if (!(await reachable(pgUrl, 5432))) {
  console.warn(`\n⚠ PostgreSQL is not reachable at ${pgUrl}: the API tests run on PGlite only. Set TEST_DATABASE_URL.`);
  env.BW_SKIP_POSTGRES = '1';
}
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
if (!(await reachable(redisUrl, 6379))) {
  console.warn(`\n⚠ Redis is not reachable at ${redisUrl}: the shared-throttle tests are skipped. Set TEST_REDIS_URL.`);
  env.BW_SKIP_REDIS = '1';
}

mkdirSync('.tmp', { recursive: true });
// Two Vitest runs, one after the other: the browser project's global setup starts its servers
// when its run begins, not beside the API files, where they sat idle for the whole
// API phase (polling their job queues) on a machine whose cores that phase keeps busy.
const runs = [
  {
    name: 'api',
    label: 'unit and API tests',
    projects: ['unit', 'pglite', 'pglite-processes', ...(env.BW_SKIP_POSTGRES ? [] : ['postgres', 'postgres-processes'])],
  },
  { name: 'browser', label: 'browser tests', projects: ['browser'] },
];
/** The start of a failure's message: what failed and where, without the whole stack. */
const firstLines = (message) => message.split('\n').slice(0, 6).join('\n  ');
const totals = { passed: 0, failed: 0, skipped: 0 };
// The failed tests are named again after the totals: CI keeps the end of a long output.
const failures = [];
let status = 0;
for (const run of runs) {
  const report = `.tmp/vitest-${run.name}.json`;
  rmSync(report, { force: true });
  console.log(`\n▶ ${run.label}`);
  const projects = run.projects.flatMap((project) => ['--project', project]);
  // Not spawnSync: the checks beside need this process's event loop (their output, the next step).
  const tests = spawn('npx', ['vitest', 'run', ...projects, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  const testsStatus = await new Promise((resolve) => tests.on('close', (code) => resolve(code ?? 1)));
  if (testsStatus !== 0) status = testsStatus;
  if (!existsSync(report)) continue;
  const r = JSON.parse(readFileSync(report, 'utf8'));
  if (testsStatus !== 0 && r.numFailedTests === 0)
    console.log(`\n✖ Vitest failed outside the ${run.label} (unhandled errors or a failed setup): see above`);
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests + r.numTodoTests;
  for (const file of r.testResults)
    for (const test of file.assertionResults)
      if (test.status === 'failed')
        failures.push(`${path.relative('.', file.name)} > ${test.fullName}\n  ${firstLines(test.failureMessages.join('\n'))}`);
}
const checked = await checks;
checked.forEach(printStep);
const failedChecks = [...before, ...checked].filter((check) => !check.passed);
if (failedChecks.length > 0) status ||= 1;
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
for (const check of failedChecks) console.log(`✖ ${check.label} failed (its output is above)`);
for (const failure of failures) console.log(`✖ ${failure}`);
process.exit(status);
