// The next entry window a pass holds (guest/visits' reservations): what its wallet passes show
// and when they come to the lock screen. The ticket core reads it because the wallet imports no
// guest feature (packages/db/src/personal-data.ts, NEXT_VISIT).
import { and, asc, eq, gt } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { visitReservations, visitWindows } from '@boardwalk/db/schema';

export interface NextVisit {
  startsAt: Date;
  endsAt: Date;
}

/**
 * The pass's earliest booking whose window has not ended, or null. A booking used at the gate
 * or marked a no-show is not next any more (both changes republish the pass).
 */
export async function findNextVisit(db: Executor, barcode: string, now: Date): Promise<NextVisit | null> {
  const [next] = await db
    .select({ startsAt: visitWindows.startsAt, endsAt: visitWindows.endsAt })
    .from(visitReservations)
    .innerJoin(visitWindows, eq(visitWindows.id, visitReservations.windowId))
    .where(and(eq(visitReservations.barcode, barcode), eq(visitReservations.status, 'booked'), gt(visitWindows.endsAt, now)))
    .orderBy(asc(visitWindows.startsAt))
    .limit(1);
  return next ?? null;
}
