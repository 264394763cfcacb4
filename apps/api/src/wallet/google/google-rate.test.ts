// Google's request rate kept on the database: slots one interval apart whoever takes them, a
// 429's pause holding every taker back, and two processes on one PostgreSQL sharing the rate.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDbKind, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { createRequestRate, RateBusy } from './google-rate.ts';
import { retryAfterSeconds } from './google-wallet.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** The most moments within any window of `ms` (a sliding window). */
function mostWithin(times: number[], ms: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= ms) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

// The slots granted are checked (a grant is seen when its timer fires, which a loaded machine
// may delay), and the time the takers waited.
it('grants requests taken at once one interval apart: 30 at 20 a second take 1.45 s, never 21 within a second', async () => {
  const rate = createRequestRate(database.db, 'test-spacing', 20);
  const started = Date.now();
  const slots = await Promise.all(Array.from({ length: 30 }, () => rate.take()));
  expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
  expect(mostWithin(slots, 1000)).toBeLessThanOrEqual(20);
});

it('holds every request back for a pause (a 429 Retry-After), then goes on at the rate', async () => {
  const rate = createRequestRate(database.db, 'test-pause', 50);
  await rate.take();
  const paused = Date.now();
  await rate.pause(1);
  await rate.take();
  expect(Date.now() - paused).toBeGreaterThanOrEqual(950);
  // A shorter pause moves a longer one no earlier.
  await rate.pause(1);
  await rate.pause(0);
  const before = Date.now();
  await rate.take();
  expect(Date.now() - before).toBeGreaterThanOrEqual(900);
});

it('takes no slot further away than a request may wait, and says so (the job tries again later)', async () => {
  const rate = createRequestRate(database.db, 'test-busy', 10, 1000);
  await rate.pause(5);
  await expect(rate.take()).rejects.toThrow(RateBusy);
  // Refused takes reserved nothing: once the pause is over, a request goes at once.
  const other = createRequestRate(database.db, 'test-busy-after', 10, 1000);
  await other.pause(0.5);
  await expect(other.take()).resolves.toBeGreaterThan(0);
});

it('counts a slot further ahead than any pause as now: the clock went back (a test moved it a year)', async () => {
  const rate = createRequestRate(database.db, 'test-clock-back', 10, 1000);
  await rate.pause(2 * 60 * 60);
  const before = Date.now();
  await rate.take();
  expect(Date.now() - before).toBeLessThan(500);
});

describe.skipIf(testDbKind() !== 'postgres')('across processes on one PostgreSQL', () => {
  it('two processes taking 40 slots each at 10 a second from the same moment share the rate: 7.9 s of slots, not 3.9', async () => {
    const taker = fileURLToPath(new URL('../../../test-support/rate-taker.ts', import.meta.url));
    // Both begin at one moment, past their start-up.
    const at = String(Date.now() + 4000);
    const run = () =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', taker, 'test-processes', '10', '40', at], {
        env: { ...process.env, DATABASE_URL: database.url },
      }).then(({ stdout }) => JSON.parse(stdout) as number[]);
    const [a, b] = await Promise.all([run(), run()]);
    const all = [...a, ...b];
    expect(all).toHaveLength(80);
    expect(Math.max(...all) - Math.min(...all)).toBeGreaterThanOrEqual(7500);
    expect(mostWithin(all, 1000)).toBeLessThanOrEqual(10);
  }, 60_000);
});

it("reads a 429's Retry-After as seconds or as an HTTP date", () => {
  const now = Date.parse('2026-11-29T10:00:00Z');
  expect(retryAfterSeconds('120', now)).toBe(120);
  expect(retryAfterSeconds('Sun, 29 Nov 2026 10:00:30 GMT', now)).toBe(30);
  expect(retryAfterSeconds('Sun, 29 Nov 2026 09:59:00 GMT', now)).toBe(0);
  expect(retryAfterSeconds('soon', now)).toBeNull();
  expect(retryAfterSeconds(null, now)).toBeNull();
});
