// The database the app opens itself (no database handed in): on PostgreSQL its pool holds
// DATABASE_POOL_SIZE connections at most, or, when that is unset, three per core, 4 to 10
// (defaultPoolSize).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPoolSize } from '@boardwalk/db/client';
import { createTestDatabase, testDbKind, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { buildApp } from '../app.ts';
import { loadConfig } from './config.ts';

describe.skipIf(testDbKind() !== 'postgres')('the pool of the database the app opens (PostgreSQL)', () => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase('postgres', 1);
    dataDir = mkdtempSync(join(tmpdir(), 'bw-pool-'));
  });
  afterAll(async () => {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const poolMax = async (env: Record<string, string>) => {
    const config = loadConfig({ DATABASE_URL: database.url!, DATA_DIR: dataDir, DEMO_DATA: 'false', DELIVERY_WORKERS: 'false', ...env });
    const app = await buildApp({ config, logger: false });
    try {
      await app.ready();
      return app.database.poolStats().max;
    } finally {
      await app.close();
    }
  };

  it('opens at most DATABASE_POOL_SIZE connections', async () => {
    expect(await poolMax({ DATABASE_POOL_SIZE: '3' })).toBe(3);
  });

  it('opens defaultPoolSize() when it is unset', async () => {
    expect(await poolMax({})).toBe(defaultPoolSize());
  });
});

describe('the default pool size', () => {
  it('is three connections per core, at least 4 and at most 10', () => {
    expect([1, 2, 3, 4, 64].map((cores) => defaultPoolSize(cores))).toEqual([4, 6, 9, 10, 10]);
  });
});
