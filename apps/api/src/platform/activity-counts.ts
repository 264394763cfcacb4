// app.activity: counts of what guests do, per operating day, for the Dashboard (lookups found,
// failed and refused by the throttle; share links opened). A lookup is a hot path
// (bench/lookup), so a count is not a write per request: counts add up in memory and are
// written every few seconds, one upsert adding them to the day's rows, which every instance
// adds to. The Dashboard writes what is pending before it reads, and closing writes the rest.
// Written by hand: it is a map and a timer; a metrics library keeps counters per process, not
// per park day in the database that several instances share.
import { between, sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { Executor } from '@boardwalk/db/client';
import { activityCounts } from '@boardwalk/db/schema';
import { operatingDay, operatingDayBounds } from './park-time.ts';

export type Activity = 'lookup-found' | 'lookup-failed' | 'lookup-throttled' | 'share-link-opened';

export interface ActivityCounts {
  /** One more `activity` on the operating day of `at` (now). */
  count(activity: Activity, at?: Date): void;
  /** Writes the counts kept so far; a failed write keeps them for the next. */
  flush(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    activity: ActivityCounts;
  }
}

const FLUSH_EVERY_MS = 5_000;

export function createActivityCounts(db: Executor, timeZone: string): ActivityCounts {
  /** Pending counts by day, then activity. */
  let pending = new Map<string, Map<Activity, number>>();
  let writing: Promise<void> = Promise.resolve();

  async function write(batch: Map<string, Map<Activity, number>>) {
    // In key order: two instances upserting the same rows then lock them in the same order (no deadlock).
    const rows = [...batch]
      .flatMap(([day, counts]) => [...counts].map(([activity, count]) => ({ day, activity, count })))
      .sort((a, b) => a.day.localeCompare(b.day) || a.activity.localeCompare(b.activity));
    if (rows.length === 0) return;
    try {
      await db
        .insert(activityCounts)
        .values(rows)
        .onConflictDoUpdate({
          target: [activityCounts.day, activityCounts.activity],
          set: { count: sql`${activityCounts.count} + excluded.count` },
        });
    } catch (error) {
      for (const { day, activity, count } of rows) add(day, activity, count);
      throw error;
    }
  }

  function add(day: string, activity: Activity, n: number) {
    let counts = pending.get(day);
    if (!counts) pending.set(day, (counts = new Map()));
    counts.set(activity, (counts.get(activity) ?? 0) + n);
  }

  // The operating day is worked out in the zone once a day, not on every lookup.
  let today = { day: '', start: 0, end: 0 };
  function dayOf(at: Date) {
    const time = at.getTime();
    if (time < today.start || time >= today.end) {
      const day = operatingDay(at, timeZone);
      const { start, end } = operatingDayBounds(day, timeZone);
      today = { day, start: start.getTime(), end: end.getTime() };
    }
    return today.day;
  }

  return {
    count(activity, at = new Date()) {
      add(dayOf(at), activity, 1);
    },
    flush() {
      // One write at a time: a flush also waits for the one under way (the Dashboard's read
      // then sees the timer's counts too).
      writing = writing
        .catch(() => undefined)
        .then(() => {
          const batch = pending;
          pending = new Map();
          return write(batch);
        });
      return writing;
    },
  };
}

/** The counts written for the operating days from `from` to `to` (YYYY-MM-DD), by day and activity. */
export async function activityPerDay(db: Executor, from: string, to: string) {
  const a = activityCounts;
  return db
    .select({ day: a.day, activity: a.activity, count: a.count })
    .from(a)
    .where(between(a.day, from, to));
}

export const activityCountsPlugin = fp(
  async (app) => {
    const activity = createActivityCounts(app.database.db, app.config.parkTimezone);
    app.decorate('activity', activity);
    const timer = setInterval(() => {
      activity.flush().catch((error: unknown) => app.log.warn({ err: error }, 'activity counts not written; kept for the next try'));
    }, FLUSH_EVERY_MS);
    timer.unref();
    // onClose: after the server has answered its last requests (their lookups counted), and
    // before the database plugin's own onClose (close hooks run in reverse order).
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await activity.flush().catch((error: unknown) => app.log.warn({ err: error }, 'activity counts lost at close'));
    });
  },
  { name: 'activity-counts', dependencies: ['data'] },
);
