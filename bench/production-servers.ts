// What bench:faults and bench:soak share: the API built and started the way production starts
// it (scripts/start.mjs: compiled JavaScript, node --conditions=compiled) in child processes of
// this one, their resident memory, a keep-alive HTTP client with per-call timing, and private
// PostgreSQL clusters and Redis servers the benches may stop and start at will (the machine's
// own are shared with other work and must not be restarted).
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { freePort } from '../apps/api/test-support/free-port.ts';

/** The repository root (benches run from it, as npm scripts do). */
const ROOT = new URL('..', import.meta.url).pathname;

/** Compiles the API as production runs it (scripts/build-api.mjs; the web app is not needed for API traffic). */
export function buildApi() {
  const started = performance.now();
  execFileSync(process.execPath, ['scripts/build-api.mjs'], { cwd: ROOT, stdio: 'inherit' });
  return (performance.now() - started) / 1000;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resident memory of a process in MiB (Linux /proc), or NaN when it is gone. */
export function rssMiB(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Number(line?.match(/(\d+)/)?.[1]) / 1024;
  } catch {
    return NaN;
  }
}

export interface Answer {
  status: number;
  body: Buffer;
  headers: http.IncomingHttpHeaders;
  ms: number;
  /** Set when no answer came: a socket error or the timeout. */
  error?: string;
}

/** A keep-alive HTTP client for one base URL; a call that gets no answer within timeoutMs ends with an error. */
export function httpClient(base: string, { maxSockets = 64, timeoutMs = 30_000 } = {}) {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  function call(method: string, path: string, options: { json?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
    const body = options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json));
    const headers: Record<string, string> = { ...options.headers };
    if (body) headers['content-type'] = 'application/json';
    const t0 = performance.now();
    return new Promise((resolve) => {
      let settled = false;
      const settle = (answer: Omit<Answer, 'ms'>) => {
        if (settled) return;
        settled = true;
        resolve({ ...answer, ms: performance.now() - t0 });
      };
      const req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => settle({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
        res.on('error', (e) => settle({ status: 0, body: Buffer.alloc(0), headers: {}, error: e.message }));
      });
      req.setTimeout(timeoutMs, () => {
        settle({ status: 0, body: Buffer.alloc(0), headers: {}, error: `no answer within ${timeoutMs} ms` });
        req.destroy();
      });
      req.on('error', (e) => settle({ status: 0, body: Buffer.alloc(0), headers: {}, error: e.message }));
      req.end(body);
    });
  }
  return { base, call, close: () => agent.destroy() };
}
export type HttpClient = ReturnType<typeof httpClient>;

