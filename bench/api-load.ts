// npm run bench:api-load: what a process that loads the API costs before it does anything (the
// server, a worker, `npm run import`, every API test worker and test server): a new Node.js
// process imports apps/api/src/app.ts through tsx, as the tests and the development server do.
// The baseline also imports date-fns' index, as the API did until it took each function from its
// own module (eslint.config.js): Node resolves each of the index's 300 modules through date-fns'
// 199 KB package.json. Both sides run in rounds, one after the other; the figure is the child
// process's own CPU (user and system) from its start to the end of the import.
//
//   BENCH_RUNS=4      processes per side and round
//   BENCH_ROUNDS=3    rounds
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchHeader, positiveNumber, printSides } from './bench-support.ts';

const RUNS = positiveNumber('BENCH_RUNS', 4);
const ROUNDS = positiveNumber('BENCH_ROUNDS', 3);
const root = fileURLToPath(new URL('..', import.meta.url));

/** A new process imports the API (after date-fns' index, withIndex) and answers its CPU seconds since it started. */
function loadApi(withIndex: boolean): { cpu: number; ms: number } {
  const script = `${withIndex ? "await import('date-fns');" : ''}
    await import('./apps/api/src/app.ts');
    const { user, system } = process.cpuUsage();
    console.log(JSON.stringify({ cpu: (user + system) / 1e6 }));`;
  const start = performance.now();
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { cwd: root, encoding: 'utf8' });
  const ms = performance.now() - start;
  if (child.status !== 0) throw new Error(`the API did not load: ${child.stderr}`);
  return { cpu: (JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { cpu: number }).cpu, ms };
}

console.log(benchHeader('bench:api-load', `${RUNS} processes loading the API per side and round, ${ROUNDS} rounds`));
const sides = [
  { name: "the API and date-fns' index (baseline)", withIndex: true, cpu: 0, ms: 0 },
  { name: 'the API, date-fns by function', withIndex: false, cpu: 0, ms: 0 },
];
// Warm-up: a process of each side, not counted (tsx's cache of compiled files, the disk's).
for (const side of sides) loadApi(side.withIndex);
for (let round = 0; round < ROUNDS; round++) {
  for (const side of sides) {
    for (let i = 0; i < RUNS; i++) {
      const { cpu, ms } = loadApi(side.withIndex);
      side.cpu += cpu;
      side.ms += ms;
    }
  }
}
printSides(sides, RUNS * ROUNDS, 'process', "the process's CPU");
