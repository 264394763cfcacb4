// Events out to the operator's webhook endpoints, delivered at least once and in order per
// subject. The events are written by the changes that cause them (platform/events.ts); the
// dispatcher reads them from the feed, in the feed's order, and makes one message per event and
// subscribed endpoint, in one transaction with its place in the feed (an event is dispatched
// exactly once, whichever process dispatches). A job of the `webhooks` queue makes one attempt
// at each of its messages (up to MESSAGES_PER_JOB): each is tried, recorded, and either ended
// (delivered, dead) or queued for its next attempt on the retry schedule. A message of a subject that has one in flight waits
// ('waiting') and is let go when that one ends.
import type { Executor } from '@boardwalk/db/client';
import { EVENT_VERSION } from '@boardwalk/contract/events';
import { TEST_EVENT_TYPE, WEBHOOK_RETRY_SECONDS, type WebhookMessageState } from '@boardwalk/contract/webhooks';
import type { Jobs } from '../../../platform/jobs/jobs.plugin.ts';
import type { RunningJob } from '../../../platform/jobs/job-queue.ts';
import type { Keys } from '../../../platform/keys.plugin.ts';
import { eventOfRow, lastFinalEvent, readEventRows } from '../events.repo.ts';
import type { WebhookOutcome, WebhookSender } from './webhook-sender.ts';
import {
  activeEndpoints,
  insertMessages,
  lockBusySubjects,
  lockCursor,
  pairKey,
  readMessagesToSend,
  recordAttempts,
  saveCursor,
  type AttemptRecord,
  type EndpointRow,
} from './webhooks.repo.ts';

export const WEBHOOKS_QUEUE = 'webhooks';

export interface WebhookJobData {
  messageIds: string[];
}

/** Messages per job: the attempts one job makes at once, fetched and completed as one. */
export const MESSAGES_PER_JOB = 100;

/** Events read from the feed per dispatcher transaction. */
export const DISPATCH_BATCH = 1000;

/** The purpose an endpoint's secret is sealed for (bound to the endpoint). */
export const secretPurpose = (endpointId: string) => `webhook-secret:${endpointId}`;

/** The `webhook-id` of a message: the same on every attempt. */
export const webhookId = (messageId: string) => `msg_${messageId.replaceAll('-', '')}`;

/** Jobs for the messages' (next) attempts, in tx: MESSAGES_PER_JOB to a job. */
export async function queueAttempts(
  jobs: Pick<Jobs, 'insert'>,
  tx: Executor,
  messageIds: string[],
  startAfterSeconds?: number,
): Promise<void> {
  const chunks = Array.from({ length: Math.ceil(messageIds.length / MESSAGES_PER_JOB) }, (_, i) =>
    messageIds.slice(i * MESSAGES_PER_JOB, (i + 1) * MESSAGES_PER_JOB),
  );
  await jobs.insert(
    tx,
    chunks.map((ids) => ({ name: WEBHOOKS_QUEUE, data: { messageIds: ids }, ...(startAfterSeconds && { startAfterSeconds }) })),
  );
}

/** Told what each attempt did (the metrics). */
export type AttemptObserver = (attempt: { endpointId: string; type: string; outcome: string; ms: number | null }) => void;

export interface WebhookDeliveryDeps {
  db: Executor;
  jobs: Pick<Jobs, 'insert'>;
  keys: Pick<Keys, 'unseal'>;
  sender: WebhookSender;
  /** The team is told of an endpoint disabled for failing 5 days (in the recording transaction). */
  tellTeam(tx: Executor, endpoint: EndpointRow): Promise<void>;
  observe: AttemptObserver;
}

/** What an attempt's outcome makes of its message: its new state, and when a retry is due. */
export function nextState(outcome: WebhookOutcome, attemptsBefore: number): { state: WebhookMessageState; retryInSeconds: number | null } {
  if (outcome.outcome === 'delivered') return { state: 'delivered', retryInSeconds: null };
  if (outcome.outcome === 'gone') return { state: 'dead', retryInSeconds: null };
  const retryInSeconds = WEBHOOK_RETRY_SECONDS[attemptsBefore] ?? null;
  return retryInSeconds === null ? { state: 'dead', retryInSeconds: null } : { state: 'retrying', retryInSeconds };
}

