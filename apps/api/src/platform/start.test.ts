import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createDb, PGLITE_LOCK_FILE } from '@boardwalk/db/client';
import { startWhenDatabaseAnswers } from './start.ts';

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
