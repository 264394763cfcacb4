// A handler of one job as a batch handler (eachJob): the batch's jobs run at once, through a
// limit when given one, and each fails alone; the declared queues whose jobs hold a
// transaction share one limit (createJobs).
import pLimit, { type LimitFunction } from 'p-limit';
import { expect, it } from 'vitest';
import type { Executor } from '@boardwalk/db/client';
import { eachJob, type BatchHandler, type JobQueue, type RunningJob } from './job-queue.ts';
import { createJobs } from './jobs.plugin.ts';

const batch = (n: number): RunningJob<{ n: number }>[] =>
  Array.from({ length: n }, (_, i) => ({ id: `job-${i}`, data: { n: i }, retryCount: 0, retryLimit: 2 }));

/** A handler that keeps the most jobs it had running at one time (`most`). */
function counting() {
  let running = 0;
  const counter = {
    most: 0,
    handler: async () => {
      counter.most = Math.max(counter.most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
    },
  };
  return counter;
}

/** Runs the batches at once, each through its own eachJob of the given limit; the most jobs running at one time. */
async function mostAtOnce(limit: LimitFunction | undefined, ...batches: number[]): Promise<number> {
  const counter = counting();
  await Promise.all(batches.map((n) => eachJob<{ n: number }>(counter.handler, limit)(batch(n))));
  return counter.most;
}

it('runs a batch all at once without a limit', async () => {
  expect(await mostAtOnce(undefined, 20)).toBe(20);
});

it('runs at most the limit at once, across the batches of every queue sharing it', async () => {
  expect(await mostAtOnce(pLimit(3), 20)).toBe(3);
  expect(await mostAtOnce(pLimit(3), 10, 10, 5)).toBe(3);
});

it('answers per job in order: null when done, the error of one that failed', async () => {
  const handler = eachJob<{ n: number }>(async ({ data }) => {
    if (data.n === 1) throw new Error('job 1 failed');
  }, pLimit(2));
  const answers = await handler(batch(3));
  expect(answers.map((a) => a?.message ?? null)).toEqual([null, 'job 1 failed', null]);
});

it('limits the jobs of the queues that declare a transaction together, and no other queue', async () => {
  // The queue itself is left out: only the handlers the declared queues are worked with matter here.
  const handlers = new Map<string, BatchHandler<{ n: number }>>();
  const queue = {
    createQueue: async () => undefined,
    carryOverVersion10Jobs: async () => undefined,
    send: async () => null,
    work: async (name: string, _options: unknown, handler: BatchHandler<{ n: number }>) => void handlers.set(name, handler),
  } as unknown as JobQueue;
  const { jobs, start } = createJobs(queue, 0, 3);
  const counter = counting();
  const { handler } = counter;
  for (const name of ['first', 'second']) await jobs.declare({ name, policy: 'stately', batchSize: 10, transaction: true, handler });
  await jobs.declare({ name: 'outbound', policy: 'stately', batchSize: 10, handler });
  await start({} as Executor, true);

  await Promise.all([handlers.get('first')!(batch(10)), handlers.get('second')!(batch(10))]);
  expect(counter.most).toBe(3);
  counter.most = 0;
  await handlers.get('outbound')!(batch(10));
  expect(counter.most).toBe(10);
});
