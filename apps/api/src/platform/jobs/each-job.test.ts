// A handler of one job as a batch handler: the batch's jobs run at once up to the limit, and
// each fails alone.
import { expect, it } from 'vitest';
import { eachJob, type RunningJob } from './job-queue.ts';

const batch = (n: number): RunningJob<{ n: number }>[] =>
  Array.from({ length: n }, (_, i) => ({ id: `job-${i}`, data: { n: i }, retryCount: 0, retryLimit: 2 }));

/** Runs the batches at once through one eachJob; the most jobs running at one time. */
async function mostAtOnce(atOnce: number | undefined, ...batches: number[]): Promise<number> {
  let running = 0;
  let most = 0;
  const handler = eachJob<{ n: number }>(async () => {
    most = Math.max(most, ++running);
    await new Promise((resolve) => setTimeout(resolve, 5));
    running -= 1;
  }, atOnce);
  await Promise.all(batches.map((n) => handler(batch(n))));
  return most;
}

it('runs a batch all at once without a limit', async () => {
  expect(await mostAtOnce(undefined, 20)).toBe(20);
});

it('runs at most the limit at once, across the batches of the queue fetch loops', async () => {
  expect(await mostAtOnce(3, 20)).toBe(3);
  expect(await mostAtOnce(3, 10, 10)).toBe(3);
});

it('answers per job in order: null when done, the error of one that failed', async () => {
  const handler = eachJob<{ n: number }>(async ({ data }) => {
    if (data.n === 1) throw new Error('job 1 failed');
  }, 2);
  const answers = await handler(batch(3));
  expect(answers.map((a) => a?.message ?? null)).toEqual([null, 'job 1 failed', null]);
});
