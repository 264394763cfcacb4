// The visit reservations' topics. A key is an entry window's id.

/** Places of a window freed (a booking cancelled or moved, its capacity raised): its waitlist moves. */
export const VISIT_PLACES_FREED = 'visit.places-freed';
