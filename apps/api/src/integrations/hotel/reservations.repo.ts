// Writes of the hotel feed: reservations.
import type { Executor } from '@boardwalk/db/client';
import { reservations } from '@boardwalk/db/schema';
import { upsertWholeRow } from '../whole-row.repo.ts';

export type ReservationValues = Omit<typeof reservations.$inferInsert, 'createdAt' | 'updatedAt'>;

export const upsertReservationRow = (db: Executor, values: ReservationValues) =>
  upsertWholeRow(db, reservations, reservations.reservationNumber, values);
