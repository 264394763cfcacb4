// What bench:lookup and bench:stored-value share: a forked child holds the database and two
// servers (Boardwalk's route and a bare Fastify route doing the same rows' select), autocannon
// here loads each in turn, so the load generator never shares their event loop. Runs alternate
// (bare, Boardwalk, Boardwalk, bare) and keep the better of each; the summary prints both and
// their ratio, and each run's CPU time per request of the servers' process (from /proc: what a
// request costs the server, read apart from the load generator and PostgreSQL sharing the
// machine's cores; PGlite runs inside that process, so its share is counted) and, on
// PostgreSQL, of its processes. Boardwalk's route is loaded in English and in Spanish
// (Accept-Language, as a phone set to each sends it: the answer's texts follow it), interleaved
// (bare, English, Spanish, Spanish, English, bare), and the summary gives Spanish / English too.
// Exits non-zero when a run fails (errors, non-2xx, an empty run).
//
//   BENCH_SECONDS=10     seconds per run (after a warm-up of up to 2 s of each target)
//   BENCH_DB=pglite      one database only (pglite or postgres); default both
//   BENCH_RATE=300       also measure both at this fixed offered rate: latency without queueing
//   BENCH_CPU_PROF=dir   write a V8 CPU profile of the server process into dir
//   DATABASE_POOL_SIZE   both servers' pool on PostgreSQL (default: the app's, three per core, 4 to 10)
//   TEST_DATABASE_URL    PostgreSQL server for the fresh database (default postgres://postgres@127.0.0.1:5432/test)
import { execFileSync, fork } from 'node:child_process';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { defaultTestDatabaseUrl } from '@boardwalk/db/test-support/test-database';
import { fmt, positiveNumber, postgresCpu, postgresCpuMicrosSince, postgresProblem, processCpuMicros } from './bench-support.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** What the servers' child sends once it has seeded and checked both servers. */
export interface ServersReady {
  type: 'ready';
  version: string;
  poolSize: number | null;
  boardwalkUrl: string;
  bareUrl: string;
}
export type ServersMessage<R extends ServersReady> = R | { type: 'failed'; message: string };

export interface LoadBench<R extends ServersReady> {
  /** bench:lookup */
  name: string;
  /** The servers' module, forked with the database kind as its argument. */
  servers: URL;
  /** The path both servers answer (POST, JSON). */
  path: string;
  /** What is compared, for the summary. */
  compares: string;
  /** A line about what the child seeded. */
  describeSeed(ready: R): string;
  /** The request bodies the load cycles over. */
  bodies(ready: R): string[];
  /** Goals checked on PostgreSQL, if any. */
  goals?: { ratio: number; p99Ms: number };
}

const CONNECTIONS = 50;
const seconds = positiveNumber('BENCH_SECONDS', 10);
const rate = process.env.BENCH_RATE ? positiveNumber('BENCH_RATE', 0) : undefined;
const profileDir = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;
const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;
const label: Record<DatabaseKind, string> = { postgres: 'PostgreSQL', pglite: 'PGlite' };

type Target = 'bare' | 'Boardwalk' | 'Boardwalk es';
/** What each target's requests say of the reader's languages: a phone set to English, or to Spanish. */
const ACCEPT_LANGUAGE: Record<Target, string> = { bare: 'en-US,en;q=0.9', Boardwalk: 'en-US,en;q=0.9', 'Boardwalk es': 'es-US,es;q=0.9' };
interface Measurement {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU time of the server process per answered request (µs), or null where /proc does not tell it. */
  cpuPerRequest: number | null;
  /** On PostgreSQL, CPU time of its processes per answered request (µs), or null. */
  databaseCpuPerRequest: number | null;
}

interface DatabaseResult<R> {
  kind: DatabaseKind;
  ready: R;
  /** 1-minute load average when the measurements started: other work on the machine shows here. */
  load: number;
  bare: Measurement;
  boardwalk: Measurement;
  spanish: Measurement;
  fixedRate: Measurement[];
}

