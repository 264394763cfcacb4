// npm run bench:offline: how fast a pass shown once opens with no network (the goal:
// the card, its barcode and the offline note within 1 s). The real app serving the production
// build with the demo data, in Debian's Chromium through playwright-core (a phone-sized page):
// each run opens the page online in a fresh browser context (the service worker installs, the
// page keeps its copy), goes offline (Playwright's offline mode) and reloads, and takes the
// page's own clock from the navigation to the moment the card, the barcode graphic and the
// note are all on screen. Prints each run, the median and the slowest per page, with the
// machine's load average (the figure is mostly CPU: the worker's start and React's hydration).
//
//   BENCH_RUNS=5      runs per page
//   CHROMIUM_PATH=…   the browser (default as the tests: e2e/support/chromium.ts)
// Run `npm run build` first: it measures apps/web/dist as it is. The server runs as a process of
// its own (e2e/support/server-process.ts: production mode, a fresh data folder, the demo data).
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { chromium, type Page } from 'playwright-core';
import { chromiumOptions } from '../e2e/support/chromium.ts';
import { reloadOffline, storedCopies, workerReady } from '../e2e/support/offline.ts';
import { startServerProcess } from '../e2e/support/server-process.ts';
import { fmt, positiveNumber } from './bench-support.ts';

const RUNS = positiveNumber('BENCH_RUNS', 5);
const GOAL_MS = 1000;

async function storedValuePath(base: string) {
  const res = await fetch(`${base}/api/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId: '10000002', barcode: '3500000000000028', isIOS: false }),
  });
  const { barcodeHash } = (await res.json()) as { barcodeHash?: string };
  if (!res.ok || !barcodeHash) throw new Error(`the demo card's login answered ${res.status} without a barcodeHash`);
  return `/stored-value/${barcodeHash}`;
}

/** The pages: how to reach each, and the element its barcode sits in. */
const PAGES: { name: string; path: (base: string) => string | Promise<string>; card: string }[] = [
  { name: 'a pass (10000001, a passholder)', path: () => '/10000001/2400000000000011', card: 'article.pass-card' },
  { name: 'the stored-value page (3500000000000028)', path: storedValuePath, card: '.stored-value__card' },
];

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

async function main() {
  if (!existsSync(new URL('../apps/web/dist/index.html', import.meta.url))) throw new Error('no built app: run "npm run build" first');
  const server = await startServerProcess({ ADMIN_PASSWORD: 'bench-offline-admin-0123' });
  const browser = await chromium.launch(chromiumOptions());
  try {
    const base = server.baseUrl;
    console.log(`offline pass: ${RUNS} run(s) per page, ${base}, goal ${GOAL_MS} ms\n`);
    for (const target of PAGES) {
      const path = await target.path(base);
      console.log(`${target.name}: ${path}, load average ${load()}`);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({ baseURL: base, viewport: { width: 360, height: 780 }, locale: 'en-US' });
        try {
          const page: Page = await context.newPage();
          await page.goto(path);
          await page.locator(`${target.card} .pass-card__barcode svg`).waitFor();
          await workerReady(page);
          for (let waited = 0; (await storedCopies(page)).length === 0; waited += 50) {
            if (waited > 10_000) throw new Error(`${path}: the page kept no copy`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          const ms = await reloadOffline(page, context, target.card);
          times.push(ms);
          console.log(`  run ${i + 1}: ${fmt(ms)} ms`);
        } finally {
          await context.close();
        }
      }
      const sorted = [...times].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
      const slowest = sorted.at(-1) ?? NaN;
      console.log(
        `  median ${fmt(median)} ms, slowest ${fmt(slowest)} ms (goal ${GOAL_MS} ms: median ${fmt(median / GOAL_MS, 2)} of it); load average now ${load()}\n`,
      );
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
