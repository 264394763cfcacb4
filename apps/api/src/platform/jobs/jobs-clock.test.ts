// The test app's job queue keeps real time (test-app.ts): tests move the process's Date
// (vi.setSystemTime) and back, and a worker whose fetch waited across the move back must go on
// polling, not sleep for the jump (pg-boss times its poll loop with its clock).
import { systemClock } from 'pg-boss';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { createTestApp, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';
import { cappedTimers } from './job-queue.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());
afterEach(() => {
  vi.useRealTimers();
});

it('a Date moved 31 minutes ahead and back while a worker waits on its fetch leaves it polling', async () => {
  const QUEUE = 'passes-republish';
  const { rows } = await t.database.executeSql('select table_name from pgboss.queue where name = $1', [QUEUE]);
  const table = `pgboss.${String(rows[0]!.table_name)}`;
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + 31 * 60_000);
  // The table the queue's jobs are in locked (job_common, which the unpartitioned queues share;
  // that table alone, not the partitioned parent, so nothing is held while the lock waits and
  // it cannot deadlock with pg-boss's statements): the workers' next fetches start under the
  // moved Date and wait.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: Promise<void>;
  await new Promise<void>((lockTaken, failed) => {
    locked = t.database.db.transaction(async (tx) => {
      await tx.execute(`lock table ${table} in access exclusive mode`);
      lockTaken();
      await released;
    });
    locked.catch(failed);
  });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  vi.useRealTimers();
  release();
  await locked;

  await t.database.db.transaction((tx) => t.app.jobs.send(tx, { name: QUEUE, data: { reason: 'test' } }));
  // Within a few poll intervals (0.5 s), not the 31 minutes.
  await settleDeliveries(t.app, 5_000);
}, 60_000);

it('a wait past Node’s longest timer (a claim row the database’s clock wrote 13 months ahead) sleeps, not spins', async () => {
  const clock = cappedTimers(systemClock);
  const DAY = 24 * 60 * 60 * 1000;
  let fired = 0;
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.name);
  process.on('warning', onWarning);
  const timer = clock.setTimeout(() => fired++, 396 * DAY);
  await new Promise((resolve) => setTimeout(resolve, 100));
  clock.clearTimeout(timer);
  process.off('warning', onWarning);
  // Uncapped, Node fires it after 1 ms, saying so (TimeoutOverflowWarning).
  expect(fired).toBe(0);
  expect(warnings).not.toContain('TimeoutOverflowWarning');
});
