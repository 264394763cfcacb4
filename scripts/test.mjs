#!/usr/bin/env node
// `npm test`: everything the project checks, in one command.
// typecheck beside (lint -> build) -> unit and API tests on PGlite and PostgreSQL -> browser
// tests, all on the project's Node.js (project-node.mjs).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
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

/** Runs a step with its output held, printed whole when it ends: answers whether it passed. */
function step(label, args) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) => {
      console.log(`\n▶ ${label}`);
      process.stdout.write(Buffer.concat(output));
      if (status !== 0) console.error(`✖ ${label} failed`);
      resolve(status === 0);
    });
  });
}

ensureDebianPackages();
// tsc, ESLint, Prettier and Vite each keep one core busy: two chains side by side, of about the
// same time (measured 2026-11-30 on a slow machine, alone: ESLint 34 s, then the Node side's
// typecheck 31 s; the build 25 s, then the rest's typecheck 27 s and Prettier 18 s). One
// typecheck beside the lint and the build ran about 30 s alone at the end; three steps at once
// made the last one wait for the other two.
const chain = async (...steps) => {
  let passed = true;
  for (const [label, args] of steps) passed = (await step(label, args)) && passed;
  return passed;
};
const steps = await Promise.all([
  chain(['lint (ESLint)', ['lint:code']], ['typecheck (contract, database, API, benches)', ['typecheck:server']]),
  chain(
    ['build', ['build']],
    ['typecheck (web, service worker, browser tests, browser benches)', ['typecheck:rest']],
    ['format check (Prettier)', ['lint:format']],
  ),
]);
if (!steps.every(Boolean)) process.exit(1);

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
    projects: ['layout', 'unit', 'pglite', 'pglite-processes', ...(env.BW_SKIP_POSTGRES ? [] : ['postgres', 'postgres-processes'])],
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
  const tests = spawnSync('npx', ['vitest', 'run', ...projects, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (tests.status !== 0) status = tests.status ?? 1;
  if (!existsSync(report)) continue;
  const r = JSON.parse(readFileSync(report, 'utf8'));
  if (tests.status !== 0 && r.numFailedTests === 0)
    console.log(`\n✖ Vitest failed outside the ${run.label} (unhandled errors or a failed setup): see above`);
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests + r.numTodoTests;
  for (const file of r.testResults)
    for (const test of file.assertionResults)
      if (test.status === 'failed')
        failures.push(`${path.relative('.', file.name)} > ${test.fullName}\n  ${firstLines(test.failureMessages.join('\n'))}`);
}
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
for (const failure of failures) console.log(`✖ ${failure}`);
process.exit(status);
