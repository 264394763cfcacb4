// Reads and writes of the hotel feed: reservations.
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { reservations } from '@boardwalk/db/schema';

export type ReservationRow = typeof reservations.$inferSelect;
export type ReservationValues = Omit<typeof reservations.$inferInsert, 'createdAt' | 'updatedAt'>;

/** Inserts the reservation unless one with its number exists; true when it was inserted. */
export async function insertReservationIfAbsent(db: Executor, values: ReservationValues): Promise<boolean> {
  const rows = await db
    .insert(reservations)
    .values(values)
    .onConflictDoNothing({ target: reservations.reservationNumber })
    .returning({ reservationNumber: reservations.reservationNumber });
  return rows.length > 0;
}

/** The reservation, locked until the transaction ends. */
export async function findReservationForUpdate(db: Executor, reservationNumber: string): Promise<ReservationRow | null> {
  const rows = await db.select().from(reservations).where(eq(reservations.reservationNumber, reservationNumber)).for('update');
  return rows[0] ?? null;
}

export async function updateReservation(db: Executor, values: ReservationValues): Promise<void> {
  const { reservationNumber, ...changes } = values;
  await db.update(reservations).set({ ...changes, updatedAt: sql`now()` }).where(eq(reservations.reservationNumber, reservationNumber));
}
