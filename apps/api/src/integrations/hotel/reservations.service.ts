// The hotel feed: one reservation per reservation number, replaced by a resend.
import type { ReservationFeed, UpsertOutcome } from '@boardwalk/contract/integrations';
import type { FeedWrite } from '../feed-write.ts';
import { RESERVATION_CANCELLED } from './reservation.topics.ts';
import { upsertReservationRow } from './reservations.repo.ts';

/** PUT /api/integrations/reservations/{reservationNumber}: creates or replaces it, idempotently. */
export function upsertReservation(opts: FeedWrite & { reservationNumber: string; reservation: ReservationFeed }): Promise<UpsertOutcome> {
  const { reservationNumber, reservation: r } = opts;
  return opts.db.transaction(async (tx) => {
    const outcome = await upsertReservationRow(tx, {
      reservationNumber,
      firstName: r.firstName ?? null,
      lastName: r.lastName ?? null,
      email: r.email ?? null,
      arrival: r.arrival,
      departure: r.departure,
      total: r.total,
      cancelled: r.cancelled,
    });
    // A claimed reservation that was cancelled gives its points back.
    if (outcome === 'replaced' && r.cancelled) await opts.changes.publish(tx, RESERVATION_CANCELLED, [reservationNumber], opts.system);
    return outcome;
  });
}
