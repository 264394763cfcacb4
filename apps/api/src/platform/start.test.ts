import { describe, expect, it } from 'vitest';
import { createDb } from '@boardwalk/db/client';
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
