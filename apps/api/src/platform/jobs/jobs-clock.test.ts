// The test app's job queue keeps real time (test-app.ts): tests move the process's Date
// (vi.setSystemTime) and back, and a worker whose fetch waited across the move back must go on
// polling, not sleep for the jump (pg-boss times its poll loop with its clock).
import { afterAll, beforeAll, it, vi } from 'vitest';
import { createTestApp, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

it('a Date moved 31 minutes ahead and back while the workers wait on their fetch leaves them polling', async () => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + 31 * 60_000);
  // The job table locked: every worker's next fetch starts under the moved Date and waits.
  let release!: () => void;
  const locked = t.database.db.transaction(async (tx) => {
    await tx.execute('lock table pgboss.job in access exclusive mode');
    await new Promise<void>((resolve) => (release = resolve));
  });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  vi.useRealTimers();
  release();
  await locked;

  await t.database.db.transaction((tx) => t.app.jobs.send(tx, { name: 'passes-republish', data: { reason: 'test' } }));
  // Within a few poll intervals (0.5 s), not the 31 minutes.
  await settleDeliveries(t.app, 5_000);
}, 60_000);
