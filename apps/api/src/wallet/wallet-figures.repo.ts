// Wallet adoption for the back office Dashboard, grouped by the database per operating day:
// Apple Wallet device registrations made (a registration the device later removed is gone),
// Google Wallet objects saved (Google's save callbacks), the registrations now, and the Apple
// pushes' push-to-fetch latency (the deliveries rows apple-push-fetches.repo.ts completes).
import { and, count, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { appleDeviceRegistrations, deliveries, googleWalletCallbacks } from '@boardwalk/db/schema';
import { operatingDaySql, type InstantSpan } from '../platform/park-time.ts';

export function appleRegistrationsPerDay(db: Executor, span: InstantSpan, timeZone: string) {
  const at = appleDeviceRegistrations.createdAt;
  return db
    .select({ day: operatingDaySql(at, timeZone), applePasses: count() })
    .from(appleDeviceRegistrations)
    .where(and(gte(at, span.start), lt(at, span.end)))
    .groupBy(sql`1`);
}

export function googleSavesPerDay(db: Executor, span: InstantSpan, timeZone: string) {
  const at = googleWalletCallbacks.receivedAt;
  return db
    .select({ day: operatingDaySql(at, timeZone), googleObjects: count() })
    .from(googleWalletCallbacks)
    .where(and(eq(googleWalletCallbacks.eventType, 'save'), gte(at, span.start), lt(at, span.end)))
    .groupBy(sql`1`);
}

export async function countAppleRegistrations(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(appleDeviceRegistrations);
  return row?.n ?? 0;
}

/** Apple pushes sent per operating day that their device fetched, with the push-to-fetch latency's median and 95th percentile (seconds). */
export function pushFetchLatencyPerDay(db: Executor, span: InstantSpan, timeZone: string) {
  const latency = sql`extract(epoch from ${deliveries.fetchedAt} - ${deliveries.sentAt})`;
  const seconds = (fraction: number) =>
    sql<number | null>`round((percentile_cont(${fraction}::float8) within group (order by ${latency}))::numeric, 1)::float8`.mapWith(
      (v: string | number | null) => (v == null ? null : Number(v)),
    );
  return db
    .select({
      day: operatingDaySql(deliveries.sentAt, timeZone),
      fetchedPushes: count(),
      fetchP50Seconds: seconds(0.5),
      fetchP95Seconds: seconds(0.95),
    })
    .from(deliveries)
    .where(
      and(
        eq(deliveries.target, 'apple'),
        isNotNull(deliveries.fetchedAt),
        gte(deliveries.sentAt, span.start),
        lt(deliveries.sentAt, span.end),
      ),
    )
    .groupBy(sql`1`);
}
