// A job due at once wakes the workers on the database as the transaction that adds it commits
// (LISTEN/NOTIFY, job-queue.ts), long before their next poll: those of another process too.
import { afterEach, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { eachJob, startJobQueue, type JobQueue } from './job-queue.ts';

/** Workers that poll every 30 s: a job they run within seconds was a wake-up's. */
const settings = { retryLimit: 0, retryDelaySeconds: 1, expireSeconds: 60, pollSeconds: 30 };
const fail = (error: Error) => {
  throw error;
};

let database: TestDatabase | undefined;
const queues: JobQueue[] = [];
afterEach(async () => {
  for (const queue of queues.splice(0)) await queue.stop();
  await database?.close();
});

it("runs a job another process adds as that process's transaction commits, long before the workers poll", async () => {
  database = await createTestDatabase();
  // The API process (no workers) adds the job; the worker process runs it.
  const api = await startJobQueue(database, { ...settings, runsWorkers: false }, fail);
  const worker = await startJobQueue(database, { ...settings, runsWorkers: true }, fail);
  queues.push(api, worker);
  await api.createQueue('mail', 'standard');
  const ran: number[] = [];
  await worker.work<object>(
    'mail',
    { batchSize: 1 },
    eachJob(async () => void ran.push(Date.now())),
  );
  // The worker's first fetch, at its start, found nothing: its next poll is 30 s away.
  await new Promise((resolve) => setTimeout(resolve, 1000));

  let committedAt = 0;
  await database.db.transaction(async (tx) => {
    await api.send(tx, { name: 'mail', data: {} });
    // Not run while the transaction is open: the job, and its wake-up, are not there yet.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ran).toEqual([]);
    committedAt = Date.now();
  });
  await expect.poll(() => ran.length, { timeout: 10_000 }).toBe(1);
  expect(ran[0]! - committedAt).toBeLessThan(5_000);
});
