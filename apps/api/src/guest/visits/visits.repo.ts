// The visit reservations' tables: entry windows, the products that need a reservation, blockout
// days and the reservations with their waitlists (docs/visit-reservations.md).
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '@boardwalk/db/client';
import { attractionUsage, visitBlockouts, visitProducts, visitReservations, visitWindows, type VisitStatus } from '@boardwalk/db/schema';
import { OPERATING_DAY_START_HOUR } from '../../platform/park-time.ts';

export type VisitWindowRow = typeof visitWindows.$inferSelect;
export type VisitReservationRow = typeof visitReservations.$inferSelect;
export type NewVisitReservation = Omit<typeof visitReservations.$inferInsert, 'id' | 'joinedAt'>;

/** The pass product a rule is matched with. */
export interface VisitProduct {
  product: string;
  categoryId: string | null;
}

/** Statuses that take a place of the window's capacity. */
export const TAKING_A_PLACE: VisitStatus[] = ['booked', 'used', 'no_show'];
/** Statuses of a reservation still to come (and of the limit per pass). */
export const HELD: VisitStatus[] = ['booked', 'waitlisted'];

/** A rule's columns naming the product: its category, or the product by name. */
const matchesProduct = (rule: { categoryId: AnyPgColumn; product: AnyPgColumn }, p: VisitProduct) =>
  or(p.categoryId === null ? sql`false` : eq(rule.categoryId, p.categoryId), eq(rule.product, p.product))!;

/** Whether this product needs a reservation (a rule names its category or the product). */
export async function needsReservation(db: Executor, product: VisitProduct): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(visitProducts)
    .where(matchesProduct(visitProducts, product))
    .limit(1);
  return row !== undefined;
}

/** The blockout days of this product between two days (YYYY-MM-DD, both included). */
export async function findBlockedDays(db: Executor, product: VisitProduct, from: string, to: string): Promise<Set<string>> {
  const rows = await db
    .select({ day: visitBlockouts.day })
    .from(visitBlockouts)
    .where(
      and(
        gte(visitBlockouts.day, from),
        sql`${visitBlockouts.day} <= ${to}`,
        or(and(isNull(visitBlockouts.categoryId), isNull(visitBlockouts.product)), matchesProduct(visitBlockouts, product)),
      ),
    );
  return new Set(rows.map((r) => r.day));
}

/** A window with the places its reservations take and the waitlist's length. */
export type WindowWithCounts = VisitWindowRow & { taken: number; waitlisted: number };

const countOf = (statuses: VisitStatus[]) => sql<number>`(count(*) filter (where ${inArray(visitReservations.status, statuses)}))::int`;

/** The windows starting within a span, in order, with their counts. */
export async function listWindows(db: Executor, span: { start: Date; end: Date }): Promise<WindowWithCounts[]> {
  return db
    .select({ ...windowColumns, taken: countOf(TAKING_A_PLACE), waitlisted: countOf(['waitlisted']) })
    .from(visitWindows)
    .leftJoin(visitReservations, eq(visitReservations.windowId, visitWindows.id))
    .where(and(gte(visitWindows.startsAt, span.start), lt(visitWindows.startsAt, span.end)))
    .groupBy(visitWindows.id)
    .orderBy(asc(visitWindows.startsAt));
}

const windowColumns = {
  id: visitWindows.id,
  startsAt: visitWindows.startsAt,
  endsAt: visitWindows.endsAt,
  capacity: visitWindows.capacity,
  createdAt: visitWindows.createdAt,
  updatedAt: visitWindows.updatedAt,
};

/** The counts of these windows (the staff tab's figures), by window id. */
export async function windowCounts(db: Executor, windowIds: string[]): Promise<Map<string, { taken: number; waitlisted: number }>> {
  if (windowIds.length === 0) return new Map();
  const rows = await db
    .select({ id: visitReservations.windowId, taken: countOf(TAKING_A_PLACE), waitlisted: countOf(['waitlisted']) })
    .from(visitReservations)
    .where(inArray(visitReservations.windowId, windowIds))
    .groupBy(visitReservations.windowId);
  return new Map(rows.map((r) => [r.id, { taken: r.taken, waitlisted: r.waitlisted }]));
}

