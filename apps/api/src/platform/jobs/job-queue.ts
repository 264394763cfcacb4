// Durable jobs on the database: pg-boss 10 on PostgreSQL and on the embedded PGlite, through
// pg-boss's `db` adapter (executeSql). A job is written by the caller's own transaction, so
// it exists exactly when the change that caused it commits. Workers fetch with SKIP LOCKED:
// several processes on one PostgreSQL never run one job twice.
import { setTimeout as sleep } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '@boardwalk/db/client';

/** The queues: a pass to compare again, the staff fan-out, the three outbound calls, and a purchase a feed changed. */
export const QUEUES = {
  ticketChanged: 'ticket-changed',
  passesRepublish: 'passes-republish',
  applePush: 'apple-push',
  googleUpdate: 'google-update',
  mail: 'mail',
  purchaseChanged: 'purchase-changed',
  loyaltyAccountChanged: 'loyalty-account-changed',
  memberCardVoided: 'member-card-voided',
  deadLetters: 'dead-letters',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface JobSettings {
  retryLimit: number;
  retryDelaySeconds: number;
  /** A job still active this long (its process died) is failed and tried again. */
  expireSeconds: number;
  pollSeconds: number;
}

export interface NewJob {
  name: QueueName;
  data: object;
  /** With a stately queue: while one job of this key waits, another is not added (coalescing). */
  singletonKey?: string;
  startAfterSeconds?: number;
}

export interface RunningJob<T> {
  id: string;
  data: T;
  /** Tries before this one. */
  retryCount: number;
  retryLimit: number;
}

export interface JobQueue {
  /** Adds a job in the caller's transaction; its id, or null when a waiting job of its key absorbed it. */
  send(tx: Executor, job: NewJob): Promise<string | null>;
  /** Adds many jobs in one statement in the caller's transaction (keys as in send). */
  insert(tx: Executor, jobs: NewJob[]): Promise<void>;
  /**
   * Runs the handler for each job of the queue, up to batchSize at once. A handler that
   * throws fails its job alone: pg-boss retries it with exponential backoff and jitter, then
   * dead-letters it.
   */
  work<T>(name: QueueName, options: { batchSize: number }, handler: (job: RunningJob<T>) => Promise<void>): Promise<void>;
  /** Jobs of these queues waiting or running now (a retry counts once its time has come). */
  pending(names: QueueName[]): Promise<number>;
  /** Jobs not finished, per queue and state: created (waiting), retry (waiting for its next try), active. */
  depths(): Promise<{ queue: string; state: string; count: number }[]>;
  stop(): Promise<void>;
}

async function retryOnDeadlock(work: () => Promise<void>, tries = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= tries) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}

/**
 * One worker: fetches up to batchSize jobs, runs them side by side, completes the ones that
 * succeeded and fails the others (each on its own: pg-boss retries it with backoff, then
 * dead-letters it). A full batch fetches again at once; otherwise it waits pollMs.
 * Written here rather than with boss.work(): pg-boss 10's worker does not await its own
 * complete() and fail(), so a database that drops at that moment would be an unhandled
 * rejection, which ends the process.
 */
async function runWorker<T>(
  boss: PgBoss,
  name: QueueName,
  batchSize: number,
  handler: (job: RunningJob<T>) => Promise<void>,
  options: { pollMs: number; stopping: AbortController; onError: OnError },
): Promise<void> {
  const { signal } = options.stopping;
  while (!signal.aborted) {
    // fetch() answers [] when the database cannot be reached.
    const jobs = await boss.fetch<T>(name, { batchSize, includeMetadata: true });
    const done: string[] = [];
    await Promise.all(
      jobs.map(async (job) => {
        try {
          await handler({ id: job.id, data: job.data, retryCount: job.retryCount, retryLimit: job.retryLimit });
          done.push(job.id);
        } catch (error) {
          await boss.fail(name, job.id, { message: error instanceof Error ? error.message : String(error) }).catch(options.onError);
        }
      }),
    );
    // A job not completed (the database dropped) stays active and is taken up again after it expires.
    if (done.length > 0) await boss.complete(name, done).catch(options.onError);
    if (jobs.length < batchSize && !signal.aborted) await sleep(options.pollMs, undefined, { signal }).catch(() => undefined);
  }
}

