// npm run bench:lighthouse: the guest pages as a phone at the gate loads them. Lighthouse
// (mobile preset: simulated slow 4G, 4x slower CPU) in Debian's Chromium against the real
// app serving the production build with the demo data, on the login page and a pass page
// (order 10000002, barcode 3500000000000028). Prints the median of each score and of FCP,
// LCP and TBT over the runs, beside the figures of the issue before the work (issue 16)
// and the ratio to them. Goal: performance >= 95, accessibility and best practices 100.
//
//   BENCH_RUNS=3                     runs per page
//   CHROME_PATH=/usr/bin/chromium    the browser
// Run `npm run build` first: it measures apps/web/dist as it is.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { createTestDatabase } from '@boardwalk/db/test-support/test-database';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { webDist } from '../apps/api/src/platform/web.plugin.ts';
import { fmt, positiveNumber } from './bench-support.ts';

const RUNS = positiveNumber('BENCH_RUNS', 3);
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  /** milliseconds */
  fcp: number;
  lcp: number;
  tbt: number;
}

const PAGES: { name: string; path: string; baseline: Figures }[] = [
  { name: '/ (login)', path: '/', baseline: { performance: 60, accessibility: 100, bestPractices: 96, fcp: 4500, lcp: 4700, tbt: 460 } },
  {
    name: '/10000002/3500000000000028 (a pass)',
    path: '/10000002/3500000000000028',
    baseline: { performance: 58, accessibility: 100, bestPractices: 96, fcp: 4500, lcp: 5500, tbt: 410 },
  },
];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function audit(url: string, port: number): Promise<Figures> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { categories, audits, runtimeError } = result.lhr;
  if (runtimeError) throw new Error(`Lighthouse: ${runtimeError.code} ${runtimeError.message}`);
  const score = (id: string) => Math.round((categories[id]?.score ?? NaN) * 100);
  const ms = (id: string) => audits[id]?.numericValue ?? NaN;
  for (const id of ['performance', 'accessibility', 'best-practices']) {
    const failing = Object.values(result.lhr.audits).filter(
      (a) => a.score !== null && a.score < 1 && categories[id]?.auditRefs.some((r) => r.id === a.id && r.weight > 0),
    );
    if (failing.length && id !== 'performance') console.log(`  ${id}: ${failing.map((a) => a.id).join(', ')}`);
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcp: ms('first-contentful-paint'),
    lcp: ms('largest-contentful-paint'),
    tbt: ms('total-blocking-time'),
  };
}

async function main() {
  if (!existsSync(join(webDist, 'index.html'))) throw new Error('no built app: run "npm run build" first');
  const dataDir = mkdtempSync(join(tmpdir(), 'boardwalk-bench-lighthouse-'));
  const database = await createTestDatabase('pglite', 5);
  const app = await buildApp({
    config: loadConfig({ DEMO_DATA: 'true', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ADMIN_PASSWORD: 'bench-lighthouse-admin-0123' }),
    database,
    logger: false,
  });
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    console.log(`Lighthouse ${RUNS} run(s) per page, mobile preset, ${CHROME_PATH}, ${base}\n`);
    for (const page of PAGES) {
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i++) {
        const figures = await audit(`${base}${page.path}`, chrome.port);
        runs.push(figures);
        console.log(`  run ${i + 1}: ${JSON.stringify(figures, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v) : v))}`);
      }
      console.log(`\n${page.name}, median of ${RUNS}`);
      console.log(`  ${'figure'.padEnd(16)}${'now'.padStart(10)}${'before'.padStart(10)}${'ratio'.padStart(8)}`);
      for (const key of Object.keys(page.baseline) as (keyof Figures)[]) {
        const now = median(runs.map((r) => r[key]));
        const before = page.baseline[key];
        const isTime = ['fcp', 'lcp', 'tbt'].includes(key);
        const show = (n: number) => (isTime ? `${fmt(n)} ms` : fmt(n));
        console.log(`  ${key.padEnd(16)}${show(now).padStart(10)}${show(before).padStart(10)}${fmt(now / before, 2).padStart(8)}`);
      }
      console.log('');
    }
  } finally {
    chrome.kill();
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
