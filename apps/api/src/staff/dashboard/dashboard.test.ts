// The Dashboard's figures against rows this test writes: each series per operating day (from
// 2:00 AM park time: a row at 1:59 AM is the previous day's, also on the days clocks go forward
// and back), the club's standing now (points outstanding and expiring, members per tier), wallet
// adoption, deliveries and push-to-fetch latency; the call's permission (Dashboard View) and
// its validation. The figures at a chosen moment are read through the service; the call
// itself through HTTP.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_API, type Dashboard } from '@boardwalk/contract/dashboard';
import * as schema from '@boardwalk/db/schema';
import { testDbKind } from '@boardwalk/db/test-support/test-database';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { aTicket, anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { createActivityCounts } from '../../platform/activity-counts.ts';
import { loadDashboard, type DashboardDeps } from './dashboard.service.ts';

const TIME_ZONE = 'America/Los_Angeles';
let t: TestApp;
let deps: DashboardDeps;
let viewer: StaffLogin;
let lacking: StaffLogin;

beforeAll(async () => {
  t = await createTestApp({ env: { PARK_TIMEZONE: TIME_ZONE } });
  deps = { db: t.database.db, timeZone: TIME_ZONE, pointsExpireMonths: 12, activity: t.app.activity, log: t.app.log };
  viewer = await loginAs(t.app, { accessLevel: 1 });
  lacking = await loginAs(t.app, { accessLevel: 0 });
});
afterAll(async () => {
  await t?.close();
});

const at = (iso: string) => new Date(iso);
let seq = 0;

async function aMember(createdAt = at('2025-01-01T20:00:00Z')) {
  seq += 1;
  const [row] = await t.database.db
    .insert(schema.loyaltyAccounts)
    .values({ email: `member-${seq}@example.com`, firstName: 'Dana', lastName: `Member ${seq}`, createdBy: 'staff', createdAt })
    .returning();
  return row!.id;
}

async function aClaim(accountId: string, sourceType: string, claimedAt: Date) {
  seq += 1;
  const [row] = await t.database.db
    .insert(schema.loyaltyOrders)
    .values({
      accountId,
      sourceType,
      sourceId: `S-${seq}`,
      reference: `R-${seq}`,
      product: 'Day Pass',
      amount: 10,
      purchasedAt: claimedAt,
      claimedAt,
    })
    .returning();
  return row!.id;
}

async function anEntry(accountId: string, kind: schema.LedgerKind, points: number, createdAt: Date, loyaltyOrderId: string | null = null) {
  const [row] = await t.database.db
    .insert(schema.loyaltyLedger)
    .values({ accountId, kind, points, reason: kind, causedBy: 'system', createdAt, loyaltyOrderId })
    .returning();
  return row!.id;
}

const dayOf = (figures: Dashboard, series: 'claims' | 'points' | 'deliveries', day: string) =>
  figures[series].find((row) => row.day === day);

describe("the club's standing now", () => {
  it('counts the points outstanding (what the lots hold), what expires within 30, 60 and 90 days, and members per tier', async () => {
    const now = at('2026-06-15T19:00:00Z');
    await t.database.db.insert(schema.loyaltyTiers).values([
      { name: 'Gold', pointsToReach: 1000 },
      { name: 'Silver', pointsToReach: 300 },
      { name: 'Retired', pointsToReach: 50, active: false },
    ]);
    // Gold: 1,200 earned in the window. Silver: 500 earned, 100 of them reversed (400 stands).
    // Below: 900 earned in the window but 800 reversed. Old: 2,000 earned before the window. Idle: nothing.
    const gold = await aMember();
    await anEntry(gold, 'earn', 1200, at('2026-05-01T18:00:00Z'), await aClaim(gold, 'ticket', at('2026-05-01T18:00:00Z')));
    const silver = await aMember();
    const silverOrder = await aClaim(silver, 'hotel', at('2026-03-01T18:00:00Z'));
    await anEntry(silver, 'earn', 500, at('2026-03-01T18:00:00Z'), silverOrder);
    await anEntry(silver, 'reversal', -100, at('2026-06-01T18:00:00Z'), silverOrder);
    const below = await aMember();
    const belowOrder = await aClaim(below, 'food-and-beverage', at('2026-02-01T18:00:00Z'));
    await anEntry(below, 'earn', 900, at('2026-02-01T18:00:00Z'), belowOrder);
    await anEntry(below, 'reversal', -800, at('2026-02-02T18:00:00Z'), belowOrder);
    const old = await aMember();
    await anEntry(old, 'earn', 2000, at('2025-06-01T18:00:00Z'), await aClaim(old, 'ticket', at('2025-06-01T18:00:00Z')));
    await aMember();

    // The lots: 100 expiring in 10 days, 200 in 45, 300 in 80, 400 in 200, 500 never; one spent
    // (0 left); 700 past their date an hour ago, which the expiry job has not written yet.
    const day = 24 * 60 * 60 * 1000;
    const lots = [
      [100, 10],
      [200, 45],
      [300, 80],
      [400, 200],
      [500, null],
      [0, 5],
      [700, -1 / 24],
    ] as const;
    for (const [remaining, days] of lots) {
      const entryId = await anEntry(gold, 'adjustment', remaining || 1, at('2026-01-01T18:00:00Z'));
      await t.database.db.insert(schema.loyaltyLots).values({
        accountId: gold,
        entryId,
        points: remaining || 1,
        remaining,
        expiresAt: days === null ? null : new Date(now.getTime() + days * day),
      });
    }

    const figures = await loadDashboard(deps, 'today', now);
    expect(figures.outstanding).toEqual({ points: 1500, expiring: { within30Days: 100, within60Days: 300, within90Days: 600 } });
    expect(figures.tiers).toEqual([
      { tier: 'Gold', members: 1 },
      { tier: 'Silver', members: 1 },
      { tier: null, members: 3 },
    ]);
    // Points that never expire: no expiring figures.
    expect((await loadDashboard({ ...deps, pointsExpireMonths: 0 }, 'today', now)).outstanding).toEqual({ points: 1500, expiring: null });
  });
});

describe('the series per operating day', () => {
  it('counts claims by type, new members and points by kind per operating day from 2:00 AM, on the day clocks go forward', async () => {
    // Sunday March 8, 2026: 2:00 AM PST becomes 3:00 AM PDT, so its operating day runs from
    // 10:00 UTC to 09:00 UTC on March 9 (23 hours).
    const now = at('2026-03-09T20:00:00Z');
    const before = at('2026-03-08T09:59:00Z'); // 1:59 AM PST: still March 7
    const first = at('2026-03-08T10:00:00Z'); // 3:00 AM PDT: March 8
    const last = at('2026-03-09T08:59:00Z'); // 1:59 AM PDT on March 9: still March 8
    const next = at('2026-03-09T09:00:00Z'); // 2:00 AM PDT: March 9
    const outside = [at('2026-03-03T09:59:00Z'), at('2026-03-10T09:00:00Z')]; // March 2 and March 10

    const a = await aMember(before);
    await aMember(first);
    await aMember(last);
    for (const when of outside) await aMember(when);
    await aClaim(a, 'ticket', before);
    await aClaim(a, 'ticket', first);
    await aClaim(a, 'food-and-beverage', first);
    await aClaim(a, 'hotel', last);
    await aClaim(a, 'hotel', next);
    for (const when of outside) await aClaim(a, 'ticket', when);

    await anEntry(a, 'earn', 100, before);
    await anEntry(a, 'earn', 250, first);
    await anEntry(a, 'redemption', -80, first);
    await anEntry(a, 'redemption-reversal', 30, last);
    await anEntry(a, 'reversal', -40, last);
    await anEntry(a, 'expired', -15, last);
    await anEntry(a, 'adjustment', -5, first);
    await anEntry(a, 'adjustment', 12, last);
    await anEntry(a, 'earn', 7, next);
    for (const when of outside) await anEntry(a, 'earn', 1000, when);

    const figures = await loadDashboard(deps, '7', now);
    expect(figures).toMatchObject({ range: '7', timeZone: TIME_ZONE, from: '2026-03-03', to: '2026-03-09' });
    expect(figures.claims.map((row) => row.day)).toEqual([
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
    ]);
    expect(dayOf(figures, 'claims', '2026-03-07')).toEqual({ day: '2026-03-07', tickets: 1, foodAndBeverage: 0, hotel: 0, newMembers: 1 });
    expect(dayOf(figures, 'claims', '2026-03-08')).toEqual({ day: '2026-03-08', tickets: 1, foodAndBeverage: 1, hotel: 1, newMembers: 2 });
    expect(dayOf(figures, 'claims', '2026-03-09')).toEqual({ day: '2026-03-09', tickets: 0, foodAndBeverage: 0, hotel: 1, newMembers: 0 });
    expect(dayOf(figures, 'claims', '2026-03-03')).toEqual({ day: '2026-03-03', tickets: 0, foodAndBeverage: 0, hotel: 0, newMembers: 0 });

    expect(dayOf(figures, 'points', '2026-03-07')).toEqual({
      day: '2026-03-07',
      earned: 100,
      redeemed: 0,
      reversed: 0,
      expired: 0,
      adjusted: 0,
      campaigns: 0,
    });
    expect(dayOf(figures, 'points', '2026-03-08')).toEqual({
      day: '2026-03-08',
      earned: 250,
      redeemed: 50,
      reversed: 40,
      expired: 15,
      adjusted: 7,
      campaigns: 0,
    });
    expect(dayOf(figures, 'points', '2026-03-09')).toEqual({
      day: '2026-03-09',
      earned: 7,
      redeemed: 0,
      reversed: 0,
      expired: 0,
      adjusted: 0,
      campaigns: 0,
    });
    // Nothing outside the range: 1,000-point earns were written just before and just after it.
    expect(figures.points.reduce((sum, row) => sum + row.earned, 0)).toBe(357);

    // Today alone: the current operating day, March 9.
    const today = await loadDashboard(deps, 'today', now);
    expect(today.claims).toEqual([{ day: '2026-03-09', tickets: 0, foodAndBeverage: 0, hotel: 1, newMembers: 0 }]);
    // At 1:59 AM on March 9 it is still March 8's operating day.
    expect((await loadDashboard(deps, 'today', last)).points).toEqual([
      { day: '2026-03-08', earned: 250, redeemed: 50, reversed: 40, expired: 15, adjusted: 7, campaigns: 0 },
    ]);
  });

  it('puts the repeated hour of the day clocks go back in the day before (1:00 to 2:00 AM, twice)', async () => {
    // Sunday November 1, 2026: 2:00 AM PDT becomes 1:00 AM PST; the second 1:30 AM is 09:30 UTC.
    const member = await aMember(at('2026-10-30T12:00:00Z'));
    await anEntry(member, 'earn', 11, at('2026-11-01T08:30:00Z')); // 1:30 AM PDT: October 31
    await anEntry(member, 'earn', 22, at('2026-11-01T09:30:00Z')); // 1:30 AM PST: October 31
    await anEntry(member, 'earn', 44, at('2026-11-01T10:00:00Z')); // 2:00 AM PST: November 1
    const figures = await loadDashboard(deps, '7', at('2026-11-02T20:00:00Z'));
    expect(figures.points.find((row) => row.day === '2026-10-31')?.earned).toBe(33);
    expect(figures.points.find((row) => row.day === '2026-11-01')?.earned).toBe(44);
    expect(figures.points.find((row) => row.day === '2026-10-27')?.earned).toBe(0);
  });

  it('counts wallet adoption, deliveries sent and dead, and the Apple pushes push-to-fetch latency per day', async () => {
    const now = at('2026-08-12T19:00:00Z'); // August 12, noon PDT
    const account = await aMember(at('2026-08-01T19:00:00Z'));
    const [pass] = await t.database.db.insert(schema.walletPasses).values({ loyaltyAccountId: account }).returning();
    const registrations = [
      ['device-1', at('2026-08-11T08:59:00Z')], // 1:59 AM PDT: August 10
      ['device-2', at('2026-08-11T09:00:00Z')], // August 11
      ['device-3', at('2026-08-12T17:00:00Z')], // August 12
    ] as const;
    for (const [device, createdAt] of registrations) {
      await t.database.db
        .insert(schema.appleDeviceRegistrations)
        .values({ deviceLibraryIdentifier: device, serialNumber: pass!.serialNumber, pushToken: `token-${device}`, createdAt });
    }
    const callback = (nonce: string, eventType: string, receivedAt: Date) => ({
      nonce,
      eventType,
      classId: 'issuer.class',
      objectId: 'issuer.object',
      expiresAt: receivedAt,
      receivedAt,
    });
    await t.database.db
      .insert(schema.googleWalletCallbacks)
      .values([
        callback('n-1', 'save', at('2026-08-11T18:00:00Z')),
        callback('n-2', 'save', at('2026-08-11T19:00:00Z')),
        callback('n-3', 'del', at('2026-08-11T20:00:00Z')),
      ]);

    const delivery = (values: Partial<typeof schema.deliveries.$inferInsert>) => ({
      target: 'apple',
      recipient: 'dev…ce',
      queue: 'apple-push',
      payload: {},
      ...values,
    });
    const sentAt = at('2026-08-11T18:00:00Z');
    const plus = (seconds: number) => new Date(sentAt.getTime() + seconds * 1000);
    await t.database.db.insert(schema.deliveries).values([
      delivery({ state: 'fetched', sentAt, fetchedAt: plus(2) }),
      delivery({ state: 'fetched', sentAt, fetchedAt: plus(4) }),
      delivery({ state: 'fetched', sentAt, fetchedAt: plus(30) }),
      delivery({ state: 'sent', sentAt }),
      delivery({ target: 'mail', queue: 'mail', state: 'sent', sentAt: at('2026-08-12T18:00:00Z') }),
      delivery({ target: 'google', queue: 'google-update', state: 'dead', updatedAt: at('2026-08-12T18:00:00Z') }),
      delivery({ state: 'dead', updatedAt: at('2026-08-12T08:00:00Z') }), // 1:00 AM: August 11
    ]);

    // Share links opened: counted in memory, written by the Dashboard's read.
    t.app.activity.count('share-link-opened', at('2026-08-11T08:59:00Z')); // 1:59 AM PDT: August 10
    t.app.activity.count('share-link-opened', at('2026-08-11T09:00:00Z'));
    t.app.activity.count('share-link-opened', at('2026-08-12T03:00:00Z')); // 8:00 PM PDT: August 11

    const figures = await loadDashboard(deps, '7', now);
    expect(figures.wallet.activeDevices).toBe(3);
    expect(figures.wallet.days.slice(-3)).toEqual([
      { day: '2026-08-10', applePasses: 1, googleObjects: 0, shareLinksOpened: 1 },
      { day: '2026-08-11', applePasses: 1, googleObjects: 2, shareLinksOpened: 2 },
      { day: '2026-08-12', applePasses: 1, googleObjects: 0, shareLinksOpened: 0 },
    ]);
    expect(figures.deliveries.slice(-2)).toEqual([
      { day: '2026-08-11', sent: 4, dead: 1, fetchedPushes: 3, fetchP50Seconds: 4, fetchP95Seconds: 27.4 },
      { day: '2026-08-12', sent: 1, dead: 1, fetchedPushes: 0, fetchP50Seconds: null, fetchP95Seconds: null },
    ]);
  });
});

describe("passholders' visit reservations per day", () => {
  it('counts the capacity of the windows, the places taken (booked, used, no-shows), the waitlist and the no-shows per operating day', async () => {
    const now = at('2027-03-10T19:00:00Z');
    const db = t.database.db;
    // Two windows on March 9 (one at 1:30 AM of the 10th, park time: still the 9th's operating day) and one on the 10th.
    const [nine, late, ten] = await db
      .insert(schema.visitWindows)
      .values([
        { startsAt: at('2027-03-09T18:00:00Z'), endsAt: at('2027-03-09T20:00:00Z'), capacity: 4 },
        { startsAt: at('2027-03-10T09:30:00Z'), endsAt: at('2027-03-10T09:45:00Z'), capacity: 6 },
        { startsAt: at('2027-03-10T18:00:00Z'), endsAt: at('2027-03-10T20:00:00Z'), capacity: 5 },
      ])
      .returning();
    const row = (windowId: string, day: string, status: schema.VisitStatus, n: number) => ({
      windowId,
      day,
      status,
      barcode: `2499${String(++seq).padStart(12, '0')}`,
      orderId: String(90_000_000 + n),
    });
    await db
      .insert(schema.visitReservations)
      .values([
        row(nine!.id, '2027-03-09', 'used', 1),
        row(nine!.id, '2027-03-09', 'no_show', 2),
        row(late!.id, '2027-03-09', 'booked', 3),
        row(nine!.id, '2027-03-09', 'cancelled', 4),
        row(ten!.id, '2027-03-10', 'booked', 5),
        row(ten!.id, '2027-03-10', 'waitlisted', 6),
      ]);
    const figures = await loadDashboard(deps, '7', now);
    expect(figures.reservations).toHaveLength(7);
    expect(figures.reservations.find((d) => d.day === '2027-03-09')).toEqual({
      day: '2027-03-09',
      capacity: 10,
      booked: 3,
      capacityUsed: 30,
      waitlisted: 0,
      noShows: 1,
    });
    expect(figures.reservations.find((d) => d.day === '2027-03-10')).toEqual({
      day: '2027-03-10',
      capacity: 5,
      booked: 1,
      capacityUsed: 20,
      waitlisted: 1,
      noShows: 0,
    });
    // A day without windows: zeros, no percentage.
    expect(figures.reservations[0]).toEqual({ day: '2027-03-04', capacity: 0, booked: 0, capacityUsed: null, waitlisted: 0, noShows: 0 });
  });
});

describe("the club's closed days, counted once", () => {
  // September 2026 in Los Angeles (PDT): September 8's operating day runs from 09:00 UTC to 09:00 UTC.
  const now = at('2026-09-10T19:00:00Z');
  const onTheDay = at('2026-09-08T18:00:00Z');
  // Each test writes on a day of its own.
  const storedDay = async (day: string) => (await t.database.db.select().from(schema.loyaltyDayFigures)).find((row) => row.day === day);
  const earnedOn = async (day: string, timeZone = TIME_ZONE) =>
    (await loadDashboard({ ...deps, timeZone }, '7', now)).points.find((row) => row.day === day)?.earned;

  it('stores a closed day the first time it is read and reads it from there; today is counted live', async () => {
    const member = await aMember(onTheDay);
    await anEntry(member, 'earn', 40, onTheDay, await aClaim(member, 'ticket', onTheDay));
    await anEntry(member, 'earn', 3, at('2026-09-10T18:00:00Z')); // today

    const figures = await loadDashboard(deps, '7', now);
    expect(dayOf(figures, 'claims', '2026-09-08')).toEqual({ day: '2026-09-08', tickets: 1, foodAndBeverage: 0, hotel: 0, newMembers: 1 });
    expect(await storedDay('2026-09-08')).toMatchObject({
      startsAt: at('2026-09-08T09:00:00Z'),
      endsAt: at('2026-09-09T09:00:00Z'),
      tickets: 1,
      newMembers: 1,
      earned: 40,
    });
    // The six closed days of the range are stored; today is not.
    expect((await t.database.db.select().from(schema.loyaltyDayFigures)).map((row) => row.day)).toEqual(
      expect.arrayContaining(['2026-09-04', '2026-09-05', '2026-09-06', '2026-09-07', '2026-09-08', '2026-09-09']),
    );
    expect(await storedDay('2026-09-10')).toBeUndefined();

    // Read from the stored row: a figure changed there (no trigger watches this table) is what the Dashboard shows.
    await t.database.db.update(schema.loyaltyDayFigures).set({ earned: 41 }).where(eq(schema.loyaltyDayFigures.day, '2026-09-08'));
    expect(await earnedOn('2026-09-08')).toBe(41);
    // Today is counted live on every read.
    await anEntry(member, 'earn', 4, at('2026-09-10T18:30:00Z'));
    expect(await earnedOn('2026-09-10')).toBe(7);
  });

  it('counts a day again when a row of that day is written or removed, and under another time zone', async () => {
    // September 5 (its own day in this file).
    const member = await aMember(at('2026-09-01T18:00:00Z'));
    await anEntry(member, 'earn', 100, at('2026-09-05T18:00:00Z'), await aClaim(member, 'hotel', at('2026-09-05T18:00:00Z')));
    expect(await earnedOn('2026-09-05')).toBe(100);
    expect(await storedDay('2026-09-05')).toMatchObject({ hotel: 1, earned: 100, adjusted: 0 });

    // An entry written into the closed day (a claim in flight at 2:00 AM commits after it) deletes its figures.
    await anEntry(member, 'adjustment', 5, at('2026-09-05T20:00:00Z'));
    expect(await storedDay('2026-09-05')).toBeUndefined();
    expect(dayOf(await loadDashboard(deps, '7', now), 'points', '2026-09-05')).toMatchObject({ earned: 100, adjusted: 5 });

    // Removing the account (its claims and entries go with it) counts its days again.
    await t.database.db.delete(schema.loyaltyAccounts).where(eq(schema.loyaltyAccounts.id, member));
    expect(await storedDay('2026-09-05')).toBeUndefined();
    const removed = await loadDashboard(deps, '7', now);
    expect(dayOf(removed, 'claims', '2026-09-05')).toMatchObject({ hotel: 0 });
    expect(dayOf(removed, 'points', '2026-09-05')).toMatchObject({ earned: 0, adjusted: 0 });

    // Under another time zone the day has other bounds: counted again with them. In New York
    // September 5's day starts three hours earlier, so an entry at 08:00 UTC (1:00 AM in Los
    // Angeles, still September 4 there) is September 5's.
    const other = await aMember(at('2026-09-01T18:00:00Z'));
    await anEntry(other, 'earn', 1000, at('2026-09-05T08:00:00Z'));
    expect(await earnedOn('2026-09-04')).toBe(1000);
    expect(await earnedOn('2026-09-05', 'America/New_York')).toBe(1000);
    expect(await storedDay('2026-09-05')).toMatchObject({ startsAt: at('2026-09-05T06:00:00Z'), endsAt: at('2026-09-06T06:00:00Z') });
    expect(await earnedOn('2026-09-05')).toBe(0);
    expect(await storedDay('2026-09-05')).toMatchObject({ startsAt: at('2026-09-05T09:00:00Z') });
  });

  it('refuses to move a claim or a member to another day (the columns that place them cannot change)', async () => {
    const failure = (query: Promise<unknown>) =>
      query.then(
        () => 'no error',
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
    const member = await aMember(at('2026-08-20T18:00:00Z'));
    const order = await aClaim(member, 'ticket', at('2026-08-20T18:00:00Z'));
    const orders = t.database.db.update(schema.loyaltyOrders);
    const byId = eq(schema.loyaltyOrders.id, order);
    expect(await failure(orders.set({ claimedAt: at('2026-08-21T18:00:00Z') }).where(byId))).toMatch(/cannot change/);
    expect(await failure(orders.set({ sourceType: 'hotel' }).where(byId))).toMatch(/cannot change/);
    const account = eq(schema.loyaltyAccounts.id, member);
    expect(
      await failure(
        t.database.db
          .update(schema.loyaltyAccounts)
          .set({ createdAt: at('2026-08-21T18:00:00Z') })
          .where(account),
      ),
    ).toMatch(/cannot change/);
    // Everything else changes as before: a reversal, a new email.
    await orders.set({ reversedAt: at('2026-08-22T18:00:00Z') }).where(byId);
    await t.database.db.update(schema.loyaltyAccounts).set({ email: 'moved@example.com' }).where(account);
  });

  /** Waits until a session of this database waits for a lock on loyalty_day_figures (polled: under load it takes a while). */
  async function untilSomeoneWaits(tx: Pick<typeof t.database.db, 'execute'>) {
    const waiting = async () => {
      const { rows } = (await tx.execute(
        sql`select count(*)::int as n from pg_locks
            where relation = 'loyalty_day_figures'::regclass and not granted
              and database = (select oid from pg_database where datname = current_database())`,
      )) as unknown as { rows: { n: number }[] };
      return rows[0]!.n;
    };
    for (let i = 0; i < 100 && (await waiting()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await waiting()).toBe(1);
  }

  it.skipIf(testDbKind() === 'pglite')(
    'never keeps figures counted while a change of their day was being made (PostgreSQL: two connections)',
    async () => {
      const member = await aMember(at('2026-09-01T18:00:00Z'));
      await loadDashboard(deps, '7', now);
      expect(await storedDay('2026-09-06')).toBeDefined();
      // A count holds its lock while a change of the day waits for it; the count writes figures
      // without the change (it cannot see it), and the change, once the count commits, deletes them.
      let change: Promise<unknown> | undefined;
      await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`lock table loyalty_day_figures in share row exclusive mode`);
        await tx.delete(schema.loyaltyDayFigures).where(eq(schema.loyaltyDayFigures.day, '2026-09-06'));
        change = anEntry(member, 'earn', 9, at('2026-09-06T18:00:00Z'));
        await untilSomeoneWaits(tx);
        await tx.insert(schema.loyaltyDayFigures).values({
          ...{ tickets: 0, foodAndBeverage: 0, hotel: 0, newMembers: 0, earned: 0, redeemed: 0, reversed: 0, expired: 0, adjusted: 0 },
          day: '2026-09-06',
          startsAt: at('2026-09-06T09:00:00Z'),
          endsAt: at('2026-09-07T09:00:00Z'),
        });
      });
      await change;
      expect(await storedDay('2026-09-06')).toBeUndefined();
      expect(await earnedOn('2026-09-06')).toBe(9);
    },
  );

  it.skipIf(testDbKind() === 'pglite')(
    'counts a day only once a change of it in flight has committed (PostgreSQL: two connections)',
    async () => {
      // October 4 to 10, never read before: October 6 is counted by the Dashboard below, which
      // must wait for the entry written into it by a transaction still open.
      const october = at('2026-10-10T19:00:00Z');
      const member = await aMember(at('2026-10-01T18:00:00Z'));
      let read: Promise<Dashboard> | undefined;
      await t.database.db.transaction(async (tx) => {
        await tx.insert(schema.loyaltyLedger).values({
          accountId: member,
          kind: 'adjustment',
          points: 12,
          reason: 'late',
          causedBy: 'system',
          createdAt: at('2026-10-06T18:00:00Z'),
        });
        read = loadDashboard(deps, '7', october);
        await untilSomeoneWaits(tx);
      });
      expect(dayOf(await read!, 'points', '2026-10-06')).toMatchObject({ adjusted: 12 });
      expect(await storedDay('2026-10-06')).toMatchObject({ adjusted: 12 });
    },
  );

  it('forgets every day when one of the tables is emptied (TRUNCATE)', async () => {
    await loadDashboard(deps, '7', now);
    expect(await storedDay('2026-09-09')).toBeDefined();
    await t.database.executeSql('truncate loyalty_ledger cascade', []);
    expect(await t.database.db.select().from(schema.loyaltyDayFigures)).toEqual([]);
  });
});

