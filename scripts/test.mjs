#!/usr/bin/env node
// `npm test`: everything the project checks, in one command, on the project's Node.js
// (project-node.mjs): the typecheck beside the lint and the build, then the unit and API
// tests on PGlite and PostgreSQL beside the browser tests.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { useProjectNode } from './project-node.mjs';

await useProjectNode();

// Debian packages the tests use: Chromium for the browser tests, zbarimg (zbar-tools) to
// decode the pass barcode from a screenshot the way a gate scanner would.
const debianPackages = [
  { path: '/usr/bin/chromium', pkg: 'chromium', name: 'Chromium' },
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
 * Runs a command; answers whether it passed and its output (stdout and stderr as they came),
 * or with `live` passes its output through as it comes.
 */
function run(command, args, { env = {}, live = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'],
      env: { ...process.env, ...env },
    });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) => resolve({ passed: status === 0, output: Buffer.concat(output) }));
  });
}

/** What failed, named again at the end. */
const failures = [];

/** Prints a finished step: its output, and whether it failed. */
function report(label, { passed, output }, live = false) {
  if (!live) {
    console.log(`\n▶ ${label}`);
    process.stdout.write(output);
  }
  if (!passed) {
    console.error(`✖ ${label} failed`);
    failures.push(label);
  }
  return passed;
}

/** An npm script with its output held, printed whole when it ends: answers whether it passed. */
const step = async (label, script) => report(label, await run('npm', ['run', '--silent', script]));

/** Vitest on some projects, writing its JSON report to `file`. */
const vitest = (projects, file, options) =>
  run(
    'npx',
    [
      'vitest',
      'run',
      ...projects.flatMap((name) => ['--project', name]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${file}`,
    ],
    options,
  );

ensureDebianPackages();

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
for (const file of ['.tmp/vitest-api.json', '.tmp/vitest-browser.json']) rmSync(file, { force: true });

// The typecheck beside the lint and the build; then, once built, the browser tests (they serve
// the build) beside the layout and API tests (some run the compiled server and the built web
// app). Much of an API or browser test's time is spent waiting (on PostgreSQL, a server
// process, Chromium, a delivery retry coming due), which the other line fills: on two cores
// this takes minutes off the run. The API tests' output comes as they run; the browser tests'
// is printed once they are done, after the API tests', so the two never mix.
const runs = [];
await Promise.all([
  step('typecheck', 'typecheck'),
  step('lint', 'lint').then(async (linted) => {
    if (!linted || !(await step('build', 'build'))) return false;
    console.log('\n▶ layout and API tests');
    const apiProjects = ['layout', 'pglite', ...(env.BW_SKIP_POSTGRES ? [] : ['postgres'])];
    const api = '.tmp/vitest-api.json';
    const browser = '.tmp/vitest-browser.json';
    runs.push(
      { label: 'layout and API tests', live: true, report: api, result: vitest(apiProjects, api, { env, live: true }) },
      { label: 'browser tests', live: false, report: browser, result: vitest(['browser'], browser, { env }) },
    );
    return true;
  }),
]);
if (runs.length === 0) failures.push('tests (not run: the lint or the build failed)');

const totals = { passed: 0, failed: 0, skipped: 0 };
// In order: the API tests' output came live; the browser tests' is printed once they are done.
for (const { label, live, report: file, result } of runs) {
  const finished = await result;
  report(label, finished, live);
  if (!existsSync(file)) continue;
  const r = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests + r.numTodoTests;
  if (!finished.passed && r.numFailedTests === 0)
    console.log(`\n✖ ${label}: Vitest failed outside the tests (unhandled errors or a failed setup): see above`);
}
if (failures.length > 0) console.error(`\n✖ failed: ${failures.join(', ')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length === 0 ? 0 : 1);
