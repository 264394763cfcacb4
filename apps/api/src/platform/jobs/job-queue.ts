// Durable jobs on the database: pg-boss 12 on PostgreSQL and on the embedded PGlite, through
// pg-boss's `db` adapter (executeSql). A job is written by the caller's own transaction, so
// it exists exactly when the change that caused it commits. Workers fetch with SKIP LOCKED:
// several processes on one PostgreSQL never run one job twice.
import type { LimitFunction } from 'p-limit';
import { PgBoss, systemClock, type Clock, type Db, type Job, type JobResult } from 'pg-boss';
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '@boardwalk/db/client';

/**
 * The one queue platform owns: a copy of each job that used up its retries. Every other queue
 * is declared by the feature that owns it (its `.jobs.ts`), through app.jobs.declare.
 */
export const DEAD_LETTERS = 'dead-letters';

/**
 * 'stately': while one job of a singleton key waits, another is not added (coalescing), and
 * one job of a key runs at a time; 'short': coalescing only (jobs of one key may run at once,
 * and the fetch skips stately's check of every candidate against the running jobs);
 * 'standard': every job is kept.
 */
export type QueuePolicy = 'stately' | 'short' | 'standard';

export interface JobSettings {
  retryLimit: number;
  retryDelaySeconds: number;
  /** A job still active this long (its process died) is failed and tried again. */
  expireSeconds: number;
  /**
   * How often a worker looks for jobs that came due (a delay, a retry's backoff) or whose
   * wake-up it missed; a job due at once wakes the workers when its transaction commits.
   */
  pollSeconds: number;
  /**
   * This process runs workers: it LISTENs for the wake-ups of new jobs, and runs pg-boss's
   * timekeeper, which adds the jobs of the declared schedules (one per occurrence, however many
   * processes run it).
   */
  runsWorkers?: boolean;
  /** What pg-boss keeps time and sets its timers by: the system clock unless given (tests give one, test-app.ts). */
  clock?: Clock;
}

export interface NewJob {
  name: string;
  data: object;
  /** With a stately or short queue: while one job of this key waits, another is not added (coalescing). */
  singletonKey?: string;
  startAfterSeconds?: number;
  /** Fetched after every job of a higher priority that is due (0 unless given; a wave's jobs: WAVE_PRIORITY). */
  priority?: number;
}

/** The priority of a wave's jobs (a change to every pass): a guest's own change, at 0, is fetched before them. */
export const WAVE_PRIORITY = -1;

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
   * Runs the handler on the queue's jobs, up to batchSize at once. Each job it answers with an
   * error fails alone: pg-boss retries it with exponential backoff and jitter, then
   * dead-letters it.
   */
  work<T>(name: string, options: { batchSize: number }, handler: BatchHandler<T>): Promise<void>;
  /** Adds a job to the queue at every occurrence of the cron expression (UTC), once across all processes; declaring it again replaces it. */
  schedule(name: string, cron: string): Promise<void>;
  /**
   * Creates a queue (or updates its retry settings, which may have changed since it was made);
   * `expireSeconds` instead of the settings' for a queue whose jobs run long.
   */
  createQueue(name: string, policy: QueuePolicy, expireSeconds?: number): Promise<void>;
  /**
   * Moves the jobs an older Boardwalk's pg-boss 10 left unfinished into these queues (created
   * before), keeping their ids, then drops its schema. Nothing to do on a newer database.
   */
  carryOverVersion10Jobs(queues: string[]): Promise<void>;
  /** Jobs of these queues waiting or running now (a retry counts once its time has come). */
  pending(names: string[]): Promise<number>;
  /** Jobs not finished, per queue and state: created (waiting), retry (waiting for its next try), active. */
  depths(): Promise<{ queue: string; state: string; count: number }[]>;
  stop(): Promise<void>;
}

/** Runs a batch of jobs: answers, per job in the same order, null when it is done or the error it failed with. */
export type BatchHandler<T> = (jobs: RunningJob<T>[]) => Promise<(Error | null)[]>;

