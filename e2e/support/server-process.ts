// The real server in a process of its own, for the browser tests: the built web app and the
// demo data, on a free port with a fresh data folder, stopped and removed by close().
// global-setup.ts starts the one every test shares; a test that needs settings of its own (an
// SMTP server to receive mail) starts another.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledArgs } from '../../apps/api/test-support/compiled-api.ts';
import { freePort } from '../../apps/api/test-support/free-port.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startServerProcess(
  env: Record<string, string>,
  {
    timeoutMs = 90_000,
    echoErrors = false,
    port: fixedPort,
    dataFrom,
  }: {
    timeoutMs?: number;
    /** Copy the server's standard error to ours. */ echoErrors?: boolean;
    /** This port rather than a free one (a server that replaces another at the same address). */
    port?: number;
    /** A copy of this data folder (makeDataFolder) rather than an empty one. */
    dataFrom?: string | undefined;
  } = {},
): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'boardwalk-e2e-'));
  if (dataFrom) cpSync(dataFrom, dataDir, { recursive: true });
  const port = fixedPort ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  let log = '';
  // The compiled server, as `npm start` runs it (global-setup.ts builds it when its sources are newer).
  const child = spawn(process.execPath, compiledArgs('server'), {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DEMO_DATA: 'true',
      // The browser tests' screens count from an empty club; the Dashboard's own test turns the
      // history on.
      DEMO_HISTORY: 'false',
      // The demo dates the browser tests show (Oct 2, 2026 ...), whatever today is.
      DEMO_TODAY: '2026-11-21',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      DELIVERY_COALESCE_SECONDS: '0',
      // Each queue looks for jobs this often while the server lives, jobs or none: an idle
      // server spent 7.7 % of a core at 2 s, 5.4 % at 5 s, 3 servers for the whole browser
      // phase. A new job wakes the workers at once; the poll finds the webhook feed's events
      // (a test waits with expect.poll, up to 10 s; no retries here: DELIVERY_RETRY_LIMIT 0).
      DELIVERY_POLL_SECONDS: '5',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', (chunk: Buffer) => {
    keep(chunk);
    if (echoErrors) process.stderr.write(`[server] ${chunk.toString()}`);
  });

  const close = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        rmSync(dataDir, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(force);
        done();
      });
      child.kill('SIGTERM');
    });

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await close();
      throw new Error(`the server exited with ${child.exitCode} before it was ready:\n${log}`);
    }
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await close();
      throw new Error(`the server was not ready within ${timeoutMs / 1000} s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { baseUrl, close };
}

/**
 * A data folder with the demo data loaded (and the first administrator, when env names one),
 * made by a server that then stops: a server started on a copy skips creating the database,
 * migrating it and loading the demo, 5 of its 13 s of CPU (docs/performance.md).
 */
export async function makeDataFolder(env: Record<string, string>): Promise<{ dir: string; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'boardwalk-e2e-data-'));
  const server = await startServerProcess({ ...env, DATA_DIR: dir });
  await server.close();
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
