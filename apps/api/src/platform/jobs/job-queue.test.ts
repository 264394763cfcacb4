// pg-boss 12 starting on a database whose queue pg-boss 10 made (an older Boardwalk's data):
// the jobs it left unfinished are carried over, with their ids, and then run.
import { readFile } from 'node:fs/promises';
import { afterEach, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { eachJob, startJobQueue, type JobQueue } from './job-queue.ts';
import { createJobs } from './jobs.plugin.ts';

const settings = { retryLimit: 2, retryDelaySeconds: 1, expireSeconds: 60, pollSeconds: 0.5 };
const waiting = '11111111-1111-4111-8111-111111111111';
const retrying = '22222222-2222-4222-8222-222222222222';
const running = '33333333-3333-4333-8333-333333333333';
const finished = '44444444-4444-4444-8444-444444444444';

let database: TestDatabase | undefined;
let queue: JobQueue | undefined;
afterEach(async () => {
  await queue?.stop();
  await database?.close();
});

/** What the jobs plugin does once the features have declared their queues. */
async function declare(jobs: JobQueue): Promise<void> {
  await jobs.createQueue('mail', 'stately');
  await jobs.createQueue('apple-push', 'stately');
  await jobs.carryOverVersion10Jobs(['mail', 'apple-push']);
}

async function version10Database(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  await db.executeSql(await readFile(new URL('../../../test-support/pg-boss-10-schema.sql', import.meta.url), 'utf8'));
  await db.executeSql(
    `SELECT pgboss.create_queue('mail', '{"policy":"stately"}'), pgboss.create_queue('apple-push', '{"policy":"stately"}')`,
  );
  await db.executeSql(
    `INSERT INTO pgboss.job (id, name, data, state, singleton_key, policy) VALUES
       ('${waiting}', 'mail', '{"deliveryId":"d1"}', 'created', 'd1', 'stately'),
       ('${retrying}', 'mail', '{"deliveryId":"d2"}', 'retry', 'd2', 'stately'),
       ('${running}', 'apple-push', '{"deliveryId":"d3"}', 'active', 'd3', 'stately'),
       ('${finished}', 'apple-push', '{"deliveryId":"d4"}', 'completed', 'd4', 'stately')`,
  );
  return db;
}

it('carries the jobs pg-boss 10 left waiting, retrying or running into pg-boss 12, keeping their ids, and drops its schema', async () => {
  database = await version10Database();
  queue = await startJobQueue(database, settings, (error) => {
    throw error;
  });
  await declare(queue);

  const { rows } = await database.executeSql(`SELECT id::text AS id, name, state::text AS state, data FROM pgboss.job ORDER BY id`);
  expect(rows).toEqual([
    { id: waiting, name: 'mail', state: 'created', data: { deliveryId: 'd1' } },
    { id: retrying, name: 'mail', state: 'created', data: { deliveryId: 'd2' } },
    { id: running, name: 'apple-push', state: 'created', data: { deliveryId: 'd3' } },
  ]);
  const old = await database.executeSql(`SELECT to_regnamespace('pgboss_v10') IS NULL AS gone`);
  expect(old.rows[0]?.gone).toBe(true);

  const ran: string[] = [];
  await queue.work<{ deliveryId: string }>(
    'mail',
    { batchSize: 5 },
    eachJob(async (job) => void ran.push(job.data.deliveryId)),
  );
  await expect.poll(() => ran.sort(), { timeout: 10_000 }).toEqual(['d1', 'd2']);
  await expect.poll(() => queue!.pending(['mail']), { timeout: 10_000 }).toBe(0);
});

it('starts a second time on the carried-over schema without moving anything again', async () => {
  database = await version10Database();
  const first = await startJobQueue(database, settings, () => undefined);
  await declare(first);
  await first.stop();
  queue = await startJobQueue(database, settings, (error) => {
    throw error;
  });
  await declare(queue);
  const { rows } = await database.executeSql(`SELECT count(*)::int AS n FROM pgboss.job`);
  expect(rows[0]?.n).toBe(3);
});

it("counts a waiting job's tries to today's retry limit: a job added under a limit of 2 fails for good on its first try after a start with 0", async () => {
  database = await createTestDatabase();
  const before = await startJobQueue(database, settings, () => undefined);
  await before.createQueue('mail', 'stately');
  await before.send(database.db, { name: 'mail', data: { deliveryId: 'd1' } });
  await before.stop();

  queue = await startJobQueue(database, { ...settings, retryLimit: 0 }, (error) => {
    throw error;
  });
  await queue.createQueue('mail', 'stately');
  const { rows } = await database.executeSql(`SELECT retry_limit FROM pgboss.job WHERE name = 'mail'`);
  expect(rows).toEqual([{ retry_limit: 0 }]);
  const seen: { retryCount: number; retryLimit: number }[] = [];
  await queue.work<{ deliveryId: string }>(
    'mail',
    { batchSize: 1 },
    eachJob(async ({ retryCount, retryLimit }) => {
      seen.push({ retryCount, retryLimit });
      throw new Error('the mail server is down');
    }),
  );
  await expect
    .poll(async () => (await database!.executeSql(`SELECT state::text FROM pgboss.job WHERE name = 'mail'`)).rows, { timeout: 10_000 })
    .toEqual([{ state: 'failed' }]);
  // The one try the worker was told was the last (retryCount >= retryLimit): a delivery records it as dead.
  expect(seen).toEqual([{ retryCount: 0, retryLimit: 0 }]);
});

it("gives the jobs still to run (or running) their queue's expiry of today: a job added under 60 s may run the hour its queue now allows", async () => {
  database = await createTestDatabase();
  const before = await startJobQueue(database, settings, () => undefined);
  await before.createQueue('retention', 'stately');
  await before.send(database.db, { name: 'retention', data: {} });
  await before.stop();

  queue = await startJobQueue(database, settings, () => undefined);
  await queue.createQueue('retention', 'stately', 3600);
  const { rows } = await database.executeSql(`SELECT expire_seconds FROM pgboss.job WHERE name = 'retention'`);
  expect(rows).toEqual([{ expire_seconds: 3600 }]);
});

it("fetches a guest's own job before a waiting wave of 10,000 (the wave's priority), and never lets a wave job absorb it", async () => {
  database = await createTestDatabase();
  queue = await startJobQueue(database, settings, (error) => {
    throw error;
  });
  const jobs = createJobs(queue, 0).jobs;
  await jobs.declare({
    name: 'compare',
    policy: 'stately',
    batchSize: 100,
    subscribes: [{ topic: 'changed', data: (key) => ({ key }) }],
    handler: async () => undefined,
  });
  const keys = Array.from({ length: 10_000 }, (_, i) => `wave-${i}`);
  await database.db.transaction((tx) => jobs.publish(tx, 'changed', [...keys, 'own-1'], null, { wave: true }));
  // A guest's change of a key the wave holds a waiting job for: its own job all the same.
  await database.db.transaction((tx) => jobs.publish(tx, 'changed', ['own-1']));
  const order: string[] = [];
  await queue.work<{ key: string }>('compare', { batchSize: 100 }, async (batch) => {
    order.push(...batch.map((job) => job.data.key));
    return batch.map(() => null);
  });
  while (order.length < 200) await new Promise((resolve) => setTimeout(resolve, 50));
  // The first batches fetched hold the guest's job, though 10,001 wave jobs were queued before it:
  // the first on PGlite; on PostgreSQL one of the first two, which its two fetch loops fetch at
  // once and either may hand over first (seen in a full run).
  expect(order.slice(0, database.kind === 'postgres' ? 200 : 100)).toContain('own-1');
}, 60_000);
