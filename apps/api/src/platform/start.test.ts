import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createDb, PGLITE_LOCK_FILE } from '@boardwalk/db/client';
import { privateDataDirOrExit, startWhenDatabaseAnswers } from './start.ts';

describe('starting while the database cannot be reached', () => {
  it('waits and tries again, saying so once, until the database answers', async () => {
    const said: string[] = [];
    let calls = 0;
    const started = await startWhenDatabaseAnswers(
      async () => {
        calls++;
        // Nothing listens on port 1: the real error of a database that is not there.
        if (calls < 3) await createDb({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none' });
        return 'started';
      },
      (text) => void said.push(text),
    );
    expect(started).toBe('started');
    expect(calls).toBe(3);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^The database cannot be reached \(.*ECONNREFUSED.*\); waiting for it\.\.\.$/);
  });

  it('does not retry any other failure', async () => {
    let calls = 0;
    await expect(
      startWhenDatabaseAnswers(async () => {
        calls++;
        throw new Error('APPLE_CERT_FILE cannot be read');
      }),
    ).rejects.toThrow('APPLE_CERT_FILE');
    expect(calls).toBe(1);
  });
});

describe('starting on an embedded database another process has open', () => {
  it('exits 1 naming the process, without opening it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bw-in-use-'));
    // The parent process (the test runner) is alive and is not this one.
    writeFileSync(join(dataDir, PGLITE_LOCK_FILE), `${process.ppid}\n`);
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    const said: string[] = [];
    try {
      await expect(
        startWhenDatabaseAnswers(
          () => createDb({ dataDir }),
          (text) => void said.push(text),
        ),
      ).rejects.toThrow('exit 1');
      expect(said).toEqual([expect.stringContaining(`is open in process ${process.ppid}`)]);
    } finally {
      exit.mockRestore();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("the data folder is the user's alone", () => {
  const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
  const exits = () =>
    vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });

  it('refuses (exit 1) a data folder, or a folder in it, that group or others can write, naming it and the fix', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bw-shared-'));
    const exit = exits();
    try {
      for (const folder of [dataDir, join(dataDir, 'pglite')]) {
        mkdirSync(join(dataDir, 'pglite'), { recursive: true });
        chmodSync(dataDir, folder === dataDir ? 0o777 : 0o700);
        chmodSync(join(dataDir, 'pglite'), folder === dataDir ? 0o700 : 0o775);
        writeFileSync(join(dataDir, 'pglite', 'PG_VERSION'), '17\n', { mode: 0o666 });
        chmodSync(join(dataDir, 'pglite', 'PG_VERSION'), 0o666);
        const said: string[] = [];
        expect(() => privateDataDirOrExit(dataDir, (text) => void said.push(text))).toThrow('exit 1');
        expect(said).toEqual([expect.stringContaining(`The data folder ${folder} can be written by other users`)]);
        expect(said[0]).toContain(`chmod 700 ${folder}`);
        // Nothing was changed: the operator looks first.
        expect(mode(join(dataDir, 'pglite', 'PG_VERSION'))).toBe('666');
      }
      // DATA_DIR a link to such a folder (a mounted volume): the folder is checked, and named.
      chmodSync(join(dataDir, 'pglite'), 0o777);
      symlinkSync(join(dataDir, 'pglite'), join(dataDir, 'link'));
      const said: string[] = [];
      expect(() => privateDataDirOrExit(join(dataDir, 'link'), (text) => void said.push(text))).toThrow('exit 1');
      expect(said[0]).toContain(`chmod 700 ${join(dataDir, 'pglite')}`);
    } finally {
      exit.mockRestore();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('makes a folder an older version left readable to others private, saying so once', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bw-older-'));
    const exit = exits();
    try {
      chmodSync(dataDir, 0o755);
      mkdirSync(join(dataDir, 'pglite', 'pg_wal'), { recursive: true, mode: 0o755 });
      chmodSync(join(dataDir, 'pglite'), 0o755);
      chmodSync(join(dataDir, 'pglite', 'pg_wal'), 0o755);
      const wal = join(dataDir, 'pglite', 'pg_wal', '000000010000000000000001');
      writeFileSync(wal, 'wal');
      chmodSync(wal, 0o666);
      writeFileSync(join(dataDir, 'pglite.pid'), '1\n');
      chmodSync(join(dataDir, 'pglite.pid'), 0o644);
      const said: string[] = [];
      privateDataDirOrExit(dataDir, (text) => void said.push(text));
      expect(said).toEqual([
        expect.stringMatching(/was readable by other users .*: 5 files and folders are now readable by this user only/),
      ]);
      expect(mode(dataDir)).toBe('700');
      expect(mode(join(dataDir, 'pglite'))).toBe('700');
      expect(mode(join(dataDir, 'pglite', 'pg_wal'))).toBe('700');
      expect(mode(wal)).toBe('600');
      expect(mode(join(dataDir, 'pglite.pid'))).toBe('600');
      // A private folder starts in silence; one not made yet is fine too.
      said.length = 0;
      privateDataDirOrExit(dataDir, (text) => void said.push(text));
      privateDataDirOrExit(join(dataDir, 'not-yet'), (text) => void said.push(text));
      expect(said).toEqual([]);
      expect(exit).not.toHaveBeenCalled();
    } finally {
      exit.mockRestore();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the runtime', () => {
  it('is Node.js 24 or newer, the one the project pins', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });
});
