// The stored-value page's read of the gate feed's attraction usage (history only, never a
// balance): one card's events between two instants, in time order.
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { attractionUsage } from '@boardwalk/db/schema';

function prepareUsageLookup(db: Executor) {
  const u = attractionUsage;
  return (
    db
      .select({ attraction: u.attraction, location: u.location, timestamp: u.timestamp })
      .from(u)
      // The unique (barcode, attraction, timestamp) index serves the barcode.
      .where(
        and(eq(u.barcode, sql.placeholder('barcode')), gte(u.timestamp, sql.placeholder('from')), lt(u.timestamp, sql.placeholder('to'))),
      )
      .orderBy(asc(u.timestamp), asc(u.id))
      .prepare('find_usage_between')
  );
}
const preparedLookups = new WeakMap<Executor, ReturnType<typeof prepareUsageLookup>>();

/** The card's usage events at or after `from` and before `to`, oldest first. */
export async function findUsageBetween(db: Executor, opts: { barcode: string; from: Date; to: Date }) {
  let lookup = preparedLookups.get(db);
  if (!lookup) {
    lookup = prepareUsageLookup(db);
    preparedLookups.set(db, lookup);
  }
  return lookup.execute({ barcode: opts.barcode, from: opts.from.toISOString(), to: opts.to.toISOString() });
}
