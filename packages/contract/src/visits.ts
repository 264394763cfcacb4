// Passholder visit reservations (docs/visit-reservations.md): a passholder whose product needs a
// reservation books an entry window of an operating day on the pass page, with the same access
// as the pass (order id and barcode); a full window has a waitlist; the gate asks whether a
// barcode holds a reservation for now.
import { z } from 'zod/mini';
import { describe } from './describe.ts';
import { barcode, orderId } from './pass.ts';

const id = (what: string) => z.uuid(`${what} is not valid`);

/** POST /api/visits/: the pass's calendar. */
export const visitCalendarRequest = z.strictObject({ orderId, barcode });
export type VisitCalendarRequest = z.infer<typeof visitCalendarRequest>;

/** POST /api/visits/book/ (a booking that day moves to this window) and /api/visits/waitlist/. */
export const visitWindowRequest = z.strictObject({ orderId, barcode, windowId: id('Window') });
export type VisitWindowRequest = z.infer<typeof visitWindowRequest>;

/** POST /api/visits/cancel/: a booking or a place on a waitlist. */
export const visitCancelRequest = z.strictObject({ orderId, barcode, reservationId: id('Reservation') });
export type VisitCancelRequest = z.infer<typeof visitCancelRequest>;

/** What a window is for this pass. */
export const VISIT_WINDOW_STATES = ['open', 'full', 'booked', 'waitlisted'] as const;
export type VisitWindowState = (typeof VISIT_WINDOW_STATES)[number];

const instant = describe(z.string(), 'An instant (ISO 8601, UTC)');
const day = describe(z.string(), 'An operating day of the park (YYYY-MM-DD)');

export const visitWindow = z.object({
  windowId: z.string(),
  startsAt: instant,
  endsAt: instant,
  state: z.enum(VISIT_WINDOW_STATES),
  placesLeft: describe(z.number(), 'Places not booked (0 when full)'),
  /** The pass's booking or waitlist place in it (to cancel it). */
  reservationId: z.nullable(z.string()),
  /** The pass's place on the waitlist (1: next), when waitlisted. */
  waitlistPosition: z.nullable(z.number()),
});
export type VisitWindow = z.infer<typeof visitWindow>;

export const visitDay = z.object({
  day,
  /** When this pass may book it (it opens earlier to higher tiers); null when it is open now. */
  opensAt: z.nullable(instant),
  /** A blockout day for this pass's product: nothing can be booked. */
  blocked: z.boolean(),
  windows: z.array(visitWindow),
});
export type VisitDay = z.infer<typeof visitDay>;

export const visitCalendar = z.object({
  /** Whether the pass's product needs a reservation; false: the rest is empty. */
  required: z.boolean(),
  /** New bookings are refused until this instant after too many no-shows; null: not blocked. */
  blockedUntil: z.nullable(instant),
  /** Upcoming bookings and waitlist places the pass holds, and the most it may. */
  upcoming: z.number(),
  limit: z.number(),
  /** The next days with entry windows, first today's. */
  days: z.array(visitDay),
  /** The park's time zone (IANA): the days and windows are its clock's. */
  timeZone: z.string(),
});
export type VisitCalendar = z.infer<typeof visitCalendar>;

/**
 * Why a booking is refused: the answer's `reason`, for the page to word in the guest's language.
 * A full window (409) offers the waitlist; a day not open yet has `params.opensAt`; the
 * no-show block `params.blockedUntil`; the limit `params.limit`.
 */
export const VISIT_REFUSALS = {
  notRequired: 'VISIT_NOT_REQUIRED',
  full: 'VISIT_WINDOW_FULL',
  notFull: 'VISIT_WINDOW_NOT_FULL',
  notOpen: 'VISIT_DAY_NOT_OPEN',
  blockedDay: 'VISIT_DAY_BLOCKED',
  past: 'VISIT_WINDOW_PAST',
  limit: 'VISIT_LIMIT_REACHED',
  noShows: 'VISIT_NO_SHOW_BLOCK',
  alreadyHeld: 'VISIT_ALREADY_HELD',
} as const;
export type VisitRefusal = (typeof VISIT_REFUSALS)[keyof typeof VISIT_REFUSALS];

/** The API's English for each refusal (the page words it from the catalogue by its reason). */
export const visitMessages = {
  notRequired: 'This pass does not need a reservation.',
  notFound: 'This entry window cannot be found.',
  full: 'This entry window is full. Join the waitlist to be booked when a place frees.',
  notFull: 'This entry window has places: book it instead of joining the waitlist.',
  notOpen: 'This day is not open for booking with this pass yet.',
  blockedDay: 'This day cannot be booked with this pass.',
  past: 'This entry window has already ended.',
  limit: 'This pass already holds the most upcoming reservations it may.',
  noShows: 'New bookings are paused after missed reservations.',
  alreadyHeld: 'This pass already holds this entry window.',
  reservationNotFound: 'This reservation cannot be found.',
} as const;

// ---- The gate ----------------------------------------------------------------------------

/** GET /api/integrations/visits/{barcode} */
export const visitGateParams = z.strictObject({ barcode });

export const visitGateAnswer = z.object({
  barcode: z.string(),
  /** Whether the pass's product needs a reservation; false: admit on the pass alone. */
  required: z.boolean(),
  /** Whether it holds a reservation for a window open now (always false when none is required). */
  reservedNow: z.boolean(),
  /** The window it holds now, or else its next one today; null: none. */
  window: z.nullable(z.object({ startsAt: instant, endsAt: instant })),
  /** The holder's photo for a staff-facing gate (a path on this server), when the pass has one. */
  photoUrl: z.nullable(z.string()),
});
export type VisitGateAnswer = z.infer<typeof visitGateAnswer>;