/**
 * A handler of one job as a batch handler: the jobs run at once (through `limit`, when given,
 * which may be shared with other queues), each failing alone.
 */
export const eachJob =
  <T>(handler: (job: RunningJob<T>) => Promise<void>, limit?: LimitFunction): BatchHandler<T> =>
  (jobs) =>
    Promise.all(
      jobs.map((job) =>
        (limit ? limit(() => handler(job)) : handler(job)).then(
          () => null,
          (error: unknown) => toError(error),
        ),
      ),
    );

const toError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/** What queueing a delivery needs of the queue. */
export type JobSender = Pick<JobQueue, 'send'>;

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

const toInsert = (job: NewJob) => ({
  data: job.data,
  ...(job.singletonKey !== undefined && { singletonKey: job.singletonKey }),
  ...(job.startAfterSeconds && { startAfter: job.startAfterSeconds }),
  ...(job.priority && { priority: job.priority }),
});

/** pg-boss's SQL ($1, $2 ...) as a Drizzle query, so it runs on whatever executor it is given. */
function toDrizzleSql(text: string, values: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`)));
}

/** pg-boss's statements on the caller's transaction. */
function inTransaction(tx: Executor): Db {
  return {
    async executeSql(text, values = []) {
      const result = (await tx.execute(toDrizzleSql(text, values))) as unknown as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}

/** The jobs grouped by queue, in their order. */
function byQueue<J extends { name: string }>(jobs: J[]): Map<string, J[]> {
  const groups = new Map<string, J[]>();
  for (const job of jobs) groups.set(job.name, [...(groups.get(job.name) ?? []), job]);
  return groups;
}

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

/**
 * Fetch loops per queue in a process (pg-boss's localConcurrency). On PostgreSQL two: one loop's
 * statements (fetch, the batch's reads and writes, complete) overlap the other's outbound calls.
 * PGlite is one session running one statement at a time, where a second loop only contends for
 * it: measured on the drain of 10,000 APNs pushes, 2,988 pushes/s with one loop, 1,403 with two.
 */
const fetchLoops: Record<Database['kind'], number> = { postgres: 2, pglite: 1 };

/** The schema pg-boss 10 made (version 24), set aside while pg-boss 12 makes its own. */
const VERSION_10_SCHEMA = 'pgboss_v10';

/**
 * pg-boss 12 migrates its schema only from version 25 (pg-boss 11) on. A database whose queue
 * pg-boss 10 made keeps that schema as pgboss_v10 (renamed under a lock, so among instances
 * starting together exactly one does it), pg-boss 12 makes a new one, and moveVersion10Jobs
 * carries the unfinished jobs over.
 */
async function setAsideVersion10Schema(database: Database): Promise<void> {
  await database.executeSql(
    `DO $$
     DECLARE version int;
     BEGIN
       PERFORM pg_advisory_xact_lock(hashtext('boardwalk.pgboss-v10'));
       IF to_regclass('pgboss.version') IS NOT NULL THEN
         EXECUTE 'SELECT max(version) FROM pgboss.version' INTO version;
         IF version < 25 THEN
           ALTER SCHEMA pgboss RENAME TO ${VERSION_10_SCHEMA};
         END IF;
       END IF;
     END $$`,
    [],
  );
}

/**
 * Moves the jobs pgboss_v10 still had to run (waiting, waiting to retry, or running when its
 * process stopped) into pg-boss 12's queues, keeping their ids (a delivery row names its job),
 * then drops pgboss_v10: in one transaction, so a start that dies halfway moves them again.
 * Each starts over as a new job with its queue's tries.
 */
async function moveVersion10Jobs(database: Database, boss: PgBoss, queues: Set<string>): Promise<void> {
  const { rows } = await database.executeSql(`SELECT to_regclass('${VERSION_10_SCHEMA}.job') IS NOT NULL AS present`, []);
  if (!rows[0]?.present) return;
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('boardwalk.pgboss-v10'))`);
    const stillThere = (await tx.execute(sql.raw(`SELECT to_regclass('${VERSION_10_SCHEMA}.job') IS NOT NULL AS present`))) as unknown as {
      rows: { present: boolean }[];
    };
    if (!stillThere.rows[0]?.present) return;
    const { rows: jobs } = (await tx.execute(
      sql.raw(`SELECT id::text AS id, name, data, singleton_key, start_after FROM ${VERSION_10_SCHEMA}.job
               WHERE state IN ('created', 'retry', 'active') ORDER BY created_on`),
    )) as unknown as {
      rows: { id: string; name: string; data: object | null; singleton_key: string | null; start_after: Date | string }[];
    };
    for (const [name, queued] of byQueue(jobs.filter((job) => queues.has(job.name)))) {
      await boss.insert(
        name,
        queued.map((job) => ({
          id: job.id,
          data: job.data ?? {},
          startAfter: new Date(job.start_after),
          ...(job.singleton_key !== null && { singletonKey: job.singleton_key }),
        })),
        { db: inTransaction(tx) },
      );
    }
    await tx.execute(sql.raw(`DROP SCHEMA ${VERSION_10_SCHEMA} CASCADE`));
  });
}

