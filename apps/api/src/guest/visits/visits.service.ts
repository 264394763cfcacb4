// Passholder visit reservations (docs/visit-reservations.md): the pass's calendar, booking (or
// moving that day's booking), the waitlist, cancelling; what the gate is answered. A booking
// takes the pass's lock, then the window's: the capacity is counted under the window's lock, so
// a window never passes it however many book at once. A waitlist place takes a place for a
// booking: places freed go to the waitlist first (the visits queue), not to the next to book.
import {
  VISIT_REFUSALS,
  visitMessages,
  type VisitCalendar,
  type VisitDay,
  type VisitGateAnswer,
  type VisitWindow,
} from '@boardwalk/contract/visits';
import type { Language } from '@boardwalk/contract/i18n/languages';
import type { Executor } from '@boardwalk/db/client';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import { findSeasonPassTier } from '../../loyalty/loyalty-rewards.repo.ts';
import type { Config } from '../../platform/config.ts';
import { AppError, type ErrorCode } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import { operatingDay, operatingDayBounds, shiftDate } from '../../platform/park-time.ts';
import type { Caller, PassRow, TicketCore } from '../ticket/ticket.service.ts';
import {
  changeStatus,
  countHeld,
  countPlaces,
  findBlockedDays,
  findDayReservations,
  findGateReservation,
  findHeldReservations,
  findNoShowEnds,
  findReservation,
  findWindow,
  insertReservation,
  listWindows,
  lockPass,
  lockWindow,
  needsReservation,
  type ReservationInWindow,
  type VisitReservationRow,
  type VisitWindowRow,
  type WindowWithCounts,
} from './visits.repo.ts';
import { VISIT_PLACES_FREED } from './visits.topics.ts';

