// npm run bench:axe: what an accessibility check of the browser tests (expectNoAxeViolations in
// e2e/support/browser.ts) costs the machine, on the pass page, checked at phone and desktop width
// as a state of states.test.ts is. The baseline is AxeBuilder as it comes, which sends axe-core's
// source through the browser connection at every check (twice in legacy mode); the other side is
// axeViolations (e2e/support/axe.ts), which loads the minified source into the document once.
// Both sides run in rounds, one after the other, in one browser on one server; the figure is the
// machine's CPU (from /proc/stat: the browser, the server and this process).
//
//   BENCH_RUNS=8      documents per side and round (two checks each)
//   BENCH_ROUNDS=3    rounds
// Run `npm run build` first: the server (e2e/support/server-process.ts) serves apps/web/dist.
import { existsSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Page } from 'playwright-core';
import { axeViolations } from '../e2e/support/axe.ts';
import { chromiumOptions } from '../e2e/support/chromium.ts';
import { startServerProcess } from '../e2e/support/server-process.ts';
import { benchHeader, machineBusySeconds, openDemoPass, positiveNumber, printSides } from './bench-support.ts';

const RUNS = positiveNumber('BENCH_RUNS', 8);
const ROUNDS = positiveNumber('BENCH_ROUNDS', 3);

async function openPassPage(page: Page) {
  await page.setViewportSize({ width: 360, height: 780 });
  await openDemoPass(page);
}

const sides = [
  {
    name: 'AxeBuilder sending the source at each check (baseline)',
    check: async (page: Page) =>
      (
        await new AxeBuilder({ page })
          .setLegacyMode(true)
          .options({ resultTypes: ['violations'] })
          .analyze()
      ).violations,
    cpu: 0,
    ms: 0,
  },
  { name: 'axe loaded once per document', check: axeViolations, cpu: 0, ms: 0 },
];

async function main() {
  if (!existsSync(new URL('../apps/web/dist/index.html', import.meta.url))) throw new Error('no built app: run "npm run build" first');
  console.log(benchHeader('bench:axe', `${RUNS} pass pages checked at 360 and 1280 px per side and round, ${ROUNDS} rounds`));
  const server = await startServerProcess({});
  const browser = await chromium.launch(chromiumOptions());
  try {
    const context = await browser.newContext({ baseURL: server.baseUrl, serviceWorkers: 'block' });
    const page = await context.newPage();
    // Warm-up: a document of each side, not counted.
    for (const side of sides) {
      await openPassPage(page);
      await side.check(page);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of sides) {
        for (let i = 0; i < RUNS; i++) {
          await openPassPage(page);
          const [cpu, start] = [machineBusySeconds(), performance.now()];
          await side.check(page);
          await page.setViewportSize({ width: 1280, height: 900 });
          await side.check(page);
          side.cpu += machineBusySeconds() - cpu;
          side.ms += performance.now() - start;
        }
      }
    }
    printSides(sides, RUNS * ROUNDS * 2, 'check');
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