describe("guests' lookups and share links", () => {
  const lookup = (body: object, address: string) =>
    t.app.inject({ method: 'POST', url: '/api/login/', payload: body, remoteAddress: address });

  it('counts each lookup today as found, failed or refused by the throttle, and each share link opened, through HTTP', async () => {
    const orderId = '71000001';
    const ticket = aTicket({ barcode: '7100000100000011', credits: 2 });
    expect((await putOrder(t.app, orderId, anOrder([ticket]))).statusCode).toBe(201);
    const before = (await t.app.inject({ method: 'GET', url: `${DASHBOARD_API}?range=today`, headers: viewer.headers })).json<Dashboard>();

    const found = await lookup({ orderId, barcode: ticket.barcode }, '203.0.113.7');
    expect(found.statusCode).toBe(200);
    // The ticket's guest shares it; the shared guest opens the link.
    const shared = await t.app.inject({
      method: 'POST',
      url: '/api/share/',
      payload: {
        orderId,
        barcode: ticket.barcode,
        firstName: 'Rosa',
        lastName: 'Diaz',
        email: 'rosa@example.com',
        phone: '3105550142',
        hashUrl: '',
      },
      headers: { authorization: `Bearer ${found.json<{ ticketShareToken: string }>().ticketShareToken}` },
    });
    expect(shared.statusCode, shared.body).toBe(200);
    const hashUrl = new URL(shared.json<{ directLink: string }>().directLink).pathname.slice(1);
    expect((await lookup({ hashUrl }, '203.0.113.7')).statusCode).toBe(200);
    // Ten misses from one address use up its failures; the eleventh attempt is refused.
    for (let i = 0; i < 10; i += 1)
      expect((await lookup({ orderId: `7200000${i}`, barcode: '12345678' }, '203.0.113.8')).statusCode).toBe(404);
    expect((await lookup({ orderId, barcode: ticket.barcode }, '203.0.113.8')).statusCode).toBe(429);
    expect((await lookup({ hashUrl: 'x'.repeat(86) }, '203.0.113.9')).statusCode).toBe(404);

    const after = (await t.app.inject({ method: 'GET', url: `${DASHBOARD_API}?range=today`, headers: viewer.headers })).json<Dashboard>();
    const [was, is] = [before.lookups[0]!, after.lookups[0]!];
    expect({ found: is.found - was.found, failed: is.failed - was.failed, throttled: is.throttled - was.throttled }).toEqual({
      found: 2,
      failed: 11,
      throttled: 1,
    });
    // The failed link lookup is not an opening.
    expect(after.wallet.days[0]!.shareLinksOpened - before.wallet.days[0]!.shareLinksOpened).toBe(1);
  });

  it('adds the counts of every instance on one database, and writes none twice', async () => {
    const day = '2026-03-03';
    const noon = at('2026-03-03T20:00:00Z');
    const [a, b] = [createActivityCounts(t.database.db, TIME_ZONE), createActivityCounts(t.database.db, TIME_ZONE)];
    for (let i = 0; i < 3; i += 1) a.count('lookup-found', noon);
    b.count('lookup-found', noon);
    b.count('lookup-throttled', noon);
    await Promise.all([a.flush(), b.flush(), a.flush(), b.flush()]);
    await a.flush();
    const figures = await loadDashboard(deps, 'today', at('2026-03-03T21:00:00Z'));
    expect(figures.lookups).toEqual([{ day, found: 4, failed: 0, throttled: 1 }]);
  });
});

