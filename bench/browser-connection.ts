// npm run bench:browser-connection: what the way a browser test file reaches Chromium costs the
// machine for each state of a guest page (the login page opened, the demo pass looked up, its card
// shown, axe run on it). The tests launch a Chromium per file and Playwright drives it from the
// test's own process (launchBrowser in e2e/support/browser.ts); the baseline is how they reached
// it until 2026-11-29: one Chromium of the run launched by another process (the global setup, in
// Vitest's main process) with launchServer, each file connected to it, every call relayed by that
// process. Both browsers are started before the rounds, which alternate; the figure is the
// machine's CPU (from /proc/stat: Chromium, the server, the relaying process and this one). A
// launch, which the tests now pay once per file, is measured apart (three launches and closes).
//
//   BENCH_RUNS=10     states per side and round
//   BENCH_ROUNDS=3    rounds
// Run `npm run build` first: the server (e2e/support/server-process.ts) serves apps/web/dist.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { axeViolations } from '../e2e/support/axe.ts';
import { chromiumOptions } from '../e2e/support/chromium.ts';
import { startServerProcess } from '../e2e/support/server-process.ts';
import { benchHeader, machineBusySeconds, openDemoPass, positiveNumber, printSides } from './bench-support.ts';

const RUNS = positiveNumber('BENCH_RUNS', 10);
const ROUNDS = positiveNumber('BENCH_ROUNDS', 3);
const LAUNCHES = 3;
const root = fileURLToPath(new URL('..', import.meta.url));

/** Another process that launches Chromium with launchServer, as the global setup did: answers its endpoint. */
async function relayProcess() {
  const script = `import { chromium } from 'playwright-core';
    import { chromiumOptions } from './e2e/support/chromium.ts';
    const server = await chromium.launchServer(chromiumOptions());
    console.log(server.wsEndpoint());
    process.stdin.on('end', () => server.close().then(() => process.exit(0)));
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const stop = () => child.stdin.end();
  // Its first line is the endpoint (a chunk may end before the line does), unless it ends first.
  const line = once(createInterface({ input: child.stdout }), 'line').then(([endpoint]) => endpoint as string);
  const exit = once(child, 'exit').then(([code]) => {
    throw new Error(`the relay process ended (${String(code)}) before Chromium was launched`);
  });
  // Its end when stopped, later, is expected: handled here, still a failure for the race.
  exit.catch(() => undefined);
  return { endpoint: await Promise.race([line, exit]), stop };
}

/** A guest state in a context of its own, as a state of states.test.ts is checked: the demo pass looked up, then axe. */
async function openState(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 360, height: 780 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  await openDemoPass(page);
  if ((await axeViolations(page)).length > 0) throw new Error('the pass page has axe violations');
  await context.close();
}

async function main() {
  if (!existsSync(new URL('../apps/web/dist/index.html', import.meta.url))) throw new Error('no built app: run "npm run build" first');
  console.log(benchHeader('bench:browser-connection', `${RUNS} guest states per side and round, ${ROUNDS} rounds`));
  const server = await startServerProcess({});
  const open: { close(): unknown }[] = [server];
  try {
    const relay = await relayProcess();
    open.push({ close: relay.stop });
    // What the tests pay once per file: a few launches, the machine's CPU and the wall time.
    const [launchCpu, launchStart] = [machineBusySeconds(), performance.now()];
    for (let i = 0; i < LAUNCHES; i++) await (await chromium.launch(chromiumOptions())).close();
    const perLaunch = (machineBusySeconds() - launchCpu) / LAUNCHES;
    console.log(
      `a launch and close: ${perLaunch.toFixed(3)} s of the machine's CPU and ${Math.round((performance.now() - launchStart) / LAUNCHES)} ms`,
    );
    const own = await chromium.launch(chromiumOptions());
    open.push(own);
    const connected = await chromium.connect(relay.endpoint);
    open.push(connected);
    const sides = [
      { name: "one Chromium of the run, through another process's launchServer (baseline)", browser: connected, cpu: 0, ms: 0 },
      { name: "the file's own Chromium, launched in its process", browser: own, cpu: 0, ms: 0 },
    ];
    // Warm-up: a state of each side, not counted.
    for (const side of sides) await openState(side.browser, server.baseUrl);
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of sides) {
        const [cpu, start] = [machineBusySeconds(), performance.now()];
        for (let i = 0; i < RUNS; i++) await openState(side.browser, server.baseUrl);
        side.cpu += machineBusySeconds() - cpu;
        side.ms += performance.now() - start;
      }
    }
    printSides(sides, RUNS * ROUNDS, 'state');
  } finally {
    // What was opened, last first: the browsers, the relay, the server.
    for (const handle of open.reverse()) await Promise.resolve(handle.close()).catch(() => undefined);
  }
}

await main();
