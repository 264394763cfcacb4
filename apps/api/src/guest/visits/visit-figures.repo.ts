// The Dashboard's visit reservation figures, grouped by the database per operating day: a
// window's day is the one its start falls in (from 2:00 AM park time, docs/visit-reservations.md),
// and its reservations count on that day. Two grouped queries on the windows starting within
// the range (visit_windows.starts_at is unique, so indexed) and their reservations (by window).
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { visitReservations, visitWindows } from '@boardwalk/db/schema';
import { operatingDaySql, type InstantSpan } from '../../platform/park-time.ts';
import { TAKING_A_PLACE } from './visits.repo.ts';

const inSpan = (span: InstantSpan) => and(gte(visitWindows.startsAt, span.start), lt(visitWindows.startsAt, span.end));

/** The passholder places of the windows starting in the span, per operating day. */
export function windowCapacityPerDay(db: Executor, span: InstantSpan, timeZone: string) {
  return db
    .select({ day: operatingDaySql(visitWindows.startsAt, timeZone), capacity: sql<number>`sum(${visitWindows.capacity})::int` })
    .from(visitWindows)
    .where(inSpan(span))
    .groupBy(sql`1`);
}

/**
 * The reservations of the windows starting in the span, per operating day: `booked`, the places
 * taken (booked, used at the gate, no-shows: what the window's capacity counts); `waitlisted`,
 * the passes still waiting; `noShows`, the bookings not used by the end of their window. A
 * cancelled reservation counts nowhere.
 */
export function reservationsPerDay(db: Executor, span: InstantSpan, timeZone: string) {
  const r = visitReservations;
  return db
    .select({
      day: operatingDaySql(visitWindows.startsAt, timeZone),
      booked: sql<number>`(count(*) filter (where ${inArray(r.status, TAKING_A_PLACE)}))::int`,
      waitlisted: sql<number>`(count(*) filter (where ${r.status} = 'waitlisted'))::int`,
      noShows: sql<number>`(count(*) filter (where ${r.status} = 'no_show'))::int`,
    })
    .from(r)
    .innerJoin(visitWindows, eq(visitWindows.id, r.windowId))
    .where(inSpan(span))
    .groupBy(sql`1`);
}
