// Park time: the operating day starts at 2:00 AM in PARK_TIMEZONE, also on the days daylight
// saving time begins or ends. Zone arithmetic is @date-fns/tz's (TZDate computes in the zone's
// wall clock), never offsets added by hand.
import { TZDate } from '@date-fns/tz';
import { addDays } from 'date-fns/addDays';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

export const OPERATING_DAY_START_HOUR = 2;

/** The start of the park's operating day containing `now`: 2:00 AM in the park's time zone. */
export function operatingDayStart(now: Date, timeZone: string): Date {
  const local = new TZDate(now.getTime(), timeZone);
  // Before 2:00 AM on the park's clock it is still the previous calendar day's operating day.
  const day = local.getHours() < OPERATING_DAY_START_HOUR ? addDays(local, -1) : local;
  // 2:00 AM of that day; on the day clocks go forward (no 2:00) TZDate gives 3:00 AM.
  return new Date(new TZDate(day.getFullYear(), day.getMonth(), day.getDate(), OPERATING_DAY_START_HOUR, 0, 0, timeZone).getTime());
}

/** The operating day containing `now`, as its calendar date (YYYY-MM-DD) in the park. */
export function operatingDay(now: Date, timeZone: string): string {
  const start = new TZDate(operatingDayStart(now, timeZone).getTime(), timeZone);
  return `${start.getFullYear()}-${String(start.getMonth() + 1).padStart(2, '0')}-${String(start.getDate()).padStart(2, '0')}`;
}

/** Whole calendar days from one YYYY-MM-DD to another. */
export const daysBetween = (from: string, to: string) =>
  differenceInCalendarDays(new Date(`${to}T12:00:00Z`), new Date(`${from}T12:00:00Z`));

/** An instant moved by whole days at the same wall-clock time in the park (DST-safe). */
export const shiftInstant = (iso: string, days: number, timeZone: string) =>
  addDays(new TZDate(Date.parse(iso), timeZone), days).toISOString();

/** A calendar date (YYYY-MM-DD) moved by whole days. */
export const shiftDate = (date: string, days: number) =>
  addDays(new Date(`${date}T12:00:00Z`), days)
    .toISOString()
    .slice(0, 10);

/** An instant's calendar date in the park (YYYY-MM-DD). */
export function parkDate(at: Date, timeZone: string): string {
  const local = new TZDate(at.getTime(), timeZone);
  return `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')}`;
}

/** An instant's calendar date in the park as M/D/YY (11/21/26), the way the guest pages print dates. */
export function parkShortDate(at: Date, timeZone: string): string {
  const local = new TZDate(at.getTime(), timeZone);
  return `${local.getMonth() + 1}/${local.getDate()}/${String(local.getFullYear() % 100).padStart(2, '0')}`;
}

/** The operating day of a calendar date (YYYY-MM-DD): from its 2:00 AM to the next day's, in the park. */
export function operatingDayBounds(date: string, timeZone: string): { start: Date; end: Date } {
  const noon = (d: string) => new TZDate(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10)), 12, 0, 0, timeZone);
  return { start: operatingDayStart(noon(date), timeZone), end: operatingDayStart(noon(shiftDate(date, 1)), timeZone) };
}

/** A span of instants: from `start` (included) to `end` (excluded). */
export interface InstantSpan {
  start: Date;
  end: Date;
}

/**
 * SQL: the operating day (YYYY-MM-DD) of a timestamp, grouped by the database: its wall-clock
 * time in the park less two hours (before 2:00 AM it is the previous day's; on the days clocks
 * change, the wall clock already is the zone's). Group by it as the first column (`groupBy(sql`1`)`):
 * its time zone is a parameter, so a repeated expression would be a different one to PostgreSQL.
 */
export const operatingDaySql = (column: SQL | AnyColumn, timeZone: string) =>
  sql<string>`to_char((${column} at time zone ${timeZone}) - make_interval(hours => ${OPERATING_DAY_START_HOUR}), 'YYYY-MM-DD')`;

/** Rows keyed by their operating day, merged into one row per day of the range with `zero` for the missing figures. */
export function perDay<Z extends object>(days: string[], zero: Z, ...series: ({ day: string } & Partial<Z>)[][]): ({ day: string } & Z)[] {
  const byDay = new Map(days.map((day) => [day, { day, ...zero }]));
  for (const rows of series) {
    for (const { day, ...figures } of rows) {
      const row = byDay.get(day);
      if (row) Object.assign(row, figures);
    }
  }
  return [...byDay.values()];
}
