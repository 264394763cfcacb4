// The hotel feed's topic. A key is a reservation number.

/** A reservation was resent as cancelled. */
export const RESERVATION_CANCELLED = 'reservation.cancelled';
