// npm run bench:guest-tabs: what a guest tab handed from test to test (guestTabs in
// e2e/support/browser.ts) costs the machine for each state: the wipe, then the login page
// opened again. The wipe replaces the app's document with a file of its own origin (/logo.svg);
// the baseline is the wipe through about:blank it replaced, which made Chromium start a renderer
// for the origin at each state. Both sides run in rounds, one after the other, in one browser on
// one server; the figure is the machine's CPU (from /proc/stat: the browser, the server and this
// process), since the cost is in Chromium's processes, not in this one.
//
//   BENCH_RUNS=12     wipes and loads per side and round
//   BENCH_ROUNDS=3    rounds
// Run `npm run build` first: the server (e2e/support/server-process.ts) serves apps/web/dist.
import { existsSync } from 'node:fs';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { chromiumOptions } from '../e2e/support/chromium.ts';
import { startServerProcess } from '../e2e/support/server-process.ts';
import { benchHeader, machineBusySeconds, positiveNumber, printSides } from './bench-support.ts';

const RUNS = positiveNumber('BENCH_RUNS', 12);
const ROUNDS = positiveNumber('BENCH_ROUNDS', 3);

/** guestTabs' wipe, through `blank`, then the login page as a state opens it. */
async function wipeAndOpen(context: BrowserContext, page: Page, origin: string, blank: string) {
  await page.evaluate(() => sessionStorage.clear());
  await page.goto(blank);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
  await cdp.detach();
  await context.clearCookies();
  await page.goto('/');
  await page.getByRole('heading', { level: 1, name: 'Find Your Pass' }).waitFor();
}

async function main() {
  if (!existsSync(new URL('../apps/web/dist/index.html', import.meta.url))) throw new Error('no built app: run "npm run build" first');
  console.log(benchHeader('bench:guest-tabs', `${RUNS} wipes and login pages per side and round, ${ROUNDS} rounds`));
  const server = await startServerProcess({});
  const browser = await chromium.launch(chromiumOptions());
  try {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 360, height: 780 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    const sides = [
      { name: 'through about:blank (baseline)', blank: 'about:blank', cpu: 0, ms: 0 },
      { name: "through the app's /logo.svg", blank: '/logo.svg', cpu: 0, ms: 0 },
    ];
    await page.goto('/');
    // Warm-up: a state of each side, not counted.
    for (const side of sides) await wipeAndOpen(context, page, server.baseUrl, side.blank);
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of sides) {
        const [cpu, start] = [machineBusySeconds(), performance.now()];
        for (let i = 0; i < RUNS; i++) await wipeAndOpen(context, page, server.baseUrl, side.blank);
        side.cpu += machineBusySeconds() - cpu;
        side.ms += performance.now() - start;
      }
    }
    printSides(sides, RUNS * ROUNDS, 'state');
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
