// app.jobs: the durable job queue (job-queue.ts) on this app's database, the queues the features
// declare, and the change bus. A feature declares its queues beside its code (its `.jobs.ts`):
// a name, a policy, a batch size, a handler, and the topics it subscribes to. A service that
// changes something publishes a topic with the keys of what changed (`publish(tx, topic,
// keys)`), in its own transaction: each queue subscribed to the topic gets one job per key.
// The owner of the changed thing names the topic ("ticket.changed" for barcodes); platform
// names no feature's queue or topic.
//
// Queues are created as they are declared, and subscriptions recorded, whether or not this
// process runs workers: an API process with DELIVERY_WORKERS=false still publishes. Handlers
// run only when it does, from the moment the app is ready (every feature declared).
import fp from 'fastify-plugin';
import pLimit from 'p-limit';
import type { Clock } from 'pg-boss';
import type { Executor } from '@boardwalk/db/client';
import { isDatabaseUnavailable } from '../database-health.ts';
import {
  DEAD_LETTERS,
  eachJob,
  startJobQueue,
  type BatchHandler,
  type JobQueue,
  type NewJob,
  type QueuePolicy,
  type RunningJob,
  WAVE_PRIORITY,
} from './job-queue.ts';

/** What a queue takes from a topic it subscribes to. */
export interface Subscription {
  topic: string;
  /** The job data for one published key; `system`: the integration key whose call caused the change (null: anyone else). */
  data(key: string, system: string | null): object;
  /** The key a waiting job coalesces on (a stately queue keeps one waiting job per key): the key itself by default. */
  singletonKey?(key: string): string;
  /**
   * The job starts after the coalescing window (DELIVERY_COALESCE_SECONDS): the changes a key
   * gets within it become one job.
   */
  coalesce?: boolean;
}

export interface QueueDeclaration<T> {
  /** The queue's name, kept as it is: a database holds the jobs under it. */
  name: string;
  policy: QueuePolicy;
  /** Jobs a worker process runs at once. */
  batchSize: number;
  subscribes?: Subscription[];
  /**
   * A cron expression (UTC): one job at each occurrence, across all processes (pg-boss's
   * schedule, run by the processes that run workers).
   */
  cron?: string;
  /** One job when the app is ready (a stately queue keeps one waiting: instances starting together add one). */
  atStart?: boolean;
  /** A job still running this long is failed and tried again: DELIVERY_EXPIRE_SECONDS unless set. */
  expireSeconds?: number;
  /** Runs one job: a throw fails it (to be tried again). */
  handler?(job: RunningJob<T>): Promise<void>;
  /**
   * The handler runs each job in one database transaction, holding a connection throughout:
   * such jobs, of every queue, share a limit of how many run at once (createJobs).
   */
  transaction?: boolean;
  /** Instead of handler: runs a fetched batch at once (one statement for all its jobs, say), answering per job. */
  batchHandler?: BatchHandler<T>;
}

/** The change bus, as the services that publish take it. */
export interface ChangeBus {
  /**
   * One job per key (duplicates dropped) for each queue subscribed to the topic, in tx. A topic
   * nobody subscribes to costs nothing. `system`: the integration key's name whose call caused
   * the change, handed to the subscribers' job data. `wave`: a change to every pass, whose jobs
   * come after any guest's own change (WAVE_PRIORITY) and never absorb one (keys of their own).
   */
  publish(tx: Executor, topic: string, keys: string[], system?: string | null, options?: { wave?: boolean }): Promise<void>;
}

