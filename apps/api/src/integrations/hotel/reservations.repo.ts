// The hotel feed's reservations: its writes, and the reads of the loyalty claims.
import { asc, eq, getTableColumns, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { PrivacySections } from '@boardwalk/contract/privacy';
import type { Executor } from '@boardwalk/db/client';
import { reservations } from '@boardwalk/db/schema';
import { namesPerson, type Eraser, type Person } from '../../platform/privacy.ts';
import { upsertWholeRow } from '../whole-row.repo.ts';

export type ReservationValues = Omit<typeof reservations.$inferInsert, 'createdAt' | 'updatedAt'>;

export const upsertReservationRow = (db: Executor, values: ReservationValues) =>
  upsertWholeRow(db, reservations, reservations.reservationNumber, values);

/**
 * The reservation (a row or none), share-locked: a cancellation waits for a claim reading it.
 * With the columns `also` gives for its number, read in the same statement.
 */
export function lockReservation<Also extends Record<string, SQL>>(
  tx: Executor,
  reservationNumber: string | Placeholder,
  also: (reservationNumber: AnyPgColumn) => Also,
) {
  return tx
    .select({ ...getTableColumns(reservations), ...also(reservations.reservationNumber) })
    .from(reservations)
    .where(eq(reservations.reservationNumber, reservationNumber))
    .for('share');
}

/** A reservation's cancelled flag, or null when there is no such reservation. */
export async function findReservationCancelled(tx: Executor, reservationNumber: string): Promise<boolean | null> {
  const [row] = await tx
    .select({ cancelled: reservations.cancelled })
    .from(reservations)
    .where(eq(reservations.reservationNumber, reservationNumber));
  return row ? row.cancelled : null;
}

/** The hotelReservations section: the reservations under the person's email. */
export function findReservationsOfPerson(db: Executor, person: Person): Promise<PrivacySections['hotelReservations']> {
  return db
    .select({
      reservationNumber: reservations.reservationNumber,
      firstName: reservations.firstName,
      lastName: reservations.lastName,
      email: reservations.email,
      arrival: reservations.arrival,
      departure: reservations.departure,
      cancelled: reservations.cancelled,
    })
    .from(reservations)
    .where(namesPerson(person, { email: reservations.email }))
    .orderBy(asc(reservations.arrival));
}

/** Erasure: the reservations under the person's email name nobody (the stay stays: a financial record). */
export const reservationErasure: Eraser = {
  category: 'hotel reservations',
  async erase(tx, person) {
    const rows = await tx
      .update(reservations)
      .set({ firstName: null, lastName: null, email: null, updatedAt: sql`now()` })
      .where(namesPerson(person, { email: reservations.email }))
      .returning({ reservationNumber: reservations.reservationNumber });
    return rows.length;
  },
};
