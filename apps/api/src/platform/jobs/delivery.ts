// One outbound delivery (an APNs push, a Google object update, a mail): queued as a job and a
// deliveries row in the caller's transaction, then tried by a worker, each try recorded.
import { randomUUID } from 'node:crypto';
import type { Executor } from '@boardwalk/db/client';
import type { JobSender, RunningJob } from './job-queue.ts';
import {
  findRetryableDelivery,
  insertDelivery,
  recordAttempts,
  requeueDelivery,
  type Attempt,
  type ApplePushTrack,
} from './deliveries.repo.ts';
import type { DeliveryTarget } from '@boardwalk/contract/deliveries';

/** An answer that will not change by trying again (a refused recipient): the delivery is dead at once. */
export class PermanentDeliveryError extends Error {}

export interface DeliveryJobData {
  deliveryId: string;
}

export interface QueueDeliveryInput<T extends object> {
  queue: string;
  target: DeliveryTarget;
  barcode: string | null;
  /** Masked for display: the device, object or recipient. */
  recipient: string;
  payload: T;
  /** While a delivery of this key waits, a new one is absorbed (it will carry the latest state). */
  singletonKey: string;
  /** An Apple push: what it announces, so that the device's fetch of the pass is recorded against it. */
  track?: ApplePushTrack;
  /** A past time it is queued at (the demo's history); unset: now. */
  at?: Date | undefined;
}

/** Queues a delivery in tx; false when a waiting delivery of the same key absorbed it. */
export async function queueDelivery<T extends object>(jobs: JobSender, tx: Executor, input: QueueDeliveryInput<T>): Promise<boolean> {
  const id = randomUUID();
  const jobId = await jobs.send(tx, { name: input.queue, data: { ...input.payload, deliveryId: id }, singletonKey: input.singletonKey });
  if (!jobId) return false;
  await insertDelivery(tx, {
    id,
    target: input.target,
    barcode: input.barcode,
    recipient: input.recipient,
    queue: input.queue,
    payload: input.payload,
    jobId,
    ...input.track,
    at: input.at,
  });
  return true;
}

/** Outcome of a try that did not fail: delivered, or nothing to deliver (with why). */
export type TryOutcome = { state: 'sent'; objectVersion?: string | null } | { state: 'skipped'; note: string };

/**
 * Runs one try and records it. A failure is retried by the queue (the error rethrown) until
 * the last try, which records the delivery as dead; a permanent failure is dead at once.
 * `at`: a past time of the try (the demo's history); unset: now.
 */
export async function tryDelivery(
  db: Executor,
  job: RunningJob<DeliveryJobData>,
  deliver: () => Promise<TryOutcome>,
  at?: Date,
): Promise<void> {
  const [error] = await tryDeliveries(db, [job], deliver, at);
  if (error) throw error;
}

/**
 * Runs one try of each job of a batch at once and records them all in one statement, as
 * tryDelivery does one: answers, per job, the error the queue is to retry it for (or null).
 */
export async function tryDeliveries<J extends RunningJob<DeliveryJobData>>(
  db: Executor,
  jobs: J[],
  deliver: (job: J) => Promise<TryOutcome>,
  at?: Date,
): Promise<(Error | null)[]> {
  const settled = await Promise.allSettled(jobs.map((job) => deliver(job)));
  const attempts = settled.map((result, i): Attempt => {
    const { deliveryId, retryCount, retryLimit } = { ...jobs[i]!.data, ...jobs[i]! };
    if (result.status === 'fulfilled') {
      const outcome = result.value;
      return outcome.state === 'skipped'
        ? { id: deliveryId, state: 'skipped', lastError: outcome.note }
        : { id: deliveryId, state: 'sent', lastError: null, objectVersion: outcome.objectVersion };
    }
    const error: unknown = result.reason;
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const last = error instanceof PermanentDeliveryError || retryCount >= retryLimit;
    return { id: deliveryId, state: last ? 'dead' : 'retrying', lastError: message };
  });
  await recordAttempts(db, attempts, at);
  return settled.map((result) =>
    result.status === 'fulfilled' || result.reason instanceof PermanentDeliveryError
      ? null
      : result.reason instanceof Error
        ? result.reason
        : new Error(String(result.reason)),
  );
}

/**
 * A staff Retry (in tx): a failed or dead delivery gets a new job now. False when there is none
 * to retry. The job's singleton key is the delivery's own: a stately queue keeps one waiting job
 * per key, and with none (or the delivery's first key) a Retry of another delivery, or a new
 * change, waiting in the queue would refuse it.
 */
export async function retryDelivery(jobs: JobSender, tx: Executor, id: string): Promise<boolean> {
  const row = await findRetryableDelivery(tx, id);
  if (!row) return false;
  const jobId = await jobs.send(tx, {
    name: row.queue,
    data: { ...(row.payload as object), deliveryId: row.id },
    singletonKey: `retry:${row.id}`,
  });
  if (!jobId) return false;
  await requeueDelivery(tx, row.id, jobId);
  return true;
}