/** The value at quantile q of ascending numbers. */
export function quantile(sorted: number[], q: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** Least-squares slope of y over x. */
export function slope(points: { x: number; y: number }[]) {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxx === 0 ? NaN : sxy / sxx;
}

export interface ServerInstance {
  name: string;
  url: string;
  pid: number;
  child: ChildProcess;
  /** Log lines (pino JSON) of the instance that matched `watch`, by pattern. */
  logCounts: Map<string, number>;
  /** The last lines it wrote, for a failure message. */
  tail: string[];
  /** Stops it (SIGTERM: close-with-grace closes the app) and waits; SIGKILL after 15 s. */
  stop(): Promise<void>;
}

/**
 * Starts one server the way production does (`node --conditions=compiled apps/api/dist/server.js`)
 * with only these settings in its environment, and waits until GET /readyz answers 200.
 */
export async function startInstance(
  name: string,
  env: Record<string, string>,
  { watch = [] as string[], readyTimeoutMs = 120_000 } = {},
): Promise<ServerInstance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--conditions=compiled', '--enable-source-maps', 'apps/api/dist/server.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logCounts = new Map(watch.map((w) => [w, 0]));
  const tail: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      for (const w of watch) if (line.includes(w)) logCounts.set(w, (logCounts.get(w) ?? 0) + 1);
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.kill('SIGTERM');
    await exited;
    clearTimeout(timer);
  };
  const url = `http://127.0.0.1:${port}`;
  const probe = httpClient(url, { maxSockets: 1, timeoutMs: 2000 });
  const until = Date.now() + readyTimeoutMs;
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${name} exited (${child.signalCode ?? child.exitCode}) before it was ready:\n${tail.join('\n')}`);
      if ((await probe.call('GET', '/readyz')).status === 200) break;
      if (Date.now() > until) throw new Error(`${name} was not ready within ${readyTimeoutMs / 1000} s:\n${tail.join('\n')}`);
      await sleep(200);
    }
  } catch (error) {
    await stop();
    throw error;
  } finally {
    probe.close();
  }
  return { name, url, pid: child.pid!, child, logCounts, tail, stop };
}

/** The command line that runs `command` as the postgres OS user when this process is root (initdb refuses root). */
function asPostgresArgv(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}
/** Runs it and waits (setting up and tearing down only: it blocks the event loop). */
const asPostgres = (command: string, args: string[]) =>
  execFileSync(...asPostgresArgv(command, args), { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
/** Runs it without blocking the event loop (stops and starts under load). */
const asPostgresAsync = async (command: string, args: string[]) => void (await promisify(execFile)(...asPostgresArgv(command, args)));

/** The newest PostgreSQL server binaries Debian installed (PG_BIN overrides). */
function postgresBin() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const versions = readdirSync('/usr/lib/postgresql')
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql (set PG_BIN)');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication on loopback). */
  adminUrl: string;
  port: number;
  version: string;
  /**
   * pg_ctl stop -m fast (clients are disconnected, the server shuts down cleanly) or -m
   * immediate (every process quits at once, as in a crash: the next start recovers from the WAL).
   */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** pg_ctl start -w: resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it (immediately) and removes its files. */
  destroy(): void;
}

/**
 * A PostgreSQL cluster of our own in a temporary folder owned by the postgres user, on a free
 * loopback port, with its socket in that folder: this one the bench may restart.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'boardwalk-bench-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const pgCtl = (...args: string[]) => asPostgres(join(bin, 'pg_ctl'), ['-D', data, ...args]);
  const pgCtlAsync = (...args: string[]) => asPostgresAsync(join(bin, 'pg_ctl'), ['-D', data, ...args]);
  const startArgs = ['-l', join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start'];
  let running = false;
  const destroy = () => {
    if (running) {
      try {
        pgCtl('-m', 'immediate', '-w', 'stop');
      } catch {
        // already gone
      }
      running = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    pgCtl(...startArgs);
    running = true;
    const version = asPostgres(join(bin, 'postgres'), ['--version']).trim();
    return {
      adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      version,
      async stop(mode = 'fast') {
        await pgCtlAsync('-m', mode, '-w', 'stop');
        running = false;
      },
      async start() {
        running = true;
        await pgCtlAsync(...startArgs);
      },
      destroy,
    };
  } catch (error) {
    destroy();
    throw error;
  }
}

export interface PrivateRedis {
  url: string;
  port: number;
  /** Kills the server (SIGKILL: nothing saved, as a crash) and waits until it is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: no persistence); resolves once it listens. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** A redis-server of our own on a free loopback port, with no persistence, in our process group. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child = started;
    await new Promise<void>((resolve, reject) => {
      const lines = createInterface({ input: started.stdout! });
      lines.on('line', (line) => {
        if (line.includes('Ready to accept connections')) resolve();
      });
      started.once('exit', (code) => reject(new Error(`redis-server on port ${port} exited (${code}) before it was ready`)));
      started.once('error', reject);
    });
  };
  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGKILL');
    await gone;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, kill, start, destroy: kill };
}

/** Runs `cleanup` once on ^C or SIGTERM (the process group gets them), then exits. */
export function onInterrupt(cleanup: () => Promise<void> | void) {
  let running = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (running) return;
      running = true;
      void Promise.resolve(cleanup()).finally(() => process.exit(130));
    });
  }
}
