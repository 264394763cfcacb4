// The hotel feed's reservations: its writes, and the reads of the loyalty claims.
import { eq } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { reservations } from '@boardwalk/db/schema';
import { upsertWholeRow } from '../whole-row.repo.ts';

export type ReservationValues = Omit<typeof reservations.$inferInsert, 'createdAt' | 'updatedAt'>;

export const upsertReservationRow = (db: Executor, values: ReservationValues) =>
  upsertWholeRow(db, reservations, reservations.reservationNumber, values);

/** The reservation, share-locked: a cancellation waits for a claim reading it. */
export async function lockReservation(tx: Executor, reservationNumber: string) {
  const [row] = await tx.select().from(reservations).where(eq(reservations.reservationNumber, reservationNumber)).for('share');
  return row ?? null;
}

/** A reservation's cancelled flag, or null when there is no such reservation. */
export async function findReservationCancelled(tx: Executor, reservationNumber: string): Promise<boolean | null> {
  const [row] = await tx
    .select({ cancelled: reservations.cancelled })
    .from(reservations)
    .where(eq(reservations.reservationNumber, reservationNumber));
  return row ? row.cancelled : null;
}
