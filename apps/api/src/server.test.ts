// The real server process, compiled as `npm start` runs it (compiled-api.ts, the process
// projects' global setup): starts on the configured database, answers, and shuts down
// gracefully on SIGTERM; its data folder is its user's alone, and a folder others can write
// is refused.
import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDbKind, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { compiledArgs, compiledScript } from '../test-support/compiled-api.ts';
import { freePort } from '../test-support/free-port.ts';

/** Ready within 60 s: a fresh embedded database's first start, on a machine busy with the other test files. */
async function answersReady(port: number): Promise<boolean> {
  for (let i = 0; i < 300; i++) {
    await new Promise((r) => setTimeout(r, 200));
    if (
      await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return true;
  }
  return false;
}

/** Every file and folder under root that group or others hold any right on, with its mode. */
function sharedEntries(root: string): string[] {
  const mode = lstatSync(root).mode & 0o777;
  const own = mode & 0o077 ? [`${root} ${mode.toString(8)}`] : [];
  if (!lstatSync(root).isDirectory()) return own;
  return [...own, ...readdirSync(root).flatMap((name) => sharedEntries(join(root, name)))];
}

describe('server process', () => {
  const root = mkdtempSync(join(tmpdir(), 'bw-server-'));
  // Not there yet: the server makes it.
  const dataDir = join(root, 'data');
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await database?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('starts, migrates, answers /readyz and exits cleanly on SIGTERM', async () => {
    const port = await freePort();
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
    };
    delete env.DATABASE_URL;
    if (testDbKind() === 'postgres') {
      database = await createTestDatabase('postgres');
      env.DATABASE_URL = database.url!;
    }
    const child = spawn(process.execPath, compiledArgs('server'), { env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));

    expect(await answersReady(port), output).toBe(true);
    expect(output).toContain(`open http://localhost:${port}/`);
    if (testDbKind() === 'pglite') expect(existsSync(join(dataDir, 'pglite'))).toBe(true);
    // The data folder is 0700 and everything in it (the database's files, the pid lock, the
    // development certificates) 0700 or 0600, though the test runner's umask is the usual 022.
    if (testDbKind() === 'pglite') {
      expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
      expect(existsSync(join(dataDir, 'pglite.pid'))).toBe(true);
    }
    expect(sharedEntries(root)).toEqual([]);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM received, closing');
    expect(sharedEntries(root)).toEqual([]);
  }, 90_000);

  // The tests below start no database of the project's kind (they stop before one opens, or
  // run on PGlite whatever the project): once, in the pglite project.
  const oncePerRun = testDbKind() === 'postgres';

  it.skipIf(oncePerRun)(
    'refuses a data folder other users can write: exit 1, naming it and the fix',
    async () => {
      const shared = mkdtempSync(join(tmpdir(), 'bw-shared-'));
      chmodSync(shared, 0o777);
      try {
        const env: Record<string, string> = { ...(process.env as Record<string, string>), PORT: '0', DATA_DIR: shared, LOG_LEVEL: 'info' };
        delete env.DATABASE_URL;
        const child = spawn(process.execPath, compiledArgs('server'), { env });
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(1);
        expect(output).toContain(`The data folder ${shared} can be written by other users (mode 777)`);
        expect(output).toContain(`chmod 700 ${shared}`);
        // Nothing was opened there.
        expect(readdirSync(shared)).toEqual([]);
      } finally {
        rmSync(shared, { recursive: true, force: true });
      }
    },
    90_000,
  );

  // Started as a process (config.test.ts checks loadConfig itself): a bad setting stops it.
  it.skipIf(oncePerRun)(
    'stops with a message naming a bad variable',
    async () => {
      const run = promisify(execFile)(process.execPath, compiledArgs('server'), { env: { ...process.env, PORT: 'abc' } });
      await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('PORT:') });
    },
    90_000,
  );

  // npm start (scripts/start.mjs) runs what `npm run build` compiled.
  it.skipIf(oncePerRun)(
    'runs as compiled JavaScript (npm start), logging JSON lines to a pipe and readable lines to a terminal',
    async () => {
      const startScript = readFileSync(fileURLToPath(new URL('../../../scripts/start.mjs', import.meta.url)), 'utf8');
      expect(startScript).toContain("'apps/api/dist/server.js'");
      expect(startScript).toContain("'--conditions=compiled'");
      const node = [process.execPath, '--conditions=compiled', compiledScript('server')];
      // One data folder for both starts: the second starts on what the first migrated.
      const compiledData = join(root, 'compiled');
      for (const terminal of [false, true]) {
        const port = await freePort();
        const env: Record<string, string> = {
          ...(process.env as Record<string, string>),
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: compiledData,
          DEMO_DATA: 'false',
          LOG_LEVEL: 'info',
        };
        delete env.DATABASE_URL;
        delete env.NODE_OPTIONS; // no tsx loader: Node 20 runs no TypeScript by itself
        // script(1) gives the server a terminal as standard output.
        const child = terminal
          ? spawn('script', ['-qfec', node.map((a) => `'${a}'`).join(' '), '/dev/null'], { env, detached: true })
          : spawn(node[0]!, node.slice(1), { env, detached: true });
        let output = '';
        child.stdout!.on('data', (d) => (output += d));
        child.stderr!.on('data', (d) => (output += d));
        const exited = new Promise((resolve) => child.on('exit', resolve));
        try {
          expect(await answersReady(port), output).toBe(true);
          await new Promise((r) => setTimeout(r, 300));
          if (terminal) {
            expect(output).toMatch(/INFO.*Server listening/);
            expect(output).not.toContain('{"level"');
          } else {
            expect(output).toMatch(/^\{"level":30,.*"msg":"Server listening/m);
          }
        } finally {
          process.kill(-child.pid!, 'SIGTERM');
          await exited;
        }
      }
    },
    // Two starts, each given answersReady's 60 s: one start took over 30 s under a full run's load.
    150_000,
  );
});