/** Every reservation the window ever had (any status). */
export async function countReservationsOfWindow(db: Executor, windowId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(visitReservations)
    .where(eq(visitReservations.windowId, windowId));
  return row!.n;
}

const mine = alias(visitReservations, 'mine');
const ahead = alias(visitReservations, 'ahead');

/**
 * The pass's reservations held (booked or waitlisted) in windows ending after `now`, and its
 * visits (used) of the operating days from `today` on, ended or not, each
 * with its window and, when waitlisted, its place on the waitlist (1: next; the queue's order:
 * the highest tier, then the earliest to join, then the row id, as firstWaitlisted).
 */
export async function findHeldReservations(
  db: Executor,
  barcode: string,
  now: Date,
  today: string,
): Promise<(VisitReservationRow & { window: VisitWindowRow; waitlistPosition: number | null })[]> {
  const rows = await db
    .select({
      reservation: mine,
      window: visitWindows,
      waitlistPosition: sql<number | null>`case when ${mine.status} = 'waitlisted' then (
        select count(*)::int + 1 from ${visitReservations} ahead
        where ${ahead.windowId} = ${mine.windowId} and ${ahead.status} = 'waitlisted'
          and (${ahead.tierRank} > ${mine.tierRank} or (${ahead.tierRank} = ${mine.tierRank} and (${ahead.joinedAt} < ${mine.joinedAt}
            or (${ahead.joinedAt} = ${mine.joinedAt} and ${ahead.id} < ${mine.id}))))) end`,
    })
    .from(mine)
    .innerJoin(visitWindows, eq(visitWindows.id, mine.windowId))
    .where(
      and(
        eq(mine.barcode, barcode),
        or(
          and(inArray(mine.status, HELD), gt(visitWindows.endsAt, now)),
          // A visit made today or later stays shown once its window ended: one visit a day.
          and(eq(mine.status, 'used'), gte(mine.day, today)),
        ),
      ),
    )
    .orderBy(asc(visitWindows.startsAt));
  return rows.map((r) => ({ ...r.reservation, window: r.window, waitlistPosition: r.waitlistPosition }));
}

