// Writes of the gate feed: attraction usage events (history only).
import { lt } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { attractionUsage } from '@boardwalk/db/schema';
import { deleteRule } from '../../platform/retention.ts';

export type UsageValues = Omit<typeof attractionUsage.$inferInsert, 'id' | 'createdAt'>;

/** Inserts the events not yet held (barcode + attraction + timestamp); answers how many were new. */
export async function insertUsageEvents(db: Executor, values: UsageValues[]): Promise<number> {
  if (values.length === 0) return 0;
  const rows = await db
    .insert(attractionUsage)
    .values(values)
    .onConflictDoNothing({ target: [attractionUsage.barcode, attractionUsage.attraction, attractionUsage.timestamp] })
    .returning({ id: attractionUsage.id });
  return rows.length;
}

/** Retention: an attraction usage event goes RETENTION_ATTRACTION_USAGE_DAYS after it happened. */
export const attractionUsageRetention = deleteRule(
  'attraction usage',
  (r) => r.attractionUsageDays,
  attractionUsage,
  (cutoff) => lt(attractionUsage.timestamp, cutoff),
);