export function createWebhookDelivery(deps: WebhookDeliveryDeps) {
  const { db, jobs, keys, sender } = deps;

  /** Reads up to `limit` final events past the cursor and makes their messages; answers how many events it read. */
  async function dispatch(limit = DISPATCH_BATCH): Promise<number> {
    return db.transaction(async (tx) => {
      const cursor = await lockCursor(tx);
      if (!cursor) return 0;
      const endpoints = await activeEndpoints(tx);
      if (endpoints.length === 0) {
        // Nobody to send to: an endpoint added later receives the events after it only.
        await saveCursor(tx, await lastFinalEvent(tx));
        return 0;
      }
      const { rows, next } = await readEventRows(tx, cursor, limit);
      const planned = rows.flatMap((event) =>
        endpoints
          .filter((endpoint) => event.createdAt >= endpoint.createdAt && (endpoint.eventTypes?.includes(event.type) ?? true))
          .map((endpoint) => ({ endpointId: endpoint.id, eventId: event.id, type: event.type, subject: event.subject })),
      );
      const busy = await lockBusySubjects(tx, planned);
      const messages = planned.map((message) => {
        const key = pairKey(message);
        const state: WebhookMessageState = busy.has(key) ? 'waiting' : 'pending';
        busy.add(key);
        return { ...message, state };
      });
      const inserted = await insertMessages(tx, messages);
      await queueAttempts(
        jobs,
        tx,
        inserted.filter((m) => m.state === 'pending').map((m) => m.id),
      );
      await saveCursor(tx, next);
      return rows.length;
    });
  }

  /** The webhooks queue's batch: every message tried at once, all recorded in one transaction. */
  async function deliver(batch: RunningJob<WebhookJobData>[]): Promise<(Error | null)[]> {
    const rows = await readMessagesToSend(db, [...new Set(batch.flatMap((job) => job.data.messageIds))]);
    // A message already ended, or not due (a second job of it), is left as it is.
    const toTry = rows.filter((row) => (row.state === 'pending' || row.state === 'retrying') && row.due);
    // A secret is unsealed once a batch, not once a message (a decipher each: 5% of a drain's CPU, measured).
    const unsealed = new Map<string, string | null>();
    const unseal = (endpointId: string, sealed: string) => {
      if (!unsealed.has(sealed)) unsealed.set(sealed, keys.unseal(secretPurpose(endpointId), sealed));
      return unsealed.get(sealed)!;
    };
    const records = await Promise.all(
      toTry.map(async (row): Promise<AttemptRecord> => {
        const base = { id: row.id, endpointId: row.endpointId, subject: row.subject };
        if (!row.active) {
          deps.observe({ endpointId: row.endpointId, type: row.type, outcome: 'disabled', ms: null });
          return {
            ...base,
            state: 'dead',
            attempted: false,
            status: null,
            ms: null,
            error: 'The endpoint is disabled',
            retryInSeconds: null,
          };
        }
        const secrets = [row.secret, row.previousSecret]
          .filter((sealed): sealed is string => sealed !== null)
          .map((sealed) => unseal(row.endpointId, sealed))
          .filter((secret): secret is string => secret !== null);
        const payload = row.event
          ? eventOfRow(row.event)
          : {
              id: row.id,
              type: TEST_EVENT_TYPE,
              timestamp: row.createdAt.toISOString(),
              version: EVENT_VERSION,
              system: null,
              data: { test: true },
            };
        const outcome = await sender.send(row.url, secrets, {
          id: webhookId(row.id),
          timestamp: new Date(),
          body: JSON.stringify(payload),
        });
        deps.observe({ endpointId: row.endpointId, type: row.type, outcome: outcome.outcome, ms: outcome.ms });
        return {
          ...base,
          ...nextState(outcome, row.attempts),
          attempted: true,
          status: outcome.status,
          ms: outcome.ms,
          error:
            outcome.outcome === 'failed'
              ? outcome.error.slice(0, 500)
              : outcome.outcome === 'gone'
                ? 'The endpoint answered 410 Gone: it is disabled'
                : null,
        };
      }),
    );
    if (records.length > 0) {
      await db.transaction(async (tx) => {
        const { promoted, disabled } = await recordAttempts(tx, records);
        await queueAttempts(jobs, tx, promoted);
        for (const delay of new Set(records.map((r) => r.retryInSeconds))) {
          if (delay !== null)
            await queueAttempts(
              jobs,
              tx,
              records.filter((r) => r.retryInSeconds === delay).map((r) => r.id),
              delay,
            );
        }
        for (const endpoint of disabled) await deps.tellTeam(tx, endpoint);
      });
    }
    return batch.map(() => null);
  }

  return { dispatch, deliver };
}