/** A lock on the pass's reservations (its limit and its one-a-day), then the window's own (its capacity): always in this order. */
export async function lockPass(tx: Executor, barcode: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('boardwalk.visit-pass'), hashtext(${barcode}))`);
}

/** The window, locked until the transaction ends (its capacity is counted under it); null when there is none. */
export async function lockWindow(tx: Executor, windowId: string): Promise<VisitWindowRow | null> {
  const [row] = await tx.select().from(visitWindows).where(eq(visitWindows.id, windowId)).for('update');
  return row ?? null;
}

/** The window, unlocked (another window's lock is never taken beside the one held: no deadlock between two moves). */
export async function findWindow(tx: Executor, windowId: string): Promise<VisitWindowRow | null> {
  const [row] = await tx.select().from(visitWindows).where(eq(visitWindows.id, windowId));
  return row ?? null;
}

/** The places the window's reservations take, and its waitlist's length (the staff tab's figures, one window). */
export async function countPlaces(tx: Executor, windowId: string): Promise<{ taken: number; waitlisted: number }> {
  return (await windowCounts(tx, [windowId])).get(windowId) ?? { taken: 0, waitlisted: 0 };
}

/** The pass's reservations of that day still held or used: a booking (or its use) and a waitlist place at most. */
export async function findDayReservations(tx: Executor, barcode: string, day: string): Promise<VisitReservationRow[]> {
  return tx
    .select()
    .from(visitReservations)
    .where(
      and(eq(visitReservations.barcode, barcode), eq(visitReservations.day, day), inArray(visitReservations.status, [...HELD, 'used'])),
    );
}

export async function findReservation(
  tx: Executor,
  id: string,
  barcode: string,
): Promise<(VisitReservationRow & { window: VisitWindowRow }) | null> {
  const [row] = await tx
    .select({ reservation: visitReservations, window: visitWindows })
    .from(visitReservations)
    .innerJoin(visitWindows, eq(visitWindows.id, visitReservations.windowId))
    .where(and(eq(visitReservations.id, id), eq(visitReservations.barcode, barcode)));
  return row ? withWindow([row])[0]! : null;
}

/** A new reservation, or null when the pass already holds one that day (a concurrent booking: the one-a-day index). */
export async function insertReservation(tx: Executor, row: NewVisitReservation): Promise<VisitReservationRow | null> {
  const [inserted] = await tx.insert(visitReservations).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

/** Moves a reservation from one of these statuses to another, stamping when; null when it was in none of them. */
export async function changeStatus(
  tx: Executor,
  id: string,
  from: VisitStatus[],
  to: VisitStatus,
  stamp: Partial<Pick<VisitReservationRow, 'cancelledAt' | 'promotedAt' | 'usedAt' | 'noShowAt'>>,
): Promise<VisitReservationRow | null> {
  const [row] = await tx
    .update(visitReservations)
    .set({ status: to, ...stamp })
    .where(and(eq(visitReservations.id, id), inArray(visitReservations.status, from)))
    .returning();
  return row ?? null;
}

/**
 * The first on the window's waitlist: the highest tier, then the earliest to join, then the row
 * id (findHeldReservations's position counts in the same order). `lock`: its row is locked until
 * the transaction ends (a row left meanwhile is passed over for the next).
 */
export async function firstWaitlisted(tx: Executor, windowId: string, lock = false): Promise<VisitReservationRow | null> {
  const query = tx
    .select()
    .from(visitReservations)
    .where(and(eq(visitReservations.windowId, windowId), eq(visitReservations.status, 'waitlisted')))
    .orderBy(desc(visitReservations.tierRank), asc(visitReservations.joinedAt), asc(visitReservations.id))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/** The pass's upcoming reservations held (booked or waitlisted, their window not ended). */
export async function countHeld(tx: Executor, barcode: string, now: Date): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(visitReservations)
    .innerJoin(visitWindows, eq(visitWindows.id, visitReservations.windowId))
    .where(and(eq(visitReservations.barcode, barcode), inArray(visitReservations.status, HELD), gt(visitWindows.endsAt, now)));
  return row!.n;
}

/** The ends of the windows the pass missed (no-shows) that ended after `since`, latest first. */
export async function findNoShowEnds(db: Executor, barcode: string, since: Date): Promise<Date[]> {
  const rows = await db
    .select({ endsAt: visitWindows.endsAt })
    .from(visitReservations)
    .innerJoin(visitWindows, eq(visitWindows.id, visitReservations.windowId))
    .where(and(eq(visitReservations.barcode, barcode), eq(visitReservations.status, 'no_show'), gt(visitWindows.endsAt, since)))
    .orderBy(desc(visitWindows.endsAt));
  return rows.map((r) => r.endsAt);
}

/** A reservation with the window it names, as events and mails tell it. */
export type ReservationInWindow = VisitReservationRow & { window: VisitWindowRow };

/** The gate feed's uses of the reservation's pass within its operating day (from 2:00 AM) before its window's end. */
const usesWithin = (timeZone: string) => {
  const dayStart = sql`((${visitReservations.day}::timestamp + make_interval(hours => ${OPERATING_DAY_START_HOUR})) at time zone ${timeZone})`;
  return sql`from ${attractionUsage} u where u.barcode = ${visitReservations.barcode}
    and u.timestamp >= ${dayStart} and u.timestamp < ${visitWindows.endsAt}`;
};

const withWindow = (rows: { reservation: VisitReservationRow; window: VisitWindowRow }[]) =>
  rows.map((r) => ({ ...r.reservation, window: r.window }));

/** The bookings whose window ended by `now` with no use of the pass at the gate: now no-shows. */
export async function markNoShows(tx: Executor, now: Date, timeZone: string): Promise<ReservationInWindow[]> {
  const rows = await tx
    .update(visitReservations)
    .set({ status: 'no_show', noShowAt: now })
    .from(visitWindows)
    .where(
      and(
        eq(visitWindows.id, visitReservations.windowId),
        eq(visitReservations.status, 'booked'),
        sql`${visitWindows.endsAt} <= ${now.toISOString()}::timestamptz`,
        sql`not exists (select 1 ${usesWithin(timeZone)})`,
      ),
    )
    .returning({ reservation: visitReservations, window: visitWindows });
  return withWindow(rows);
}

/**
 * The pass's bookings used at the gate (an attraction use within the reservation's operating
 * day before its window's end), no-shows too when the use arrived late: one a day at most (the
 * one-a-day index), the day's booking first, else its earliest no-show. Answers those it marked.
 */
export async function markUsed(tx: Executor, barcode: string, timeZone: string): Promise<ReservationInWindow[]> {
  const candidates = await tx
    .select({ id: visitReservations.id, day: visitReservations.day })
    .from(visitReservations)
    .innerJoin(visitWindows, eq(visitWindows.id, visitReservations.windowId))
    .where(
      and(
        eq(visitReservations.barcode, barcode),
        inArray(visitReservations.status, ['booked', 'no_show']),
        sql`exists (select 1 ${usesWithin(timeZone)})`,
        // A no-show whose day the pass booked again (or used) stays one (one reservation a day).
        or(
          eq(visitReservations.status, 'booked'),
          sql`not exists (select 1 from ${visitReservations} ahead where ${ahead.barcode} = ${visitReservations.barcode}
            and ${ahead.day} = ${visitReservations.day} and ${ahead.status} in ('booked', 'used'))`,
        ),
      ),
    )
    .orderBy(sql`${visitReservations.status} = 'booked' desc`, asc(visitWindows.startsAt), asc(visitReservations.id));
  const firstOfDay = new Map<string, string>();
  for (const r of candidates) if (!firstOfDay.has(r.day)) firstOfDay.set(r.day, r.id);
  if (firstOfDay.size === 0) return [];
  const rows = await tx
    .update(visitReservations)
    .set({ status: 'used', noShowAt: null, usedAt: sql`(select min(u.timestamp) ${usesWithin(timeZone)})` })
    .from(visitWindows)
    .where(
      and(
        eq(visitWindows.id, visitReservations.windowId),
        inArray(visitReservations.id, [...firstOfDay.values()]),
        inArray(visitReservations.status, ['booked', 'no_show']),
      ),
    )
    .returning({ reservation: visitReservations, window: visitWindows });
  return withWindow(rows);
}

/** The pass's reservation of a window open at `at` (booked or used), or else its next one that day. */
export async function findGateReservation(db: Executor, barcode: string, day: string, at: Date): Promise<ReservationInWindow | null> {
  const rows = await db
    .select({ reservation: visitReservations, window: visitWindows })
    .from(visitReservations)
    .innerJoin(visitWindows, eq(visitWindows.id, visitReservations.windowId))
    .where(
      and(eq(visitReservations.barcode, barcode), eq(visitReservations.day, day), inArray(visitReservations.status, ['booked', 'used'])),
    )
    .orderBy(asc(visitWindows.startsAt));
  const held = withWindow(rows);
  return held.find((r) => r.window.startsAt <= at && at < r.window.endsAt) ?? held.find((r) => r.window.startsAt > at) ?? held[0] ?? null;
}
