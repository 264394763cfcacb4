// The staff's photo reset requests (the photo itself is the ticket core's holder photo).
import { and, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { photoResetRequests, photos, tickets } from '@boardwalk/db/schema';
import { deleteRule } from '../../platform/retention.ts';

/** An unhandled reset request for this barcode made since that time, or null. */
export async function findOpenResetRequest(db: Executor, opts: { barcode: string; since: Date }) {
  const rows = await db
    .select({ id: photoResetRequests.id })
    .from(photoResetRequests)
    .where(
      and(
        eq(photoResetRequests.barcode, opts.barcode),
        isNull(photoResetRequests.handledAt),
        gte(photoResetRequests.createdAt, opts.since),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

export async function insertResetRequest(db: Executor, values: { orderId: string; barcode: string }) {
  const [row] = await db.insert(photoResetRequests).values(values).returning({ id: photoResetRequests.id });
  return row!;
}

/** Retention: a face photo goes RETENTION_PHOTO_DAYS after its ticket expired. */
export const photoRetention = deleteRule(
  'photos',
  (r) => r.photoDays,
  photos,
  (cutoff) => sql`exists (select 1 from ${tickets} where ${tickets.barcode} = ${photos.barcode} and ${lt(tickets.expires, cutoff)})`,
);