/** Forks the child holding the database and both servers, and waits until it has seeded and checked them. */
async function startServers<R extends ServersReady>(module: URL, kind: DatabaseKind) {
  const child = fork(fileURLToPath(module), [kind], {
    execArgv: ['--import', 'tsx', ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((done) => child.once('exit', done));
  /** The child closes its servers and database (a PostgreSQL one is dropped) and exits; killed after 30 s. */
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    if (child.connected) child.send('stop');
    await exited;
    clearTimeout(timer);
  };
  const message = await new Promise<ServersMessage<R>>((done, fail) => {
    child.once('message', (m) => done(m as ServersMessage<R>));
    child.once('exit', (code, signal) => fail(new Error(`the ${kind} server process exited (${signal ?? code}) before it was ready`)));
  });
  if (message.type === 'failed') {
    await stop();
    throw new Error(`the ${kind} server process failed:\n${message.message}`);
  }
  return { ready: message, stop, pid: child.pid! };
}

const line = (m: Measurement) =>
  `${m.name.padEnd(24)} ${fmt(m.reqPerSec).padStart(6)} req/s  p50 ${fmt(m.p50).padStart(3)} ms  p99 ${fmt(m.p99).padStart(3)} ms  ` +
  `${m.cpuPerRequest === null ? '' : `server CPU ${fmt(m.cpuPerRequest).padStart(4)} µs/req  `}` +
  `${m.databaseCpuPerRequest === null ? '' : `PostgreSQL CPU ${fmt(m.databaseCpuPerRequest).padStart(4)} µs/req  `}errors ${m.errors}  non-2xx ${m.non2xx}`;

function gitRevision() {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', ['--no-optional-locks', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? ' + uncommitted changes' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** Runs the bench on each database and prints its summary. */
export async function runLoadBench<R extends ServersReady>(bench: LoadBench<R>): Promise<void> {
  /** What made the run fail: any error, non-2xx answer or empty run. */
  const failures: string[] = [];

  async function measure(
    { pid, kind }: { pid: number; kind: DatabaseKind },
    name: string,
    target: Target,
    url: string,
    bodies: string[],
    duration: number,
    overallRate?: number,
  ): Promise<Measurement> {
    const requests = bodies.map((body) => ({
      method: 'POST' as const,
      path: bench.path,
      headers: { 'content-type': 'application/json', 'accept-language': ACCEPT_LANGUAGE[target] },
      body,
    }));
    const cpuBefore = processCpuMicros(pid);
    const databaseBefore = kind === 'postgres' ? postgresCpu() : null;
    const r = await autocannon({ url, connections: CONNECTIONS, duration, requests, ...(overallRate && { overallRate }) });
    const cpuAfter = processCpuMicros(pid);
    const databaseCpu = postgresCpuMicrosSince(databaseBefore);
    if (r.errors > 0 || r.non2xx > 0 || r.requests.total === 0)
      failures.push(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx of ${r.requests.total} requests`);
    const cpuPerRequest =
      cpuBefore !== null && cpuAfter !== null && r.requests.total > 0 ? (cpuAfter - cpuBefore) / r.requests.total : null;
    return {
      name,
      reqPerSec: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors,
      non2xx: r.non2xx,
      cpuPerRequest,
      databaseCpuPerRequest: databaseCpu !== null && r.requests.total > 0 ? databaseCpu / r.requests.total : null,
    };
  }

  async function benchDatabase(kind: DatabaseKind): Promise<DatabaseResult<R>> {
    console.log(`\n${label[kind]}: starting the server process and seeding...`);
    const { ready, stop, pid } = await startServers<R>(bench.servers, kind);
    try {
      const load = loadavg()[0] ?? 0;
      console.log(
        `  ${ready.version}${ready.poolSize ? `, pool of ${ready.poolSize}` : ', one in-process connection'}; load average ${fmt(load, 2)}`,
      );
      console.log(`  ${bench.describeSeed(ready)}`);
      const bodies = bench.bodies(ready);
      const url: Record<Target, string> = { bare: ready.bareUrl, Boardwalk: ready.boardwalkUrl, 'Boardwalk es': ready.boardwalkUrl };
      for (const target of ['bare', 'Boardwalk', 'Boardwalk es'] as const)
        await measure({ pid, kind }, `${target} warm-up`, target, url[target], bodies, Math.min(2, seconds));
      const runs: Measurement[] = [];
      for (const target of ['bare', 'Boardwalk', 'Boardwalk es', 'Boardwalk es', 'Boardwalk', 'bare'] as const) {
        const m = await measure({ pid, kind }, target, target, url[target], bodies, seconds);
        runs.push(m);
        console.log(`  ${line(m)}`);
      }
      const best = (target: Target) => runs.filter((m) => m.name === target).reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a));
      const fixedRate: Measurement[] = [];
      for (const target of rate ? (['bare', 'Boardwalk'] as const) : []) {
        const m = await measure({ pid, kind }, `${target} at ${rate} req/s`, target, url[target], bodies, seconds, rate);
        fixedRate.push(m);
        console.log(`  ${line(m)}`);
      }
      return { kind, ready, load, bare: best('bare'), boardwalk: best('Boardwalk'), spanish: best('Boardwalk es'), fixedRate };
    } finally {
      await stop();
    }
  }

  function printSummary(results: DatabaseResult<R>[], skipped: string | undefined) {
    const lines = [
      `${bench.name} ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, git ${gitRevision()}, Node ${process.version}, ${availableParallelism()} x ${cpus()[0]?.model.trim() ?? 'CPU'}`,
      `${bench.compares}; ${CONNECTIONS} connections, ${seconds} s runs, better of 2 (bare, Boardwalk, Boardwalk es, Boardwalk es, Boardwalk, bare)`,
    ];
    if (skipped) lines.push(`PostgreSQL: not measured (${skipped})`);
    for (const r of results) {
      const ratio = r.boardwalk.reqPerSec / r.bare.reqPerSec;
      lines.push(
        `${label[r.kind]} (${r.ready.version}${r.ready.poolSize ? `, pool ${r.ready.poolSize}` : ''}; load average ${fmt(r.load, 2)}):`,
      );
      for (const m of [r.bare, r.boardwalk, r.spanish, ...r.fixedRate]) lines.push(`  ${line(m)}`);
      lines.push(`  ratio Boardwalk / bare: ${fmt(ratio, 2)}; Spanish / English: ${fmt(r.spanish.reqPerSec / r.boardwalk.reqPerSec, 2)}`);
      if (r.kind !== 'postgres' || !bench.goals) continue;
      const { ratio: goalRatio, p99Ms } = bench.goals;
      const ratioOk = ratio >= goalRatio;
      const p99Ok = r.boardwalk.p99 <= p99Ms;
      lines.push(
        `Goals on PostgreSQL: ratio >= ${goalRatio}: ${ratioOk ? 'MET' : 'MISSED'} (${fmt(ratio, 2)}); ` +
          `p99 <= ${p99Ms} ms: ${p99Ok ? 'MET' : 'MISSED'} (${fmt(r.boardwalk.p99)} ms) -> ${ratioOk && p99Ok ? 'ALL MET' : 'NOT MET'}`,
      );
    }
    if (failures.length > 0) lines.push(`RUN FAILED: ${failures.join('; ')}`);
    const rule = '='.repeat(Math.max(...lines.map((l) => l.length)));
    console.log(`\n${rule}\n${lines.join('\n')}\n${rule}`);
  }

  try {
    const only = process.env.BENCH_DB || undefined;
    if (only !== undefined && only !== 'pglite' && only !== 'postgres')
      throw new Error(`BENCH_DB must be pglite or postgres, not "${only}"`);
    const skipped = only === 'pglite' ? 'BENCH_DB=pglite' : await postgresProblem(adminUrl);
    const kinds: DatabaseKind[] = skipped ? ['pglite'] : only ? [only] : ['postgres', 'pglite'];
    if (skipped && only !== 'pglite') console.log(`${skipped}; measuring PGlite only.`);
    const results: DatabaseResult<R>[] = [];
    for (const kind of kinds) results.push(await benchDatabase(kind));
    if (profileDir) console.log(`\nCPU profiles of the server process in ${profileDir}`);
    printSummary(results, skipped);
    if (failures.length > 0) process.exitCode = 1;
  } catch (error) {
    console.error('\nbench: the run failed:', error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
