// The ticket's holder photo (the photos table): the photo feature stores and replaces it,
// the pass shows its uid, the wallet passes and the voucher print it; it goes by retention
// after its ticket expired, and with an erasure of its holder.
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { PrivacySections } from '@boardwalk/contract/privacy';
import type { Executor } from '@boardwalk/db/client';
import { photos, tickets } from '@boardwalk/db/schema';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import { iso, ownBarcodes, type Eraser, type Person } from '../../platform/privacy.ts';
import { deleteRule } from '../../platform/retention.ts';
import { lockActivatedPasses } from './pass-lock.repo.ts';
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

/** Retention: a face photo goes RETENTION_PHOTO_DAYS after its ticket expired. */
export const photoRetention = deleteRule(
  'photos',
  (r) => r.photoDays,
  photos,
  (cutoff) => sql`exists (select 1 from ${tickets} where ${tickets.barcode} = ${photos.barcode} and ${lt(tickets.expires, cutoff)})`,
);

/** The photos section: the photos of the person's own tickets, as PNG. */
export async function findPhotosOfPerson(db: Executor, person: Person): Promise<PrivacySections['photos']> {
  const barcodes = ownBarcodes(person);
  if (barcodes.length === 0) return [];
  const rows = await db
    .select({ barcode: photos.barcode, width: photos.width, height: photos.height, createdAt: photos.createdAt, png: photos.png })
    .from(photos)
    .where(inArray(photos.barcode, barcodes));
  return rows.map(({ createdAt, png, ...row }) => ({ ...row, uploadedAt: iso(createdAt), png: png.toString('base64') }));
}

/**
 * Erasure: the photos of the person's own tickets are deleted; the tickets are published, so
 * their passes lose the photo. Their activated season passes are locked (no new photo or name
 * until staff lift the lock): erasing must never free a pass for someone else's face.
 */
export const photoErasure: Eraser = {
  category: 'photos',
  async erase(tx, person, changes) {
    const barcodes = ownBarcodes(person);
    if (barcodes.length === 0) return 0;
    await lockActivatedPasses(tx, barcodes, 'erasure');
    const rows = await tx.delete(photos).where(inArray(photos.barcode, barcodes)).returning({ barcode: photos.barcode });
    await changes.publish(
      tx,
      TICKET_CHANGED,
      rows.map((row) => row.barcode),
    );
    return rows.length;
  },
};
