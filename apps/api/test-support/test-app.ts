// Test support: the real app, in-process, on a fresh database of its own.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import type { Redis } from 'ioredis';
import { systemClock, type Clock } from 'pg-boss';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/platform/config.ts';

export const TEST_INTEGRATION_KEY = 'test-ticketing-secret-0123456789';
export const integrationAuth = { authorization: `Bearer ${TEST_INTEGRATION_KEY}` };
/** The first administrator's password in tests (ADMIN_PASSWORD; '' makes the app generate and print one). */
export const TEST_ADMIN_PASSWORD = 'test-admin-password-0123';

/**
 * One data folder per test worker: the development certificates and keys the app generates
 * at first start are made once per worker, outside the checkout.
 */
const workerDataDir = mkdtempSync(join(tmpdir(), 'bw-test-data-'));

/**
 * The job queue's clock in tests: real time, whatever Date a test sets (vi.setSystemTime).
 * pg-boss times its poll loop with its clock, so a fetch that started under a Date moved ahead
 * and ended after the move back measured minus that jump and its worker slept for it: a queue
 * stopped for the 30 minutes a test had moved (a CI run, loyalty-pass.test.ts). PGlite's now()
 * still reads the test's Date, so the jobs come due by it.
 */
const realTimeClock: Clock = { ...systemClock, now: Date.now.bind(Date) };

/**
 * For an app whose test waits for a job that comes due later (a retry, a change a coalescing
 * window holds): createTestApp's 30 s poll is longer than a test waits.
 */
export const LATER_JOBS_POLL = { DELIVERY_POLL_SECONDS: '5' };

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
    // The demo as of the day its tests' dates were written (demo.service.ts DATA_WRITTEN_ON).
    DEMO_TODAY: '2026-11-21',
    DATA_DIR: workerDataDir,
    LOG_LEVEL: 'silent',
    INTEGRATION_API_KEYS: `ticketing:${TEST_INTEGRATION_KEY}`,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    // Deliveries are due as soon as they are queued; tests of coalescing set a window.
    DELIVERY_COALESCE_SECONDS: '0',
    // Each of the app's queues polls the database this often while the app lives, jobs or
    // none: at 0.5 s an idle app on PGlite spent 22 % of a core (7 % without workers), and the
    // pglite project 960 s of the machine's CPU against 833 s at 2 s (487 s and 444 s of wall).
    // A job due at once wakes the workers as it commits, so the poll only finds jobs due later
    // (retries, windows), the webhook feed's events and jobs written without a wake-up: 30 s,
    // longer than a test waits (the pglite project 354 s of CPU against 374 s at 5 s, the same
    // wall). The files that wait for such jobs ask for LATER_JOBS_POLL, those that time retries 0.5 s.
    DELIVERY_POLL_SECONDS: '30',
    ...options.env,
  });
  const app = await buildApp({
    config,
    database,
    jobClock: realTimeClock,
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

/** Waits until the app's workers have run every delivery job that is due (not later retries). */
export async function settleDeliveries(app: App, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  // Twice in a row: a job's handler may queue the next one (ticket-changed -> apns-push).
  for (let idle = 0; idle < 2;) {
    if (Date.now() > until) throw new Error('deliveries did not settle ' + JSON.stringify(await app.jobs.depths()));
    idle = (await app.jobs.pending()) === 0 ? idle + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The barcodes the app published as ticket changes (ticket-changed jobs) since the last
 * call of `reset`, in order.
 */
export function publishedTicketChanges(database: TestDatabase) {
  const seen = new Set<string>();
  const read = async () => {
    const { rows } = await database.executeSql(
      `select id, data->>'barcode' as barcode from pgboss.job where name = $1 order by created_on, id`,
      ['ticket-changed'],
    );
    return rows as { id: string; barcode: string }[];
  };
  return {
    async barcodes(): Promise<string[]> {
      return (await read()).filter((r) => !seen.has(r.id)).map((r) => r.barcode);
    },
    async reset() {
      for (const r of await read()) seen.add(r.id);
    },
  };
}
