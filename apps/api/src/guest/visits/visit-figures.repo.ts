// The Dashboard's visit reservation figures per operating day: the windows' capacity, the places
// taken (booked, used at the gate, no-shows), the waitlist and the no-shows. Windows are few (a
// handful a day), so their days are told here in the park's time zone; the reservations are
// counted by the database, grouped by the day each was made for.
import { and, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { visitReservations, visitWindows } from '@boardwalk/db/schema';
import { operatingDay } from '../../platform/park-time.ts';

export interface ReservationDayFigures {
  day: string;
  capacity: number;
  booked: number;
  waitlisted: number;
  noShows: number;
}

/** The figures of the operating days from `from` to `to` (YYYY-MM-DD) whose windows start within `span`. */
export async function reservationsPerDay(
  db: Executor,
  span: { start: Date; end: Date },
  days: { from: string; to: string },
  timeZone: string,
): Promise<ReservationDayFigures[]> {
  const windows = await db
    .select({ startsAt: visitWindows.startsAt, capacity: visitWindows.capacity })
    .from(visitWindows)
    .where(and(gte(visitWindows.startsAt, span.start), lt(visitWindows.startsAt, span.end)));
  const r = visitReservations;
  const counted = await db
    .select({
      day: r.day,
      booked: sql<number>`(count(*) filter (where ${r.status} in ('booked', 'used', 'no_show')))::int`,
      waitlisted: sql<number>`(count(*) filter (where ${r.status} = 'waitlisted'))::int`,
      noShows: sql<number>`(count(*) filter (where ${r.status} = 'no_show'))::int`,
    })
    .from(r)
    .where(and(gte(r.day, days.from), sql`${r.day} <= ${days.to}`))
    .groupBy(r.day);
  const byDay = new Map<string, ReservationDayFigures>();
  const dayOf = (day: string) => byDay.get(day) ?? byDay.set(day, { day, capacity: 0, booked: 0, waitlisted: 0, noShows: 0 }).get(day)!;
  for (const w of windows) dayOf(operatingDay(w.startsAt, timeZone)).capacity += w.capacity;
  for (const c of counted) Object.assign(dayOf(c.day), { booked: c.booked, waitlisted: c.waitlisted, noShows: c.noShows });
  return [...byDay.values()];
}
