// The staff's photo reset requests (the photo itself is the ticket core's holder photo,
// holder-photo.repo.ts, with its retention and erasure).
import { and, eq, gte, isNull } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { photoResetRequests } from '@boardwalk/db/schema';

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
