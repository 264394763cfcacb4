// The gate feed's attraction usage events (history only, never a balance): written by the
// feed; read by the stored-value page, one card's events between two instants in time order.
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { preparedPerSession } from '@boardwalk/db/prepared';
import { attractionUsage } from '@boardwalk/db/schema';
import { deleteRule } from '../../platform/retention.ts';

export type UsageValues = Omit<typeof attractionUsage.$inferInsert, 'id' | 'createdAt'>;

/** Inserts the events not yet held (barcode + attraction + timestamp); answers the barcode of each new one. */
export async function insertUsageEvents(db: Executor, values: UsageValues[]): Promise<string[]> {
  if (values.length === 0) return [];
  const rows = await db
    .insert(attractionUsage)
    .values(values)
    .onConflictDoNothing({ target: [attractionUsage.barcode, attractionUsage.attraction, attractionUsage.timestamp] })
    .returning({ barcode: attractionUsage.barcode });
  return rows.map((row) => row.barcode);
}

/** Retention: an attraction usage event goes RETENTION_ATTRACTION_USAGE_DAYS after it happened. */
export const attractionUsageRetention = deleteRule(
  'attraction usage',
  (r) => r.attractionUsageDays,
  attractionUsage,
  (cutoff) => lt(attractionUsage.timestamp, cutoff),
);

const u = attractionUsage;
const usageLookup = preparedPerSession((db) =>
  db
    .select({ attraction: u.attraction, location: u.location, timestamp: u.timestamp })
    .from(u)
    // The unique (barcode, attraction, timestamp) index serves the barcode.
    .where(
      and(eq(u.barcode, sql.placeholder('barcode')), gte(u.timestamp, sql.placeholder('from')), lt(u.timestamp, sql.placeholder('to'))),
    )
    .orderBy(asc(u.timestamp), asc(u.id))
    .prepare('find_usage_between'),
);

/** The card's usage events at or after `from` and before `to`, oldest first. */
export async function findUsageBetween(db: Executor, opts: { barcode: string; from: Date; to: Date }) {
  return usageLookup(db).execute({ barcode: opts.barcode, from: opts.from.toISOString(), to: opts.to.toISOString() });
}