export interface Jobs extends ChangeBus {
  declare<T>(queue: QueueDeclaration<T>): Promise<void>;
  /** Adds a job to a declared queue in tx; its id, or null when a waiting job of its key absorbed it. */
  send(tx: Executor, job: NewJob): Promise<string | null>;
  /** Adds many jobs to declared queues in tx, in one statement per queue. */
  insert(tx: Executor, jobs: NewJob[]): Promise<void>;
  /** Jobs of the declared queues (or of these) waiting or running now. */
  pending(names?: string[]): Promise<number>;
  depths: JobQueue['depths'];
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

/**
 * The declared queues over a started job queue. At most `transactionsAtOnce` jobs of the
 * queues that declare `transaction` run at once, across those queues and their fetch loops.
 */
export function createJobs(queue: JobQueue, coalesceSeconds: number, transactionsAtOnce = Number.POSITIVE_INFINITY) {
  const transactions = pLimit(transactionsAtOnce);
  const declared = new Map<string, QueueDeclaration<never>>();
  const subscribers = new Map<string, { queue: string; subscription: Subscription }[]>();
  const jobs: Jobs = {
    async declare(declaration) {
      if (declared.has(declaration.name)) throw new Error(`The queue ${declaration.name} is declared twice`);
      if (!declaration.handler === !declaration.batchHandler)
        throw new Error(`The queue ${declaration.name} needs a handler or a batchHandler`);
      await queue.createQueue(declaration.name, declaration.policy, declaration.expireSeconds);
      if (declaration.cron) await queue.schedule(declaration.name, declaration.cron);
      declared.set(declaration.name, declaration as QueueDeclaration<never>);
      for (const subscription of declaration.subscribes ?? []) {
        subscribers.set(subscription.topic, [...(subscribers.get(subscription.topic) ?? []), { queue: declaration.name, subscription }]);
      }
    },
    async publish(tx, topic, keys, system = null, options = {}) {
      const unique = [...new Set(keys)];
      const newJobs = (subscribers.get(topic) ?? []).flatMap(({ queue: name, subscription }) =>
        unique.map((key): NewJob => {
          const singletonKey = subscription.singletonKey?.(key) ?? key;
          return {
            name,
            data: subscription.data(key, system),
            ...(options.wave ? { singletonKey: `wave:${singletonKey}`, priority: WAVE_PRIORITY } : { singletonKey }),
            ...(subscription.coalesce && { startAfterSeconds: coalesceSeconds }),
          };
        }),
      );
      if (newJobs.length > 0) await queue.insert(tx, newJobs);
    },
    send: (tx, job) => queue.send(tx, job),
    insert: (tx, newJobs) => (newJobs.length > 0 ? queue.insert(tx, newJobs) : Promise.resolve()),
    pending: (names) => queue.pending(names ?? [...declared.keys()]),
    depths: () => queue.depths(),
  };
  return {
    jobs,
    /** Once every feature has declared: the older jobs carried over, the jobs due at start added, then the handlers started. */
    async start(db: Executor, runWorkers: boolean) {
      await queue.carryOverVersion10Jobs([...declared.keys(), DEAD_LETTERS]);
      for (const { name } of [...declared.values()].filter((d) => d.atStart)) await queue.send(db, { name, data: {}, singletonKey: name });
      if (!runWorkers) return;
      for (const { name, batchSize, handler, batchHandler, transaction } of declared.values())
        await queue.work(name, { batchSize }, batchHandler ?? eachJob(handler!, transaction ? transactions : undefined));
    },
  };
}

export const jobsPlugin = fp(
  async (app, options: { clock?: Clock }) => {
    const log = app.log.child({ module: 'jobs' });
    const settings = {
      ...app.config.deliveries,
      runsWorkers: app.config.deliveries.workers,
      ...(options.clock && { clock: options.clock }),
    };
    const queue = await startJobQueue(app.database, settings, (err) =>
      isDatabaseUnavailable(err) ? app.databaseHealth.lost(err) : log.warn({ err: err.message }, 'job queue error'),
    );
    // On PostgreSQL the jobs that hold a transaction run at most one fewer at once than the
    // pool has connections: more would only wait in the pool, whose wait gives up after 5 s,
    // with pg-boss's own fetch and complete and the guests' requests behind them (a full test
    // run saw a batch of 100 ticket-changed jobs on a pool of 5 time out, to be retried), and
    // the one left over serves those. PGlite's one session is waited for without a limit.
    const { database } = app;
    const transactionsAtOnce = database.kind === 'postgres' ? Math.max(1, database.poolStats().max - 1) : Number.POSITIVE_INFINITY;
    const { jobs, start } = createJobs(queue, app.config.deliveries.coalesceSeconds, transactionsAtOnce);
    app.decorate('jobs', jobs);
    app.addHook('onReady', () => start(app.database.db, app.config.deliveries.workers));
    // preClose: workers finish (or release) their jobs while the database is still open.
    app.addHook('preClose', () => queue.stop());
  },
  { name: 'jobs', dependencies: ['data'] },
);
