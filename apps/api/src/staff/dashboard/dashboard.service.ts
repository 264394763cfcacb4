// The Dashboard's figures over a range of operating days (today, or the last 7, 30 or 90 with
// today): every figure is counted by the database (one grouped query each, on an index; the
// club's closed days counted once and stored, loyalty/loyalty-day-figures.ts), and here each
// series gets one row per day of the range (a day with nothing is zeros).
import { DASHBOARD_RANGE_DAYS, type Dashboard, type DashboardRange } from '@boardwalk/contract/dashboard';
import type { Db } from '@boardwalk/db/client';
import type { FastifyBaseLogger } from 'fastify';
import {
  countAppleRegistrations,
  appleRegistrationsPerDay,
  googleSavesPerDay,
  pushFetchLatencyPerDay,
} from '../../wallet/wallet-figures.repo.ts';
import { clubFiguresPerDay } from '../../loyalty/loyalty-day-figures.ts';
import { reservationsPerDay, windowCapacityPerDay } from '../../guest/visits/visit-figures.repo.ts';
import { membersPerTier, outstandingPoints } from '../../loyalty/loyalty-figures.repo.ts';
import { activityPerDay, type Activity, type ActivityCounts } from '../../platform/activity-counts.ts';
import { deliveriesPerDay } from '../../platform/jobs/deliveries.repo.ts';
import { operatingDay, operatingDayBounds, perDay, shiftDate } from '../../platform/park-time.ts';

export interface DashboardDeps {
  db: Db;
  timeZone: string;
  /** LOYALTY_POINTS_EXPIRE_MONTHS: 0 when points never expire. */
  pointsExpireMonths: number;
  activity: ActivityCounts;
  log: FastifyBaseLogger;
}

/** The activity counts as rows of a series, each activity under its figure's name (perDay merges a day's rows). */
const activitySeries = <K extends string>(
  rows: { day: string; activity: string; count: number }[],
  figures: Partial<Record<Activity, K>>,
) =>
  rows.flatMap(({ day, activity, count }) => {
    const figure = figures[activity as Activity];
    return figure ? [{ day, [figure]: count } as { day: string } & Partial<Record<K, number>>] : [];
  });

/**
 * The Dashboard for a range ending `now`. `liability`: the points outstanding are read and shown
 * (to a staff member who may download the ledger: a financial figure level 1 does not see).
 */
export async function loadDashboard(deps: DashboardDeps, range: DashboardRange, now: Date, liability = true): Promise<Dashboard> {
  const { db, timeZone } = deps;
  const to = operatingDay(now, timeZone);
  const from = shiftDate(to, 1 - DASHBOARD_RANGE_DAYS[range]);
  const days = Array.from({ length: DASHBOARD_RANGE_DAYS[range] }, (_, i) => shiftDate(from, i));
  const span = { start: operatingDayBounds(from, timeZone).start, end: operatingDayBounds(to, timeZone).end };

  // This instance's counts not yet written, so that the figures include them. A failed write
  // keeps them for the next try; the figures are then read without them.
  await deps.activity
    .flush()
    .catch((error: unknown) => deps.log.warn({ err: error }, 'activity counts not written before the Dashboard read'));
  const [club, outstanding, tiers, apple, google, activeDevices, latency, delivered, activity, capacity, reserved] = await Promise.all([
    clubFiguresPerDay(db, days, to, timeZone),
    liability ? outstandingPoints(db, now) : null,
    membersPerTier(db, now),
    appleRegistrationsPerDay(db, span, timeZone),
    googleSavesPerDay(db, span, timeZone),
    countAppleRegistrations(db),
    pushFetchLatencyPerDay(db, span, timeZone),
    deliveriesPerDay(db, span, timeZone),
    activityPerDay(db, from, to),
    windowCapacityPerDay(db, span, timeZone),
    reservationsPerDay(db, span, timeZone),
  ]);
  return {
    range,
    timeZone,
    from,
    to,
    claims: club.map(({ day, tickets, foodAndBeverage, hotel, newMembers }) => ({ day, tickets, foodAndBeverage, hotel, newMembers })),
    points: club.map(({ day, earned, redeemed, reversed, expired, adjusted, campaigns }) => ({
      day,
      earned,
      redeemed,
      reversed,
      expired,
      adjusted,
      campaigns,
    })),
    outstanding: outstanding && {
      points: outstanding.points,
      expiring:
        deps.pointsExpireMonths > 0
          ? { within30Days: outstanding.within30Days, within60Days: outstanding.within60Days, within90Days: outstanding.within90Days }
          : null,
    },
    tiers,
    wallet: {
      days: perDay(
        days,
        { applePasses: 0, googleObjects: 0, shareLinksOpened: 0 },
        apple,
        google,
        activitySeries(activity, { 'share-link-opened': 'shareLinksOpened' }),
      ),
      activeDevices,
    },
    deliveries: perDay(
      days,
      { sent: 0, dead: 0, fetchedPushes: 0, fetchP50Seconds: null as number | null, fetchP95Seconds: null as number | null },
      delivered.sent,
      delivered.dead,
      latency,
    ),
    lookups: perDay(
      days,
      { found: 0, failed: 0, throttled: 0 },
      activitySeries(activity, { 'lookup-found': 'found', 'lookup-failed': 'failed', 'lookup-throttled': 'throttled' }),
    ),
    reservations: perDay(days, { capacity: 0, booked: 0, waitlisted: 0, noShows: 0 }, capacity, reserved).map((d) => ({
      ...d,
      capacityUsed: d.capacity > 0 ? Math.round((d.booked / d.capacity) * 1000) / 10 : null,
    })),
  };
}
