// The staff's photo reset requests (the photo itself is the ticket core's holder photo).
import { and, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { PrivacySections } from '@boardwalk/contract/privacy';
import type { Executor } from '@boardwalk/db/client';
import { photoResetRequests, photos, tickets } from '@boardwalk/db/schema';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import { iso, ownBarcodes, type Eraser, type Person } from '../../platform/privacy.ts';
import { deleteRule } from '../../platform/retention.ts';
import { lockActivatedPasses } from '../ticket/pass-lock.repo.ts';

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