export interface VisitDeps {
  db: Executor;
  tickets: Pick<TicketCore, 'find' | 'findPassOfBarcode'>;
  changes: ChangeBus;
  config: Pick<Config, 'visits' | 'parkTimezone'>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const refused = (code: ErrorCode, why: keyof typeof VISIT_REFUSALS, params?: Record<string, string | number>) =>
  new AppError(code, visitMessages[why], { reason: VISIT_REFUSALS[why], ...(params && { params }) });

/** What decides what a pass may book: whether it needs reservations, its tier's lead and rank. */
interface PassRules {
  barcode: string;
  orderId: string;
  required: boolean;
  product: { product: string; categoryId: string | null };
  /** Days ahead a day opens to this pass. */
  daysAhead: number;
  /** The waitlist's priority: the tier's points to reach (0: no tier). */
  tierRank: number;
}

/** Whether the pass needs a reservation: a passholder's ticket, not refunded, of a reservation product. */
const requiresReservation = async (db: Executor, row: PassRow) =>
  row.ticket.isPassholder &&
  !row.ticket.refunded &&
  (await needsReservation(db, { product: row.ticket.product, categoryId: row.ticket.categoryId }));

async function rulesOf(deps: VisitDeps, db: Executor, row: PassRow, now: Date): Promise<PassRules> {
  const product = { product: row.ticket.product, categoryId: row.ticket.categoryId };
  const required = await requiresReservation(db, row);
  const tier = required ? await findSeasonPassTier(db, row.ticket.barcode, now) : null;
  return {
    barcode: row.ticket.barcode,
    orderId: row.order.orderId,
    required,
    product,
    daysAhead: tier?.visitDaysAhead ?? deps.config.visits.daysAhead,
    tierRank: tier?.pointsToReach ?? 0,
  };
}

/** When a day opens to a pass booking this many days ahead: the start of the operating day that many days before, in the park. */
export const dayOpensAt = (day: string, daysAhead: number, timeZone: string) =>
  operatingDayBounds(shiftDate(day, -daysAhead), timeZone).start;

/** Until when the pass's no-shows block new bookings: the limit reached within the period up to its last no-show, plus the block. */
async function noShowBlockEnd(deps: VisitDeps, db: Executor, barcode: string, now: Date): Promise<Date | null> {
  const { noShowLimit, noShowPeriodDays, noShowBlockDays } = deps.config.visits;
  if (noShowLimit === 0) return null;
  const ends = await findNoShowEnds(db, barcode, new Date(now.getTime() - (noShowPeriodDays + noShowBlockDays) * DAY_MS));
  const last = ends[0];
  if (!last) return null;
  const inPeriod = ends.filter((end) => end.getTime() > last.getTime() - noShowPeriodDays * DAY_MS).length;
  if (inPeriod < noShowLimit) return null;
  const until = new Date(last.getTime() + noShowBlockDays * DAY_MS);
  return until > now ? until : null;
}

/** The pass of the guest's call (order id and barcode, throttled as a lookup). */
async function passOf(deps: VisitDeps, request: Caller & { orderId: string; barcode: string }): Promise<PassRow> {
  const { row } = await deps.tickets.find({ clientAddress: request.clientAddress, orderId: request.orderId, barcode: request.barcode });
  return row;
}

/** The places a new booking may take: those neither taken nor waited for (a waitlist is booked first). */
const placesLeft = (window: Pick<WindowWithCounts, 'capacity' | 'taken' | 'waitlisted'>) =>
  Math.max(0, window.capacity - window.taken - window.waitlisted);

/** POST /api/visits/: the next days with entry windows and what each is for this pass. */
export async function visitCalendar(deps: VisitDeps, request: Caller & { orderId: string; barcode: string }): Promise<VisitCalendar> {
  const row = await passOf(deps, request);
  return calendarOf(deps, row, new Date());
}

async function calendarOf(deps: VisitDeps, row: PassRow, now: Date): Promise<VisitCalendar> {
  const { db, config } = deps;
  const rules = await rulesOf(deps, db, row, now);
  const limit = config.visits.upcomingLimit;
  if (!rules.required) return { required: false, blockedUntil: null, upcoming: 0, limit, days: [], timeZone: config.parkTimezone };

  const tz = config.parkTimezone;
  const today = operatingDay(now, tz);
  const last = shiftDate(today, config.visits.bookingDays - 1);
  const [windows, held, blocked, blockedUntil] = await Promise.all([
    listWindows(db, { start: operatingDayBounds(today, tz).start, end: operatingDayBounds(last, tz).end }),
    findHeldReservations(db, rules.barcode, now, today),
    findBlockedDays(db, rules.product, today, last),
    noShowBlockEnd(deps, db, rules.barcode, now),
  ]);
  const days = new Map<string, VisitDay>();
  for (const window of windows) {
    // An ended window shows only when it holds the pass's visit of that day (nothing more to book then).
    if (window.endsAt <= now && !held.some((r) => r.windowId === window.id)) continue;
    const day = operatingDay(window.startsAt, tz);
    const opensAt = dayOpensAt(day, rules.daysAhead, tz);
    let entry = days.get(day);
    if (!entry)
      days.set(day, (entry = { day, opensAt: opensAt > now ? opensAt.toISOString() : null, blocked: blocked.has(day), windows: [] }));
    // A booking used at the gate shows booked, with nothing to cancel.
    const mine = held.find((r) => r.windowId === window.id);
    const left = placesLeft(window);
    const state: VisitWindow['state'] = mine ? (mine.status === 'waitlisted' ? 'waitlisted' : 'booked') : left > 0 ? 'open' : 'full';
    entry.windows.push({
      windowId: window.id,
      startsAt: window.startsAt.toISOString(),
      endsAt: window.endsAt.toISOString(),
      state,
      placesLeft: left,
      reservationId: mine && mine.status !== 'used' ? mine.id : null,
      waitlistPosition: mine?.waitlistPosition ?? null,
    });
  }
  return {
    required: true,
    blockedUntil: blockedUntil?.toISOString() ?? null,
    upcoming: held.filter((r) => r.status !== 'used').length,
    limit,
    days: [...days.values()],
    timeZone: tz,
  };
}

/** An event of a reservation, with its window's times. */
const eventOf = (r: VisitReservationRow, window: VisitWindowRow) => ({
  orderId: r.orderId,
  barcode: r.barcode,
  reservationId: r.id,
  day: r.day,
  startsAt: window.startsAt.toISOString(),
  endsAt: window.endsAt.toISOString(),
  status: r.status,
});

type ReservationEvent = 'reservation.booked' | 'reservation.cancelled' | 'reservation.promoted' | 'reservation.no_show';

/** Records the event of a reservation that changed, and republishes its pass (the next reservation shows on it). */
export async function reservationChanged(tx: Executor, changes: ChangeBus, type: ReservationEvent, r: ReservationInWindow): Promise<void> {
  await recordEvent(tx, type, `ticket:${r.barcode}`, eventOf(r, r.window));
  await changes.publish(tx, TICKET_CHANGED, [r.barcode]);
}

/** Cancels a held reservation; a booking's place goes to the window's waitlist (the visits queue). */
async function cancelHeld(tx: Executor, deps: VisitDeps, r: VisitReservationRow, window: VisitWindowRow, now: Date): Promise<void> {
  const cancelled = await changeStatus(tx, r.id, ['booked', 'waitlisted'], 'cancelled', { cancelledAt: now });
  if (!cancelled) return;
  await reservationChanged(tx, deps.changes, 'reservation.cancelled', { ...cancelled, window });
  if (r.status === 'booked') await deps.changes.publish(tx, VISIT_PLACES_FREED, [r.windowId]);
}

/**
 * Under the pass's and the window's locks: the window (404 when none) and its day, refused when
 * it ended, its day is not open to the pass yet or blocked out, or no-shows block the pass.
 */
async function bookableWindow(tx: Executor, deps: VisitDeps, rules: PassRules, windowId: string, now: Date) {
  if (!rules.required) throw refused('FORBIDDEN', 'notRequired');
  await lockPass(tx, rules.barcode);
  const window = await lockWindow(tx, windowId);
  if (!window) throw new AppError('NOT_FOUND', visitMessages.notFound);
  if (window.endsAt <= now) throw refused('CONFLICT', 'past');
  const blockedUntil = await noShowBlockEnd(deps, tx, rules.barcode, now);
  if (blockedUntil) throw refused('FORBIDDEN', 'noShows', { blockedUntil: blockedUntil.toISOString() });
  const tz = deps.config.parkTimezone;
  const day = operatingDay(window.startsAt, tz);
  const opensAt = dayOpensAt(day, rules.daysAhead, tz);
  if (opensAt > now) throw refused('CONFLICT', 'notOpen', { opensAt: opensAt.toISOString() });
  if ((await findBlockedDays(tx, rules.product, day, day)).has(day)) throw refused('CONFLICT', 'blockedDay');
  return { window, day, sameDay: await findDayReservations(tx, rules.barcode, day) };
}

/** The reservation row of this pass in this window. */
const reservationOf = (rules: PassRules, window: VisitWindowRow, day: string, status: 'booked' | 'waitlisted', language: Language) => ({
  windowId: window.id,
  barcode: rules.barcode,
  orderId: rules.orderId,
  day,
  status,
  tierRank: rules.tierRank,
  language,
});

/** Refuses a new reservation past the pass's limit of upcoming ones (`replacing`: one it gives up in the same step). */
async function checkLimit(tx: Executor, deps: VisitDeps, barcode: string, now: Date, replacing: number) {
  const limit = deps.config.visits.upcomingLimit;
  if ((await countHeld(tx, barcode, now)) - replacing >= limit) throw refused('CONFLICT', 'limit', { limit });
}

/** POST /api/visits/book/: books the window (the pass's booking that day moves to it); answers the calendar. */
export async function bookVisit(
  deps: VisitDeps,
  request: Caller & { orderId: string; barcode: string; windowId: string; language: Language },
): Promise<VisitCalendar> {
  const row = await passOf(deps, request);
  const now = new Date();
  const rules = await rulesOf(deps, deps.db, row, now);
  await deps.db.transaction(async (tx) => {
    const { window, day, sameDay } = await bookableWindow(tx, deps, rules, request.windowId, now);
    const booking = sameDay.find((r) => r.status !== 'waitlisted');
    if (booking && (booking.status === 'used' || booking.windowId === window.id)) throw refused('CONFLICT', 'alreadyHeld');
    // A booking whose window ended stays (a no-show, unless the gate feed marks it used): it is not moved.
    const bookingWindow = booking && (await findWindow(tx, booking.windowId))!;
    if (bookingWindow && bookingWindow.endsAt <= now) throw refused('CONFLICT', 'past');
    // Its own place on this window's waitlist is given up for the booking (and leaves the places waited for).
    const waiting = sameDay.find((r) => r.status === 'waitlisted' && r.windowId === window.id);
    await checkLimit(tx, deps, rules.barcode, now, (booking ? 1 : 0) + (waiting ? 1 : 0));
    const places = await countPlaces(tx, window.id);
    if (placesLeft({ capacity: window.capacity, taken: places.taken, waitlisted: places.waitlisted - (waiting ? 1 : 0) }) === 0)
      throw refused('CONFLICT', 'full');
    if (booking && bookingWindow) await cancelHeld(tx, deps, booking, bookingWindow, now);
    if (waiting) await cancelHeld(tx, deps, waiting, window, now);
    const booked = await insertReservation(tx, reservationOf(rules, window, day, 'booked', request.language));
    if (!booked) throw refused('CONFLICT', 'alreadyHeld');
    await reservationChanged(tx, deps.changes, 'reservation.booked', { ...booked, window });
  });
  return calendarOf(deps, row, now);
}

/** POST /api/visits/waitlist/: a place on a full window's waitlist (beside the pass's booking that day, if any). */
export async function joinVisitWaitlist(
  deps: VisitDeps,
  request: Caller & { orderId: string; barcode: string; windowId: string; language: Language },
): Promise<VisitCalendar> {
  const row = await passOf(deps, request);
  const now = new Date();
  const rules = await rulesOf(deps, deps.db, row, now);
  await deps.db.transaction(async (tx) => {
    const { window, day, sameDay } = await bookableWindow(tx, deps, rules, request.windowId, now);
    if (sameDay.some((r) => r.windowId === window.id || r.status === 'used')) throw refused('CONFLICT', 'alreadyHeld');
    // The waitlist place of another window that day is given up for this one (counted in the limit if its window is still to end).
    const waiting = sameDay.find((r) => r.status === 'waitlisted');
    const waitingWindow = waiting && (await findWindow(tx, waiting.windowId))!;
    await checkLimit(tx, deps, rules.barcode, now, waitingWindow && waitingWindow.endsAt > now ? 1 : 0);
    if (placesLeft({ capacity: window.capacity, ...(await countPlaces(tx, window.id)) }) > 0) throw refused('CONFLICT', 'notFull');
    if (waiting && waitingWindow) await cancelHeld(tx, deps, waiting, waitingWindow, now);
    const joined = await insertReservation(tx, reservationOf(rules, window, day, 'waitlisted', request.language));
    if (!joined) throw refused('CONFLICT', 'alreadyHeld');
    await deps.changes.publish(tx, TICKET_CHANGED, [rules.barcode]);
  });
  return calendarOf(deps, row, now);
}

/** POST /api/visits/cancel/: cancels the pass's booking or waitlist place (a cancelled one stays cancelled). */
export async function cancelVisit(
  deps: VisitDeps,
  request: Caller & { orderId: string; barcode: string; reservationId: string },
): Promise<VisitCalendar> {
  const row = await passOf(deps, request);
  const now = new Date();
  await deps.db.transaction(async (tx) => {
    await lockPass(tx, row.ticket.barcode);
    const reservation = await findReservation(tx, request.reservationId, row.ticket.barcode);
    if (!reservation) throw new AppError('NOT_FOUND', visitMessages.reservationNotFound);
    if (reservation.status === 'cancelled') return;
    if (reservation.window.endsAt <= now || !['booked', 'waitlisted'].includes(reservation.status)) throw refused('CONFLICT', 'past');
    await cancelHeld(tx, deps, reservation, reservation.window, now);
  });
  return calendarOf(deps, row, now);
}

/** GET /api/integrations/visits/{barcode}: whether the pass may enter now on its reservation. */
export async function gateVisit(
  deps: Pick<VisitDeps, 'db' | 'tickets' | 'config'>,
  barcode: string,
  now = new Date(),
): Promise<VisitGateAnswer> {
  const row = await deps.tickets.findPassOfBarcode(deps.db, barcode);
  if (!row) throw new AppError('NOT_FOUND', 'No ticket has this barcode.');
  const photoUrl = row.photoUid ? `/api/download/${row.photoUid}/photo.png` : null;
  const required = await requiresReservation(deps.db, row);
  if (!required) return { barcode, required: false, reservedNow: false, window: null, photoUrl };
  const held = await findGateReservation(deps.db, barcode, operatingDay(now, deps.config.parkTimezone), now);
  const window = held ? { startsAt: held.window.startsAt.toISOString(), endsAt: held.window.endsAt.toISOString() } : null;
  const reservedNow = held !== null && held.window.startsAt <= now && now < held.window.endsAt;
  return { barcode, required, reservedNow, window, photoUrl };
}