describe('stopping the server', () => {
  it('writes the counts it has not written yet', async () => {
    const second = await createTestApp({ database: t.database, env: { PARK_TIMEZONE: TIME_ZONE } });
    second.app.activity.count('lookup-found', at('2026-04-04T20:00:00Z'));
    await second.close();
    const figures = await loadDashboard(deps, 'today', at('2026-04-04T21:00:00Z'));
    expect(figures.lookups).toEqual([{ day: '2026-04-04', found: 1, failed: 0, throttled: 0 }]);
  });
});

describe('GET /api/admin/dashboard/', () => {
  const get = (query: string, as: StaffLogin | null) =>
    t.app.inject({ method: 'GET', url: `${DASHBOARD_API}${query}`, ...(as && { headers: as.headers }) });

  it('needs a session (401) and Dashboard View (403), which a level 1 member holds', async () => {
    expect((await get('', null)).statusCode).toBe(401);
    expect((await get('', lacking)).statusCode).toBe(403);
    const res = await get('', viewer);
    expect(res.statusCode).toBe(200);
    expect(res.json<Dashboard>().claims).toHaveLength(7);
  });

  it('answers each range with one row per operating day up to today', async () => {
    for (const [range, days] of [
      ['today', 1],
      ['30', 30],
      ['90', 90],
    ] as const) {
      const body = (await get(`?range=${range}`, viewer)).json<Dashboard>();
      expect(body.points, range).toHaveLength(days);
      expect(body.wallet.days.at(-1)?.day).toBe(body.to);
      expect(body.deliveries[0]?.day).toBe(body.from);
    }
  });

  it('shows the points liability only to a member who holds Loyalty Export (level 100), not to level 1', async () => {
    expect((await get('?range=today', viewer)).json<Dashboard>().outstanding).toBeNull();
    const exporter = await loginAs(t.app, { accessLevel: 100 });
    expect((await get('?range=today', exporter)).json<Dashboard>().outstanding).toMatchObject({ points: expect.any(Number) });
  });

  it('refuses a malformed query (range[]=1, an unknown key) with a 400, writing nothing', async () => {
    const count = async () => (await t.database.executeSql('select count(*)::int as n from loyalty_day_figures', [])).rows[0];
    const before = await count();
    for (const query of ['?range[]=1', '?range=7&extra=1']) {
      const res = await get(query, viewer);
      expect(res.statusCode, res.body).toBe(400);
    }
    expect(await count()).toEqual(before);
  });

  it('refuses a range it does not offer with a 400 naming the field', async () => {
    const res = await get('?range=365', viewer);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('range must be today, 7, 30 or 90');
  });
});
