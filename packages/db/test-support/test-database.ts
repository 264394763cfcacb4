// Test support: a database of its own for each test file, so runs never collide.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Database } from '../src/client.ts';

export const defaultTestDatabaseUrl = 'postgres://postgres@127.0.0.1:5432/test';

/** Which database the current test run targets: TEST_DB=postgres or (default) pglite. */
export function testDbKind(): 'pglite' | 'postgres' {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

export interface TestDatabase extends Database {
  /** The connection string of the fresh PostgreSQL database, when kind is postgres. */
  url?: string;
}

/**
 * A fresh, migrated database: PGlite in memory, or a new PostgreSQL database dropped on close,
 * opened with a pool of poolSize connections.
 */
export async function createTestDatabase(kind = testDbKind(), poolSize = 5): Promise<TestDatabase> {
  if (kind === 'pglite') return createDb({});
  const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;
  const name = `bw_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Closing drops the database WITH (FORCE): the connections it ends are expected.
  const database = await createDb({ databaseUrl: url.toString(), poolSize, onConnectionError: () => undefined });
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
