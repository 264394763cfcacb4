// What every benchmark here shares: settings from the environment, number formatting, and
// whether PostgreSQL can be measured.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { defaultPoolSize } from '@boardwalk/db/client';
import type { Page } from 'playwright-core';

/** The app's PostgreSQL pool as production runs it (createDb's default), or DATABASE_POOL_SIZE. */
export const benchPoolSize = () => positiveNumber('DATABASE_POOL_SIZE', defaultPoolSize());

/** A positive number from the environment, or the fallback when unset. */
export function positiveNumber(name: string, fallback: number) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not "${raw}"`);
  return value;
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A concurrent run's figures: calls per second, and the latency percentiles in ms (of `times`, each call's). */
export interface ConcurrentFigures {
  name: string;
  perSecond: number;
  p50: number;
  p99: number;
  seconds: number;
  times: number[];
  /** CPU time of this process over the run, in µs (all its threads): where a run's time went, beside the machine's load. */
  cpuMicros: number;
  /** CPU time of PostgreSQL's processes on this machine over the run, in µs, or null where /proc does not tell it. */
  databaseCpuMicros: number | null;
}

/** The figures of `times.length` calls that took `seconds` and `cpuMicros` of this process's CPU in all. */
export function concurrentFigures(
  name: string,
  seconds: number,
  times: number[],
  cpuMicros: number,
  databaseCpuMicros: number | null = null,
): ConcurrentFigures {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    name,
    perSecond: sorted.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    seconds,
    times: sorted,
    cpuMicros,
    databaseCpuMicros,
  };
}

/** The CPU time (user and system, µs) this process has used since `start` (a process.cpuUsage()). */
export function cpuMicrosSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

/**
 * CPU time (user + system, µs) a process has used, from /proc (Linux): a process measured from
 * outside, so its own work is not disturbed. Null elsewhere.
 */
export function processCpuMicros(pid: number): number | null {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / clockTicks;
  } catch {
    return null;
  }
}

/** USER_HZ: what /proc counts CPU time in. */
const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The CPU time (µs) of each PostgreSQL process on this machine (its backends among them), by pid, from /proc; null where /proc does not tell it. */
export function postgresCpu(): Map<number, number> | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  const cpu = new Map<number, number>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const micros = processCpuMicros(Number(entry));
      if (micros !== null) cpu.set(Number(entry), micros);
    } catch {
      // The process ended while the list was read.
    }
  }
  return cpu.size > 0 ? cpu : null;
}

/**
 * The CPU time (µs) PostgreSQL's processes have used since `before` (a postgresCpu()): a process
 * started since counts whole, one that ended since is missed (the benches' pools keep their
 * connections open while they measure). Null where /proc does not tell it. Every PostgreSQL
 * process on the machine counts: the benches expect nothing else to be using it.
 */
export function postgresCpuMicrosSince(before: Map<number, number> | null): number | null {
  const now = postgresCpu();
  if (!before || !now) return null;
  let total = 0;
  for (const [pid, micros] of now) total += micros - (before.get(pid) ?? 0);
  return total;
}

/**
 * Runs work; with BENCH_CPU_PROF=dir, under V8's CPU profiler, written to dir/<name>.cpuprofile
 * (for benches whose app runs in their own process; load-driver profiles its server process).
 */
export async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    await mkdir(resolve(dir), { recursive: true });
    await writeFile(join(resolve(dir), `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/** Runs `count` calls, `concurrency` at a time; each call's latency is kept. */
export async function runConcurrently(
  name: string,
  count: number,
  concurrency: number,
  call: (i: number) => Promise<void>,
): Promise<ConcurrentFigures> {
  const times: number[] = [];
  let next = 0;
  const database = postgresCpu();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) {
        const t0 = performance.now();
        await call(i);
        times.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const cpuMicros = cpuMicrosSince(cpu);
  return concurrentFigures(name, seconds, times, cpuMicros, postgresCpuMicrosSince(database));
}

export type Call = (i: number) => Promise<void>;

/**
 * Two sides measured alike: each is warmed up first with `warmUp` calls of its own (numbered
 * from `count` on, not counted: the JIT, the pools' connections, the statement caches; both
 * sides alike, so that the ratio compares steady states), then the `count` measured calls
 * (numbered 0 to count - 1) run interleaved in `rounds` rounds (one side's share, then the
 * other's, and again), so that a machine whose load changes during the run weighs on both
 * alike. Each side's figures are over all its measured calls.
 */
