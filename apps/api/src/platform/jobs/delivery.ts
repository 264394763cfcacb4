// One outbound delivery (an APNs push, a Google object update, a mail): queued as a job and a
// deliveries row in the caller's transaction, then tried by a worker, each try recorded.
import { randomUUID } from 'node:crypto';
import type { Executor } from '@boardwalk/db/client';
import type { JobSender, RunningJob } from './job-queue.ts';
import {
  findRetryableDelivery,
  insertDelivery,
  recordAttempt,
  requeueDelivery,
  type ApplePushTrack,
  type DeliveryTarget,
} from './deliveries.repo.ts';

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
  });
  return true;
}

/** Outcome of a try that did not fail: delivered, or nothing to deliver (with why). */
export type TryOutcome = { state: 'sent'; objectVersion?: string | null } | { state: 'skipped'; note: string };

/**
 * Runs one try and records it. A failure is retried by the queue (the error rethrown) until
 * the last try, which records the delivery as dead; a permanent failure is dead at once.
 */
export async function tryDelivery(db: Executor, job: RunningJob<DeliveryJobData>, deliver: () => Promise<TryOutcome>): Promise<void> {
  try {
    const outcome = await deliver();
    await recordAttempt(
      db,
      job.data.deliveryId,
      outcome.state === 'skipped'
        ? { state: 'skipped', lastError: outcome.note }
        : { state: 'sent', lastError: null, objectVersion: outcome.objectVersion },
    );
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const permanent = error instanceof PermanentDeliveryError;
    const last = permanent || job.retryCount >= job.retryLimit;
    await recordAttempt(db, job.data.deliveryId, { state: last ? 'dead' : 'retrying', lastError: message });
    if (!permanent) throw error;
  }
}

/** A staff Retry (in tx): a failed or dead delivery gets a new job now. False when there is none to retry. */
export async function retryDelivery(jobs: JobSender, tx: Executor, id: string): Promise<boolean> {
  const row = await findRetryableDelivery(tx, id);
  if (!row) return false;
  const jobId = await jobs.send(tx, { name: row.queue, data: { ...(row.payload as object), deliveryId: row.id } });
  if (!jobId) return false;
  await requeueDelivery(tx, row.id, jobId);
  return true;
}
