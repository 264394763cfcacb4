// Reads and writes of the season-pass photo and the staff's photo reset requests.
import { and, eq, gte, isNull } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { photoResetRequests, photos, tickets } from '@boardwalk/db/schema';

export type NewPhoto = Omit<typeof photos.$inferInsert, 'createdAt'>;

/** Stores the ticket's photo; null when the ticket already has one (the barcode is unique). */
export async function insertPhoto(db: Executor, values: NewPhoto): Promise<string | null> {
  const rows = await db.insert(photos).values(values).onConflictDoNothing({ target: photos.barcode }).returning({ uid: photos.uid });
  return rows[0]?.uid ?? null;
}

/** One stored form of the photo with this uid, or null. */
export async function findPhotoFile(db: Executor, uid: string, form: 'bmp' | 'png'): Promise<Buffer | null> {
  const rows = await db
    .select({ data: form === 'bmp' ? photos.bmp : photos.png })
    .from(photos)
    .where(eq(photos.uid, uid))
    .limit(1);
  return rows[0]?.data ?? null;
}

/** The photo with this uid on this barcode, with whether its pass is activated; or null. */
export async function findPhotoOfTicket(db: Executor, opts: { barcode: string; uid: string }) {
  const rows = await db
    .select({ uid: photos.uid, isPassActivated: tickets.isPassActivated })
    .from(photos)
    .innerJoin(tickets, eq(tickets.barcode, photos.barcode))
    .where(and(eq(photos.uid, opts.uid), eq(photos.barcode, opts.barcode)))
    .limit(1);
  return rows[0] ?? null;
}

/** Deletes that photo; false when it was already gone. */
export async function deletePhoto(db: Executor, opts: { barcode: string; uid: string }): Promise<boolean> {
  const rows = await db
    .delete(photos)
    .where(and(eq(photos.uid, opts.uid), eq(photos.barcode, opts.barcode)))
    .returning({ uid: photos.uid });
  return rows.length > 0;
}

/** An unhandled reset request for this barcode made since that time, or null. */
export async function findOpenResetRequest(db: Executor, opts: { barcode: string; since: Date }) {
  const rows = await db
    .select({ id: photoResetRequests.id })
    .from(photoResetRequests)
    .where(
      and(eq(photoResetRequests.barcode, opts.barcode), isNull(photoResetRequests.handledAt), gte(photoResetRequests.createdAt, opts.since)),
    )
    .limit(1);
  return rows[0] ?? null;
}

export async function insertResetRequest(db: Executor, values: { orderId: string; barcode: string }) {
  const [row] = await db.insert(photoResetRequests).values(values).returning({ id: photoResetRequests.id });
  return row!;
}
