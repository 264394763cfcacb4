// The hotel feed (integration-api.md "Hotel system"): one reservation per number.
import type { ReservationFeed, UpsertOutcome } from '@boardwalk/contract/integrations';
import type { Executor } from '@boardwalk/db/client';
import { upsertReservationRow } from './reservations.repo.ts';

/** PUT /api/integrations/reservations/{reservationNumber}: creates or replaces it, idempotently. */
export function upsertReservation(opts: { db: Executor; reservationNumber: string; reservation: ReservationFeed }): Promise<UpsertOutcome> {
  const { db, reservationNumber, reservation: r } = opts;
  return upsertReservationRow(db, {
    reservationNumber,
    firstName: r.firstName ?? null,
    lastName: r.lastName ?? null,
    email: r.email ?? null,
    arrival: r.arrival,
    departure: r.departure,
    total: r.total,
    cancelled: r.cancelled,
  });
}
