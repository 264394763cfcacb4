// What moves by itself (docs/visit-reservations.md): a window's waitlist when places free, the
// gate feed's uses marking bookings used, and the bookings whose window ended unused becoming
// no-shows. Each runs from the visits queue (visits.jobs.ts).
import type { Executor } from '@boardwalk/db/client';
import type { Config } from '../../platform/config.ts';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import type { Mailer } from '../../integrations/email/mailer.ts';
import { linkIn, mailTexts } from '../../integrations/email/mail-texts.ts';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import type { TicketCore } from '../ticket/ticket.service.ts';
import {
  changeStatus,
  countPlaces,
  findDayReservations,
  findWindow,
  firstWaitlisted,
  lockPass,
  lockWindow,
  markNoShows,
  markUsed,
  type ReservationInWindow,
} from './visits.repo.ts';
import { reservationChanged } from './visits.service.ts';
import { VISIT_PLACES_FREED } from './visits.topics.ts';

export interface WaitlistDeps {
  db: Executor;
  tickets: Pick<TicketCore, 'findPassOfBarcode'>;
  changes: ChangeBus;
  mailer: Pick<Mailer, 'send'>;
  config: Pick<Config, 'parkTimezone' | 'publicUrl' | 'brandName' | 'supportEmail'>;
}

/** The promotion mail, in the language the guest booked in, to the pass's registered (else its holder's) address. */
async function mailPromotion(tx: Executor, deps: WaitlistDeps, r: ReservationInWindow): Promise<void> {
  const row = await deps.tickets.findPassOfBarcode(tx, r.barcode);
  const to = row?.registration?.email ?? row?.ticket.holderEmail;
  if (!row || !to) return;
  const { config } = deps;
  const t = mailTexts(r.language, config.parkTimezone);
  const firstName = row.registration?.firstName ?? row.ticket.holderFirstName;
  await deps.mailer.send(tx, {
    to,
    subject: t('visitPromoted.subject', { start: r.window.startsAt }),
    text: t('visitPromoted.text', {
      greeting: firstName ? t('visitPromoted.greetingNamed', { firstName }) : t('visitPromoted.greeting'),
      start: r.window.startsAt,
      end: r.window.endsAt,
      link: linkIn(`${config.publicUrl}/${r.orderId}/${r.barcode}`, r.language),
      supportEmail: config.supportEmail,
      brand: config.brandName,
    }),
  });
}

/**
 * Books the window's waitlist into its free places, first the highest tier then the earliest to
 * join (then the row id), one promotion a transaction under the promoted pass's lock then the
 * window's (the booking's order): each is promoted once however many workers run it or retries
 * come (a promotion is a status change from waitlisted, in one transaction with its mail). A
 * promoted pass's booking of another window that day is cancelled (its place frees in turn); a
 * pass whose booking that day was used or has ended gives up its place instead (one visit a day),
 * and the queue moves on. Answers how many it promoted.
 */
export async function promoteWaitlist(deps: WaitlistDeps, windowId: string, now = new Date()): Promise<number> {
  let promoted = 0;
  for (;;) {
    const step = await promoteNext(deps, windowId, now);
    if (step === 'done') return promoted;
    if (step === 'promoted') promoted++;
  }
}

/**
 * The first on the waitlist, promoted when a place is free: 'done' when none is (or none waits),
 * 'passed' when its place was given up or the queue changed before the locks (the next step reads
 * it again).
 */
async function promoteNext(deps: WaitlistDeps, windowId: string, now: Date): Promise<'promoted' | 'passed' | 'done'> {
  return deps.db.transaction(async (tx) => {
    // Whose pass to lock is read first, unlocked; under the locks the queue is read again.
    const first = await firstWaitlisted(tx, windowId);
    if (!first) return 'done';
    await lockPass(tx, first.barcode);
    const window = await lockWindow(tx, windowId);
    if (!window || window.endsAt <= now) return 'done';
    if (window.capacity - (await countPlaces(tx, window.id)).taken <= 0) return 'done';
    // The waitlist place is confirmed and locked before anything of the pass changes.
    const next = await firstWaitlisted(tx, window.id, true);
    if (!next) return 'done';
    if (next.id !== first.id) return 'passed';
    const booking = (await findDayReservations(tx, next.barcode, next.day)).find((r) => r.status !== 'waitlisted');
    const bookingWindow = booking && (await findWindow(tx, booking.windowId))!;
    if (booking && bookingWindow && (booking.status === 'used' || bookingWindow.endsAt <= now)) {
      const givenUp = await changeStatus(tx, next.id, ['waitlisted'], 'cancelled', { cancelledAt: now });
      if (givenUp) await reservationChanged(tx, deps.changes, 'reservation.cancelled', { ...givenUp, window });
      return 'passed';
    }
    const cancelled = booking && (await changeStatus(tx, booking.id, ['booked'], 'cancelled', { cancelledAt: now }));
    const booked = await changeStatus(tx, next.id, ['waitlisted'], 'booked', { promotedAt: now });
    if (!booked) throw new Error(`The waitlist place ${next.id} locked for its promotion is no longer waitlisted`);
    // What tells the changes comes once both are made.
    if (cancelled && bookingWindow) {
      await reservationChanged(tx, deps.changes, 'reservation.cancelled', { ...cancelled, window: bookingWindow });
      await deps.changes.publish(tx, VISIT_PLACES_FREED, [cancelled.windowId]);
    }
    await reservationChanged(tx, deps.changes, 'reservation.promoted', { ...booked, window });
    await mailPromotion(tx, deps, { ...booked, window });
    return 'promoted';
  });
}

/** The gate feed used this pass: its bookings of that day are used (no-shows too, when the use came late). */
export async function markVisitsUsed(deps: Pick<WaitlistDeps, 'db' | 'changes' | 'config'>, barcode: string): Promise<number> {
  return deps.db.transaction(async (tx) => {
    // Under the pass's lock: no booking of that day is made meanwhile (one booked or used a day).
    await lockPass(tx, barcode);
    const used = await markUsed(tx, barcode, deps.config.parkTimezone);
    if (used.length > 0) await deps.changes.publish(tx, TICKET_CHANGED, [barcode]);
    return used.length;
  });
}

/** The bookings whose window ended unused: no-shows, each told once (reservation.no_show). */
export async function markVisitNoShows(deps: Pick<WaitlistDeps, 'db' | 'changes' | 'config'>, now = new Date()): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const missed = await markNoShows(tx, now, deps.config.parkTimezone);
    for (const r of missed) await reservationChanged(tx, deps.changes, 'reservation.no_show', r);
    return missed.length;
  });
}
