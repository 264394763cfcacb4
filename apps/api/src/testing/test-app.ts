// Test support: the real app, in-process, on a fresh database of its own.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@boardwalk/db/test-database';
import type { Redis } from 'ioredis';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../platform/config.ts';

export const TEST_INTEGRATION_KEY = 'test-ticketing-secret-0123456789';
export const integrationAuth = { authorization: `Bearer ${TEST_INTEGRATION_KEY}` };
/** The first administrator's password in tests (ADMIN_PASSWORD; '' makes the app generate and print one). */
export const TEST_ADMIN_PASSWORD = 'test-admin-password-0123';

/**
 * One data folder per test worker: the development certificates and keys the app generates
 * at first start are made once per worker, outside the checkout.
 */
const workerDataDir = mkdtempSync(join(tmpdir(), 'bw-test-data-'));

export interface TestApp {
  app: App;
  database: TestDatabase;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Reuse a database (two instances on one database); it is then not closed with the app. */
  database?: TestDatabase;
  redis?: Redis;
  throttleKeyPrefix?: string;
  /** Collects the app's log lines (at LOG_LEVEL, default silent). */
  logStream?: { write(line: string): void };
  /** Registers test-only routes or hooks before the app is ready. */
  extend?: (app: App) => void | Promise<void>;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config = loadConfig({
    DEMO_DATA: 'false',
    DATA_DIR: workerDataDir,
    LOG_LEVEL: 'silent',
    INTEGRATION_API_KEYS: `ticketing:${TEST_INTEGRATION_KEY}`,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    ...options.env,
  });
  const app = await buildApp({
    config,
    database,
    ...(options.redis && { redis: options.redis }),
    throttleKeyPrefix: options.throttleKeyPrefix ?? `test-${randomBytes(6).toString('hex')}`,
    ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
  });
  await options.extend?.(app);
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}
