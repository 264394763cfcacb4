// Retention that runs itself. A feature keeps its rows of personal data only as long as its
// setting says: it declares a rule beside its repo (what is due once its period has passed),
// app.ts hands the rules to this plugin, and the plugin runs them daily and at start on the
// durable job queue (a stately queue: one run at a time across processes; a run due while one
// waits is that one), counts what each removed in /metrics and says it in one log line.
// `npm run retention -- --dry-run` counts what a run would remove (apps/api/src/retention.ts).
import fp from 'fastify-plugin';
import { count, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { Counter } from 'prom-client';
import type { Executor } from '@boardwalk/db/client';
import type { Config } from './config.ts';
import type { ChangeBus } from './jobs/jobs.plugin.ts';

export interface RetentionRule {
  /** What it removes, as the log and /metrics name it ("photos"). */
  category: string;
  /** Its period in days from the config; 0 keeps the rows. */
  days(config: Config['retention']): number;
  /**
   * Removes (or pseudonymises) the rows due (past `cutoff`), or with dryRun only counts them;
   * answers how many. What it changes that others show (a pass) it publishes on `changes`.
   */
  apply(db: Executor, cutoff: Date, run: { dryRun: boolean; changes: ChangeBus }): Promise<number>;
}

/** How many rows of the table are due (a dry run's answer). */
export async function countDue(db: Executor, table: PgTable, due: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table).where(due);
  return row?.n ?? 0;
}

/** A rule that removes the rows of one table matching `due(cutoff)`. */
export function deleteRule(
  category: string,
  days: RetentionRule['days'],
  table: PgTable,
  due: (cutoff: Date) => SQL | undefined,
): RetentionRule {
  return {
    category,
    days,
    async apply(db, cutoff, { dryRun }) {
      if (dryRun) return countDue(db, table, due(cutoff));
      const result = (await db.delete(table).where(due(cutoff))) as unknown as { rowCount: number | null };
      return result.rowCount ?? 0;
    },
  };
}

const DAY_MS = 86_400_000;

/** One run over the rules at `now`: what each removed (or would remove), by category; a rule whose period is 0 is skipped. */
export async function runRetention(
  db: Executor,
  config: Config['retention'],
  rules: RetentionRule[],
  now: Date,
  run: { dryRun: boolean; changes: ChangeBus },
): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const rule of rules) {
    const days = rule.days(config);
    if (days > 0) removed[rule.category] = await rule.apply(db, new Date(now.getTime() - days * DAY_MS), run);
  }
  return removed;
}

export const RETENTION_QUEUE = 'retention';

declare module 'fastify' {
  interface FastifyInstance {
    retention: {
      /** One run now (what the daily job does), or with dryRun only the counts. */
      run(options?: { now?: Date; dryRun?: boolean }): Promise<Record<string, number>>;
    };
  }
}

export const retentionJobs = fp<{ rules: RetentionRule[] }>(
  async (app, { rules }) => {
    const log = app.log.child({ module: 'retention' });
    const removedTotal = new Counter({
      name: 'boardwalk_retention_removed_total',
      help: 'Rows of personal data removed by the retention job, by category',
      labelNames: ['category'],
      registers: [app.metrics.registry],
    });
    const run = async ({ now = new Date(), dryRun = false }: { now?: Date; dryRun?: boolean } = {}) => {
      const removed = await runRetention(app.database.db, app.config.retention, rules, now, { dryRun, changes: app.jobs });
      if (!dryRun) {
        for (const [category, n] of Object.entries(removed)) removedTotal.inc({ category }, n);
        log.info({ removed }, 'retention run');
      }
      return removed;
    };
    app.decorate('retention', { run });
    await app.jobs.declare<object>({
      name: RETENTION_QUEUE,
      policy: 'stately',
      batchSize: 1,
      // 10:00 UTC: 2 or 3 AM on the US west coast, after the park closes.
      cron: '0 10 * * *',
      atStart: true,
      // A first run over a year of data deletes it all in one statement per rule: not the
      // deliveries' 30 s, after which pg-boss would fail the job and start it again beside it.
      expireSeconds: 60 * 60,
      handler: async () => void (await run()),
    });
  },
  { name: 'retention', dependencies: ['jobs', 'metrics'] },
);
