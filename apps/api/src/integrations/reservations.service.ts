// The hotel feed (integration-api.md "Hotel system"): one reservation per number.
import type { ReservationFeed, UpsertOutcome } from '@boardwalk/contract/integrations';
import type { Executor } from '@boardwalk/db/client';
import { findReservationForUpdate, insertReservationIfAbsent, updateReservation, type ReservationValues } from './reservations.repo.ts';
import { differs } from './row-diff.ts';

/** PUT /api/integrations/reservations/{reservationNumber}: creates or replaces it, idempotently. */
export async function upsertReservation(opts: {
  db: Executor;
  reservationNumber: string;
  reservation: ReservationFeed;
}): Promise<UpsertOutcome> {
  const { db, reservationNumber, reservation: r } = opts;
  const next: ReservationValues = {
    reservationNumber,
    firstName: r.firstName ?? null,
    lastName: r.lastName ?? null,
    email: r.email ?? null,
    arrival: r.arrival,
    departure: r.departure,
    total: r.total,
    cancelled: r.cancelled,
  };
  return db.transaction(async (tx) => {
    if (await insertReservationIfAbsent(tx, next)) return 'created';
    const current = await findReservationForUpdate(tx, reservationNumber);
    if (current && !differs(current, next)) return 'unchanged';
    await updateReservation(tx, next);
    return 'replaced';
  });
}