export async function interleaved(
  sides: [[name: string, call: Call], [name: string, call: Call]],
  { count, concurrency, rounds, warmUp }: { count: number; concurrency: number; rounds: number; warmUp: number },
) {
  for (const [name, call] of sides) await runConcurrently(name, warmUp, concurrency, (i) => call(count + i));
  const done = sides.map(() => ({ seconds: 0, times: [] as number[], cpu: 0, database: 0 as number | null }));
  for (let round = 0; round < rounds; round++) {
    const from = Math.floor((round * count) / rounds);
    const share = Math.floor(((round + 1) * count) / rounds) - from;
    for (const [s, [name, call]] of sides.entries()) {
      const figures = await runConcurrently(name, share, concurrency, (i) => call(from + i));
      done[s]!.seconds += figures.seconds;
      done[s]!.times.push(...figures.times);
      done[s]!.cpu += figures.cpuMicros;
      done[s]!.database =
        done[s]!.database === null || figures.databaseCpuMicros === null ? null : done[s]!.database + figures.databaseCpuMicros;
    }
  }
  const [first, second] = sides.map(([name], s) =>
    concurrentFigures(name, done[s]!.seconds, done[s]!.times, done[s]!.cpu, done[s]!.database),
  );
  return [first!, second!] as const;
}

export interface Measurement {
  name: string;
  count: number;
  perSecond: number;
  median: number;
  p90: number;
  p99: number;
  min: number;
  /** CPU time of this process per call (all its threads): what other processes' load does not inflate. */
  cpu: number;
}

/**
 * Calls `once` one call at a time: a warm-up of 1 s (at least one call), then `seconds` of
 * measurement. `check` throws when an answer is wrong, which ends the run.
 */
export async function measureSequential<T>(
  name: string,
  seconds: number,
  once: () => Promise<T>,
  check: (answer: T) => void,
): Promise<Measurement> {
  const warmUntil = performance.now() + 1000;
  do check(await once());
  while (performance.now() < warmUntil);
  const end = performance.now() + seconds * 1000;
  return measureCalls(name, () => performance.now() < end, once, check);
}

/**
 * Calls `once(i)` one call at a time while `more(i)` says so, with no warm-up: for calls that
 * each use up what they act on (an erasure), so the caller seeds one subject per call.
 */
export async function measureCalls<T>(
  name: string,
  more: (i: number) => boolean,
  once: (i: number) => Promise<T>,
  check: (answer: T) => void,
): Promise<Measurement> {
  const times: number[] = [];
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; more(i); i++) {
    const t0 = performance.now();
    const answer = await once(i);
    times.push(performance.now() - t0);
    check(answer);
  }
  const elapsed = (performance.now() - start) / 1000;
  const cpuUsed = cpuMicrosSince(cpuStart);
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return {
    name,
    count: times.length,
    perSecond: times.length / elapsed,
    median: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    min: times[0] ?? NaN,
    cpu: cpuUsed / 1000 / times.length,
  };
}

/** Why PostgreSQL at this URL cannot be measured, or undefined when it can. */
export async function postgresProblem(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return undefined;
  } catch (error) {
    const shown = new URL(url);
    shown.password = '';
    return `PostgreSQL unreachable at ${shown.host}: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * The databases a run measures: BENCH_DB's one, else PostgreSQL (when it answers at
 * adminUrl; otherwise the run says why and measures PGlite only) and PGlite.
 */
export async function databaseKinds(adminUrl: string): Promise<DatabaseKind[]> {
  const only = process.env.BENCH_DB || undefined;
  if (only !== undefined && only !== 'pglite' && only !== 'postgres') throw new Error(`BENCH_DB must be pglite or postgres, not "${only}"`);
  if (only) return [only];
  const skipped = await postgresProblem(adminUrl);
  if (skipped) console.log(`${skipped}; measuring PGlite only.`);
  return skipped ? ['pglite'] : ['postgres', 'pglite'];
}

/** A run's first line: the benchmark, when, on which Node and machine, and what it measures. */
export function benchHeader(name: string, what: string): string {
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  return `${name} ${when} UTC, Node ${process.version}, ${availableParallelism()} x ${cpus()[0]?.model.trim() ?? 'CPU'}; ${what}`;
}

/** CPU seconds the whole machine has been busy (user, nice, system, irq, softirq). */
export function machineBusySeconds(): number {
  const [user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user! + nice! + system! + irq! + softirq!) / 100;
}

/** One side of a two-sided bench (a baseline and the change), summed over its rounds. */
export interface BenchSide {
  name: string;
  cpu: number;
  ms: number;
}

/** Prints each side's CPU and wall time per unit (`count` units a side), then the second's ratio to the first, the baseline. */
export function printSides(sides: readonly BenchSide[], count: number, unit: string, cpuOf = "the machine's CPU"): void {
  const [baseline, change] = sides as [BenchSide, BenchSide];
  for (const side of sides) console.log(`${side.name}: ${fmt(side.cpu / count, 3)} s of ${cpuOf} and ${fmt(side.ms / count)} ms a ${unit}`);
  console.log(`ratio to the baseline: CPU ${fmt(change.cpu / baseline.cpu, 2)}, wall time ${fmt(change.ms / baseline.ms, 2)}`);
}

/** The browser benches' guest state: the login page, the demo passholder looked up, its card shown. */
export async function openDemoPass(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Order ID').fill('10000001');
  await page.getByLabel('Barcode').fill('2400000000000011');
  await page.getByRole('button', { name: 'Find My Pass' }).click();
  await page.locator('article.pass-card').waitFor();
}
