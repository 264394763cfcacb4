// The stored-value page's read of the gate feed's attraction usage (history only, never a
// balance): one card's events between two instants, in time order.
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { preparedPerSession } from '@boardwalk/db/prepared';
import { attractionUsage } from '@boardwalk/db/schema';

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
