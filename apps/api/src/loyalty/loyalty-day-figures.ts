// The club's figures per operating day for the Dashboard (claims by type, new members, points
// by kind). A closed day's figures do not change unless a row of that day is written or
// removed, so each is counted once into loyalty_day_figures and read from there; today's are
// counted live. A 90-day Dashboard then groups one day of the ledger instead of 90.
//
// Exact by construction: triggers (migration 0025) delete a day's figures when a row of that
// day is inserted into or deleted from loyalty_orders, loyalty_ledger or loyalty_accounts (a
// claim still in flight across 2:00 AM, a removed account), and the next read counts it again;
// a TRUNCATE deletes them all, and the columns that place a row in a day cannot be updated.
// A count holds SHARE ROW EXCLUSIVE on loyalty_day_figures from before it reads to its commit,
// which the triggers' deletes (ROW EXCLUSIVE) wait for, so a change and a count of its day never
// pass each other: the count waits for the change's commit, or the change deletes what the
// count wrote. A change of what a day's figures count (claimsPerDay, pointsPerDay) needs a
// migration that empties loyalty_day_figures. Hand-written because this is a cache of the
// club's own SQL with the database's own locks; a materialized view is recounted whole.
import { and, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Db, Executor } from '@boardwalk/db/client';
import { loyaltyDayFigures } from '@boardwalk/db/schema';
import { operatingDayBounds, perDay, type InstantSpan } from '../platform/park-time.ts';
import { claimsPerDay, newMembersPerDay, pointsPerDay } from './loyalty-figures.repo.ts';

/** A day's figures, as loyalty_day_figures keeps them (without the day's bounds). */
export type ClubDay = Omit<typeof loyaltyDayFigures.$inferSelect, 'startsAt' | 'endsAt'>;

const ZERO: Omit<ClubDay, 'day'> = {
  tickets: 0,
  foodAndBeverage: 0,
  hotel: 0,
  newMembers: 0,
  earned: 0,
  redeemed: 0,
  reversed: 0,
  expired: 0,
  adjusted: 0,
  campaigns: 0,
};

/** The figures of each of `days` (consecutive operating days) grouped by the database over their span, a day with nothing as zeros. */
async function countDays(db: Executor, days: string[], timeZone: string): Promise<ClubDay[]> {
  const span: InstantSpan = { start: operatingDayBounds(days[0]!, timeZone).start, end: operatingDayBounds(days.at(-1)!, timeZone).end };
  // One after the other: in a transaction they share one connection.
  const claims = await claimsPerDay(db, span, timeZone);
  const members = await newMembersPerDay(db, span, timeZone);
  const points = await pointsPerDay(db, span, timeZone);
  return perDay(days, ZERO, claims, members, points);
}

/**
 * The figures of each of `days` (consecutive operating days, in order, none after `today`): the
 * closed days' from loyalty_day_figures, those not there (or counted under another time zone)
 * counted and stored now, today's counted live.
 */
export async function clubFiguresPerDay(db: Db, days: string[], today: string, timeZone: string): Promise<ClubDay[]> {
  const closed = days.filter((day) => day < today);
  const [closedFigures, todayFigures] = await Promise.all([
    closed.length > 0 ? closedDayFigures(db, closed, timeZone) : [],
    days.includes(today) ? countDays(db, [today], timeZone) : [],
  ]);
  return [...closedFigures, ...todayFigures];
}

async function closedDayFigures(db: Db, closed: string[], timeZone: string): Promise<ClubDay[]> {
  const stored = await db
    .select()
    .from(loyaltyDayFigures)
    .where(and(gte(loyaltyDayFigures.day, closed[0]!), lte(loyaltyDayFigures.day, closed.at(-1)!)));
  const bounds = new Map(closed.map((day) => [day, operatingDayBounds(day, timeZone)]));
  const figures = new Map<string, ClubDay>();
  for (const { startsAt, endsAt, ...row } of stored) {
    const { start, end } = bounds.get(row.day)!;
    if (startsAt.getTime() === start.getTime() && endsAt.getTime() === end.getTime()) figures.set(row.day, row);
  }
  // Each run of consecutive missing days is counted over its own span (a removed account's old
  // day and yesterday are two short counts, not one of every day between them).
  const runs: string[][] = [];
  closed.forEach((day, i) => {
    if (figures.has(day)) return;
    if (i > 0 && !figures.has(closed[i - 1]!)) runs.at(-1)!.push(day);
    else runs.push([day]);
  });
  if (runs.length > 0) for (const row of await countAndStore(db, runs, bounds, timeZone)) figures.set(row.day, row);
  return closed.map((day) => figures.get(day)!);
}

/** Counts runs of closed days and stores their figures, in one transaction that holds off the triggers' deletes (see the top of this file). */
function countAndStore(db: Db, runs: string[][], bounds: Map<string, InstantSpan>, timeZone: string): Promise<ClubDay[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${loyaltyDayFigures} in share row exclusive mode`);
    const counted: ClubDay[] = [];
    for (const days of runs) counted.push(...(await countDays(tx, days, timeZone)));
    const rows = counted.map((row) => ({ ...row, startsAt: bounds.get(row.day)!.start, endsAt: bounds.get(row.day)!.end }));
    // A day stored under other bounds (another time zone) is replaced.
    await tx.delete(loyaltyDayFigures).where(
      inArray(
        loyaltyDayFigures.day,
        counted.map((row) => row.day),
      ),
    );
    await tx.insert(loyaltyDayFigures).values(rows);
    return counted;
  });
}
