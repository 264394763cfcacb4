// The ticket's holder photo (the photos table): the photo feature stores and replaces it,
// the pass shows its uid, the wallet passes and the voucher print it.
import { and, eq } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { photos, tickets } from '@boardwalk/db/schema';
import { isPassActivatedSql } from './ticket.repo.ts';

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

/** The photo with this uid on this barcode, with whether its pass is activated (feed or wristband); or null. */
export async function findPhotoOfTicket(db: Executor, opts: { barcode: string; uid: string }) {
  const rows = await db
    .select({ uid: photos.uid, isPassActivated: isPassActivatedSql(tickets) })
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

/** The PNG form of the ticket's holder photo (wallet passes and the voucher show it), or null. */
export async function findPhotoPng(db: Executor, barcode: string): Promise<Buffer | null> {
  const rows = await db.select({ png: photos.png }).from(photos).where(eq(photos.barcode, barcode)).limit(1);
  const png = rows[0]?.png;
  return png ? Buffer.from(png) : null;
}