/** Node's longest timer (about 24.8 days): a longer one fires after 1 ms (TimeoutOverflowWarning). */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * The clock with its timers capped at Node's longest. pg-boss re-arms its timers until a moment it
 * computed comes (ClaimTimer), partly by the database's clock: a wait longer than Node's longest
 * fires after 1 ms, and is re-armed, again and again. A test run saw a worker do so for 12 s
 * (2026-11-30: 4,876 TimeoutOverflowWarnings of 396 days, the jump loyalty-expired-views.test.ts
 * gives Date, which PGlite's now() follows); a server clock set back after running ahead would do
 * the same. Capped, the timer wakes after 24.8 days and waits again.
 */
export function cappedTimers(clock: Clock): Clock {
  return {
    now: () => clock.now(),
    setTimeout: (fn, ms) => clock.setTimeout(fn, Math.min(ms, LONGEST_TIMER_MS)),
    clearTimeout: (handle) => clock.clearTimeout(handle),
    setInterval: (fn, ms) => clock.setInterval(fn, Math.min(ms, LONGEST_TIMER_MS)),
    clearInterval: (handle) => clock.clearInterval(handle),
  };
}

async function startOnce(database: Database, settings: JobSettings, onError: OnError): Promise<JobQueue> {
  await setAsideVersion10Schema(database);
  const expiryCheckSeconds = Math.max(1, Math.min(30, Math.floor(settings.expireSeconds / 2)));
  const boss = new PgBoss({
    db: {
      executeSql: (text, values) =>
        database.executeSql(
          text,
          values?.map((v: unknown) => v ?? null),
        ),
      listen: (channel, onNotification, onReconnect) => database.listen(channel, { onNotification, onReconnect }),
    },
    // A job due at once NOTIFYs its queue in the transaction that adds it (every queue is made
    // with `notify`): the workers of every process on the database fetch it as that commits,
    // rather than at their next poll (up to DELIVERY_POLL_SECONDS later).
    useListenNotify: settings.runsWorkers ?? false,
    // Expired (dead-process) jobs are found by the monitor pass, which the supervisor runs: often
    // enough to retry within seconds.
    superviseIntervalSeconds: expiryCheckSeconds,
    monitorIntervalSeconds: expiryCheckSeconds,
    schedule: settings.runsWorkers ?? false,
    clock: cappedTimers(settings.clock ?? systemClock),
  });
  // pg-boss reports a worker's errors as plain objects carrying the error's fields.
  boss.on('error', (error: unknown) =>
    onError(error instanceof Error ? error : Object.assign(new Error(String((error as { message?: unknown }).message)), error)),
  );
  await boss.start();
  const retries = {
    retryLimit: settings.retryLimit,
    retryDelay: settings.retryDelaySeconds,
    retryBackoff: true,
    expireInSeconds: settings.expireSeconds,
  };
  // Instances starting together on one PostgreSQL can deadlock creating the same queue's
  // partition: creation is idempotent, so it is simply tried again.
  await retryOnDeadlock(() => boss.createQueue(DEAD_LETTERS, { retentionSeconds: 60 * 60 * 24 * 30 }));

  return {
    async send(tx, job) {
      return boss.send(job.name, job.data, {
        db: inTransaction(tx),
        ...(job.singletonKey !== undefined && { singletonKey: job.singletonKey }),
        ...(job.startAfterSeconds && { startAfter: job.startAfterSeconds }),
        ...(job.priority && { priority: job.priority }),
      });
    },
    async insert(tx, jobs) {
      for (const [name, queued] of byQueue(jobs)) {
        await boss.insert(name, queued.map(toInsert), { db: inTransaction(tx) });
      }
    },
    async schedule(name, cron) {
      await boss.schedule(name, cron, {});
    },
    async createQueue(name, policy, expireSeconds) {
      const expireInSeconds = expireSeconds ?? retries.expireInSeconds;
      const options = { ...retries, expireInSeconds, deadLetter: DEAD_LETTERS, notify: true };
      await retryOnDeadlock(async () => {
        await boss.createQueue(name, { policy, ...options });
        // Settings may have changed since the queue was made.
        await boss.updateQueue(name, options);
      });
      // A job keeps the retry limit and expiry its queue had when it was added: the jobs still
      // to run (or running) take today's, so that every job's limit is the one the workers
      // count to (work()), and a run a longer expiry allows is not failed by an older one.
      await database.executeSql(
        `update pgboss.job set retry_limit = $1, expire_seconds = $3
         where name = $2 and state in ('created', 'retry', 'active') and (retry_limit <> $1 or expire_seconds <> $3)`,
        [settings.retryLimit, name, expireInSeconds],
      );
    },
    async carryOverVersion10Jobs(queues) {
      await moveVersion10Jobs(database, boss, new Set(queues));
    },
    async work<T>(name: string, options: { batchSize: number }, handler: BatchHandler<T>) {
      // pg-boss's worker awaits its own complete() and fail(): a database that drops at that
      // moment is an 'error' event (onError), the worker keeps polling, and a job it could
      // not complete stays active until it expires and is taken up again. Each job of a batch
      // is settled on its own (perJobResults), the batch's in two statements. A job is fetched
      // without pg-boss's metadata (two dozen more columns to read per job: 14% of a drain's
      // CPU on PGlite, measured): its retry count comes with it, and its retry limit is the
      // queue's, which every job still to run has (createQueue).
      await boss.work(
        name,
        {
          batchSize: options.batchSize,
          includeMetadata: false,
          perJobResults: true,
          pollingIntervalSeconds: settings.pollSeconds,
          // Woken at once by a new job, a worker still polls for the jobs that come due later.
          notifyPollingIntervalSeconds: settings.pollSeconds,
          burstWhenBatchFull: true,
          localConcurrency: fetchLoops[database.kind],
        },
        async (jobs: Job<T>[]) => {
          const errors = await handler(
            jobs.map((job) => ({ id: job.id, data: job.data, retryCount: job.retryCount, retryLimit: settings.retryLimit })),
          );
          return jobs.map((job, i): JobResult => {
            const error = errors[i];
            return error ? { id: job.id, status: 'failed', output: { message: error.message } } : { id: job.id, status: 'completed' };
          });
        },
      );
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
      // Workers fetch no more and finish the batch in hand, for at most DELIVERY_EXPIRE_SECONDS;
      // a job still running then is failed, to be tried again.
      await boss.stop({ graceful: true, close: false, timeout: settings.expireSeconds * 1000 });
    },
  };
}
