// What Apple's and Google's passes of a ticket share: the style that fits the ticket, when
// and where it comes to the lock screen, and whether it is still valid.
import type { PassOrder } from '@boardwalk/contract/pass';
import { isStoredValueCard } from '@boardwalk/contract/pass-display';
import type { Executor } from '@boardwalk/db/client';
import { operatingDayBounds, operatingDayStart } from '../platform/park-time.ts';
import { findNextVisit, type NextVisit } from '../guest/ticket/next-visit.repo.ts';
import {
  findOperatingHours,
  findParkLocations,
  findParkNotices,
  type OperatingHours,
  type ParkLocation,
  type ParkNotice,
} from './park-settings.repo.ts';

/**
 * The style of a ticket's pass: a Stored Value Card is a store card with its balance; a season
 * pass a membership-like pass with the holder photo; a dated admission an event ticket for
 * its day; any other ticket a generic pass.
 */
export type PassStyle = 'storedValue' | 'season' | 'admission' | 'ticket';

export function passStyleOf(order: Pick<PassOrder, 'category' | 'isPassholder' | 'visitDate'>): PassStyle {
  if (isStoredValueCard(order)) return 'storedValue';
  if (order.isPassholder) return 'season';
  return order.visitDate ? 'admission' : 'ticket';
}

/** Why a pass is void, as its front says it. */
export type VoidReason = 'Refunded' | 'Redeemed' | 'Expired' | 'No Longer Valid' | 'No Longer Shared';

/** A reason the ticket's own state no longer gives: the pass stays void when it lapses (an exclusion that ended). */
const STICKY: ReadonlySet<VoidReason> = new Set(['No Longer Valid', 'No Longer Shared']);

/**
 * Why the pass is void now, or null while it is valid: refunded, redeemed (a single-use
 * admission: a season pass or Stored Value Card is used again and again), expired, excluded
 * from wallets after it was issued, or (a shared guest's own pass) its share was stopped.
 * A pass voided by an exclusion or a stopped share stays void (`stored`, what it showed):
 * only the feed's own facts (a refund, redemption or expiry undone) make a pass valid again.
 */
export function voidReasonOf(order: PassOrder, facts: { shareStopped: boolean; stored: string | null; now?: Date }): VoidReason | null {
  const now = facts.now ?? new Date();
  if (facts.shareStopped) return 'No Longer Shared';
  if (order.refunded) return 'Refunded';
  const style = passStyleOf(order);
  if ((order.isRedeemed || order.redeemed) && (style === 'admission' || style === 'ticket')) return 'Redeemed';
  if (order.expires && new Date(order.expires).getTime() < now.getTime()) return 'Expired';
  if (order.excluded) return 'No Longer Valid';
  return STICKY.has(facts.stored as VoidReason) ? (facts.stored as VoidReason) : null;
}

const visitDay = (date: string, timeZone: string) => {
  const { start, end } = operatingDayBounds(date, timeZone);
  return { from: start, to: end };
};

/** Most operating days a season pass carries (Apple documents no limit; ten is the coming week and a half). */
export const MAX_RELEVANT_DAYS = 10;

/** When and where the pass comes to the lock screen. */
export interface Relevance {
  /**
   * Operating hours: the visit day's for a dated admission; a season pass's next reserved entry
   * window alone when it holds one, else its next operating days within its validity.
   */
  hours: OperatingHours[];
  locations: ParkLocation[];
  /** The park's notices, on an Apple pass's back (a Google object shows its class's). */
  notices?: ParkNotice[];
  /** A season pass's next reserved entry window (docs/visit-reservations.md), shown on its passes. */
  nextVisit?: NextVisit | null;
}

/**
 * The pass's relevance from the park settings: the locations and notices (unless
 * `withLocations` is false: a Google object carries none, its class does) and the hours its style needs (a season
 * pass's next operating days unless `withSeasonDays` is false: Google shows none).
 */
export async function relevanceOf(
  db: Executor,
  order: Pick<PassOrder, 'barcode' | 'category' | 'isPassholder' | 'visitDate' | 'expires'>,
  timeZone: string,
  { now = new Date(), withLocations = true, withSeasonDays = true }: { now?: Date; withLocations?: boolean; withSeasonDays?: boolean } = {},
): Promise<Relevance> {
  // One read after the other: side by side they would take two pool connections per job.
  const style = passStyleOf(order);
  const park = withLocations ? { locations: await findParkLocations(db), notices: await findParkNotices(db) } : { locations: [] };
  if (style === 'admission' && order.visitDate)
    return { hours: await findOperatingHours(db, { ...visitDay(order.visitDate, timeZone), limit: MAX_RELEVANT_DAYS }), ...park };
  if (style === 'season') {
    // A reservation says when the pass is wanted at the gate: exactly its window.
    const nextVisit = await findNextVisit(db, order.barcode, now);
    if (nextVisit) return { hours: [{ opensAt: nextVisit.startsAt, closesAt: nextVisit.endsAt }], ...park, nextVisit };
    if (!withSeasonDays) return { hours: [], ...park };
    const hours = await findOperatingHours(db, {
      from: operatingDayStart(now, timeZone),
      to: order.expires ? new Date(order.expires) : null,
      closingAfter: now,
      limit: MAX_RELEVANT_DAYS,
    });
    return { hours, ...park };
  }
  return { hours: [], ...park };
}
