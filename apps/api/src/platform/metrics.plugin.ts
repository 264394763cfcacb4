// app.metrics: this app's Prometheus registry (prom-client), one per app so that apps built
// side by side in one process (tests, benches) never share counters. What it holds:
// requests per route pattern (never the URL: no barcode or token reaches a label), method and
// status with their latency; each throttle counter's failures and refusals; on each scrape,
// deliveries per target and state, unfinished jobs per queue and state, the PostgreSQL pool,
// whether the database answered and whether Redis is connected; and Node's process metrics.
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DELIVERY_STATES } from '@boardwalk/contract/staff-operations-tabs';
import { isDatabaseUnavailable } from './database-health.ts';
import { countDeliveriesByTargetAndState } from './jobs/deliveries.repo.ts';
import type { ThrottleObserver } from './throttle.ts';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: {
      registry: Registry;
      throttles: ThrottleObserver;
      /** The exposition text of every metric, the database ones read now; and its content type. */
      exposition(): Promise<{ text: string; contentType: string }>;
    };
  }
}

/** Label of a request that matched no route (the web app's pages, unknown paths). */
export const UNMATCHED_ROUTE = 'unmatched';

export const metricsPlugin = fp(
  async (app) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });

    const labelNames = ['method', 'route', 'status_code'] as const;
    const requests = new Counter({
      name: 'boardwalk_http_requests_total',
      help: 'HTTP requests answered, by route pattern',
      labelNames,
      registers: [registry],
    });
    const latency = new Histogram({
      name: 'boardwalk_http_request_duration_seconds',
      help: 'Time from receiving a request to its answer, by route pattern',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    app.addHook('onResponse', (request, reply, done) => {
      const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status_code: String(reply.statusCode) };
      requests.inc(labels);
      latency.observe(labels, reply.elapsedTime / 1000);
      done();
    });

    const failures = new Counter({
      name: 'boardwalk_throttle_failures_total',
      help: 'Failed attempts recorded by each throttle counter (lookup-address: every failed order lookup)',
      labelNames: ['counter'],
      registers: [registry],
    });
    const refusals = new Counter({
      name: 'boardwalk_throttle_refusals_total',
      help: 'Attempts refused with 429 by each throttle counter',
      labelNames: ['counter'],
      registers: [registry],
    });

    const databaseUp = new Gauge({
      name: 'boardwalk_database_up',
      help: '1 when the database answered the last scrape, 0 when it did not',
      registers: [registry],
    });
    const deliveries = new Gauge({
      name: 'boardwalk_deliveries',
      help: 'Deliveries to Apple, Google and mail by state (queued, sent, skipped, retrying, dead)',
      labelNames: ['target', 'state'],
      registers: [registry],
    });
    const queue = new Gauge({
      name: 'boardwalk_queue_jobs',
      help: 'Unfinished jobs by queue and state (created: waiting, retry: waiting for a later try, active: running)',
      labelNames: ['queue', 'state'],
      registers: [registry],
    });
    new Gauge({
      name: 'boardwalk_database_pool_connections',
      help: 'Database pool: open connections (total), idle ones, and requests waiting for one (waiting)',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const stats = app.database.poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });

    if (app.redis) {
      const redis = app.redis;
      new Gauge({
        name: 'boardwalk_redis_up',
        help: '1 while the Redis client is connected (throttle counters shared), 0 while they are kept in this process',
        registers: [registry],
        collect() {
          this.set(redis.status === 'ready' ? 1 : 0);
        },
      });
    }

    /** Read from the database once per scrape; a database that is gone gives database_up 0, not a failed scrape. */
    const readDatabase = async () => {
      try {
        const [byState, depths] = await Promise.all([countDeliveriesByTargetAndState(app.database.db), app.jobs.depths()]);
        deliveries.reset();
        for (const targetName of ['apple', 'google', 'mail']) {
          for (const state of DELIVERY_STATES) deliveries.set({ target: targetName, state }, 0);
        }
        for (const row of byState) deliveries.set({ target: row.target, state: row.state }, row.count);
        queue.reset();
        for (const row of depths) queue.set({ queue: row.queue, state: row.state }, row.count);
        databaseUp.set(1);
      } catch (error) {
        if (isDatabaseUnavailable(error)) app.databaseHealth.lost(error);
        else app.log.warn({ err: (error as Error).message }, 'metrics: the database could not be read');
        databaseUp.set(0);
      }
    };

    app.decorate('metrics', {
      registry,
      throttles: { failed: (counter) => failures.inc({ counter }), refused: (counter) => refusals.inc({ counter }) },
      async exposition() {
        await readDatabase();
        return { text: await registry.metrics(), contentType: registry.contentType };
      },
    });
    app.addHook('onClose', async () => registry.clear());
  },
  { name: 'metrics', dependencies: ['data'] },
);