/** pg-boss's SQL ($1, $2 ...) as a Drizzle query, so it runs on whatever executor it is given. */
function toDrizzleSql(text: string, values: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`)));
}

function executorAdapter(tx: Executor): PgBoss.Db {
  return {
    async executeSql(text, values = []) {
      const result = (await tx.execute(toDrizzleSql(text, values))) as unknown as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}

const toInsert = (job: NewJob) => ({
  name: job.name,
  data: job.data,
  ...(job.singletonKey !== undefined && { singletonKey: job.singletonKey }),
  ...(job.startAfterSeconds && { startAfter: String(job.startAfterSeconds) }),
});

/** Told of database errors the queue meets in the background (maintenance, fetching, completing). */
export type OnError = (error: Error) => void;

/**
 * Starts on one database one at a time: pg-boss creates its schema under an advisory lock,
 * which does not exclude two starts sharing PGlite's one session (two apps in one process).
 */
const starting = new WeakMap<Database, Promise<unknown>>();

/** Starts pg-boss on the database (creating its schema the first time) and the queues. */
export async function startJobQueue(database: Database, settings: JobSettings, onError: OnError): Promise<JobQueue> {
  const previous = starting.get(database) ?? Promise.resolve();
  const started = previous.catch(() => undefined).then(() => startOnce(database, settings, onError));
  starting.set(database, started);
  return started;
}

async function startOnce(database: Database, settings: JobSettings, onError: OnError): Promise<JobQueue> {
  const boss = new PgBoss({
    db: {
      executeSql: (text, values) =>
        database.executeSql(
          text,
          values?.map((v: unknown) => v ?? null),
        ),
    },
    // Expired (dead-process) jobs are found by the maintenance run: often enough to retry within seconds.
    maintenanceIntervalSeconds: Math.max(1, Math.min(30, Math.floor(settings.expireSeconds / 2))),
    schedule: false,
  });
  boss.on('error', onError);
  await boss.start();
  const retries = {
    retryLimit: settings.retryLimit,
    retryDelay: settings.retryDelaySeconds,
    retryBackoff: true,
    expireInSeconds: settings.expireSeconds,
  };
  const policies: Record<Exclude<QueueName, 'dead-letters'>, PgBoss.QueuePolicy> = {
    [QUEUES.ticketChanged]: 'stately',
    [QUEUES.passesRepublish]: 'standard',
    [QUEUES.applePush]: 'stately',
    [QUEUES.googleUpdate]: 'stately',
    [QUEUES.mail]: 'stately',
    [QUEUES.purchaseChanged]: 'stately',
    [QUEUES.loyaltyAccountChanged]: 'stately',
    [QUEUES.memberCardVoided]: 'stately',
  };
  // Instances starting together on one PostgreSQL can deadlock creating the same queue's
  // partition: creation is idempotent, so it is simply tried again.
  await retryOnDeadlock(async () => {
    await boss.createQueue(QUEUES.deadLetters, { name: QUEUES.deadLetters, retentionMinutes: 60 * 24 * 30 });
    for (const [name, policy] of Object.entries(policies)) {
      const options = { name, policy, ...retries, deadLetter: QUEUES.deadLetters };
      await boss.createQueue(name, options);
      // Settings may have changed since the queue was made.
      await boss.updateQueue(name, options);
    }
  });

  const stopping = new AbortController();
  const loops: Promise<void>[] = [];
  return {
    async send(tx, job) {
      return boss.send(job.name, job.data, {
        db: executorAdapter(tx),
        ...(job.singletonKey !== undefined && { singletonKey: job.singletonKey }),
        ...(job.startAfterSeconds && { startAfter: job.startAfterSeconds }),
      });
    },
    async insert(tx, jobs) {
      if (jobs.length > 0) await boss.insert(jobs.map(toInsert), { db: executorAdapter(tx) });
    },
    async work<T>(name: QueueName, options: { batchSize: number }, handler: (job: RunningJob<T>) => Promise<void>) {
      loops.push(runWorker(boss, name, options.batchSize, handler, { pollMs: settings.pollSeconds * 1000, stopping, onError }));
    },
    async pending(names) {
      const { rows } = await database.executeSql(
        `select count(*)::int as n from pgboss.job
         where name = any($1::text[]) and (state in ('created', 'active') or (state = 'retry' and start_after <= now()))`,
        [names],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async depths() {
      const { rows } = await database.executeSql(
        `select name as queue, state::text as state, count(*)::int as n from pgboss.job
         where state in ('created', 'retry', 'active') group by name, state`,
        [],
      );
      return rows.map((r) => ({ queue: String(r.queue), state: String(r.state), count: Number(r.n) }));
    },
    async stop() {
      // Workers finish the batch in hand (at most DELIVERY_EXPIRE_SECONDS; a job left active
      // is taken up again by another worker after that) and fetch no more.
      stopping.abort();
      await Promise.all(loops);
      await boss.stop({ graceful: false, close: false });
    },
  };
}
