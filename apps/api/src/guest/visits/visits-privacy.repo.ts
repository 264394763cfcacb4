// A person's visit reservations, for their privacy document: every entry window their own season
// passes booked or waited for, and what became of it. The rows name nobody once the ticket's
// contacts are erased (packages/db/src/personal-data.ts), so there is nothing of them to erase.
import { asc, eq, inArray } from 'drizzle-orm';
import type { PrivacySections } from '@boardwalk/contract/privacy';
import type { Executor } from '@boardwalk/db/client';
import { visitReservations, visitWindows } from '@boardwalk/db/schema';
import { iso, ownBarcodes, type Person } from '../../platform/privacy.ts';

export async function findVisitsOfPerson(db: Executor, person: Person): Promise<PrivacySections['visitReservations']> {
  const barcodes = ownBarcodes(person);
  if (barcodes.length === 0) return [];
  const rows = await db
    .select({
      barcode: visitReservations.barcode,
      startsAt: visitWindows.startsAt,
      endsAt: visitWindows.endsAt,
      status: visitReservations.status,
      madeAt: visitReservations.joinedAt,
    })
    .from(visitReservations)
    .innerJoin(visitWindows, eq(visitWindows.id, visitReservations.windowId))
    .where(inArray(visitReservations.barcode, barcodes))
    .orderBy(asc(visitWindows.startsAt), asc(visitReservations.joinedAt));
  return rows.map((r) => ({ ...r, startsAt: iso(r.startsAt), endsAt: iso(r.endsAt), madeAt: iso(r.madeAt) }));
}
