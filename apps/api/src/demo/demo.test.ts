import { readFile } from 'node:fs/promises';
import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DASHBOARD_API, type Dashboard } from '@boardwalk/contract/dashboard';
import { deliveries } from '@boardwalk/contract/staff-operations-tabs';
import { STAFF_LOYALTY_API, type StaffAccount } from '@boardwalk/contract/staff-loyalty';
import type { Db } from '@boardwalk/db/client';
import * as schema from '@boardwalk/db/schema';
import { countDemoTables, snapshotFeedTables } from '../../test-support/integration-tables.fixtures.ts';
import { loginAs } from '../../test-support/staff.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../test-support/test-app.ts';
import { operatingDayBounds, operatingDayStart } from '../platform/park-time.ts';
import { reportApplePushes } from '../staff/deliveries/deliveries.service.ts';
import { DEMO_SHARE_LINKS, loadDemoData, shiftDemoDates, shiftUsageToToday } from './demo.service.ts';
import { historyDepsOf } from './demo-history.service.ts';
import { DEMO_TIERS, FEATURED_MEMBERS } from './demo-plan.service.ts';

/** The club's rows the demo history writes, its member cards' too, counted (its lookup counts apart). */
async function countClub(db: Db) {
  const tables = {
    accounts: schema.loyaltyAccounts,
    claims: schema.loyaltyOrders,
    lots: schema.loyaltyLots,
    redemptions: schema.loyaltyRedemptions,
    tiers: schema.loyaltyTiers,
    rewards: schema.loyaltyRewards,
    webhookEndpoints: schema.webhookEndpoints,
    walletPasses: schema.walletPasses,
    appleDevices: schema.appleDeviceRegistrations,
    googleCallbacks: schema.googleWalletCallbacks,
    deliveries: schema.deliveries,
  };
  const counts: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) counts[name] = (await db.select({ n: count() }).from(table))[0]!.n;
  counts.ledger = (await db.select({ n: count() }).from(schema.loyaltyLedger))[0]!.n;
  return counts;
}

/**
 * Reads with the clock at the last moment of the demo's today (DEMO_DAY): the demo's history is
 * dated before it, and the real date moves on (the Dashboard's days, the tiers' rolling year).
 */
async function onDemoDay<T>(read: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(operatingDayBounds(DEMO_DAY, 'America/Los_Angeles').end.getTime() - 1);
  try {
    return await read();
  } finally {
    vi.useRealTimers();
  }
}

/** The Dashboard's 90 days up to the demo's today, as an administrator sees it (the outstanding points too). */
async function dashboard90(app: TestApp['app']) {
  const viewer = await loginAs(app, { accessLevel: 1000 });
  const res = await onDemoDay(() => app.inject({ method: 'GET', url: `${DASHBOARD_API}?range=90`, headers: viewer.headers }));
  expect(res.statusCode).toBe(200);
  return res.json<Dashboard>();
}

let t: TestApp;
let ip = 0;
const login = (body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/login/', payload: body, remoteAddress: `10.9.0.${++ip}` });

/** The demo's today in these tests (test-app.ts's DEMO_TODAY). */
const DEMO_DAY = '2026-11-21';
beforeAll(async () => {
  // Without workers: they would expire by the real clock the points the demo's history left
  // expiring after its today (DEMO_TODAY), and the Dashboard read on that day shows them.
  t = await createTestApp({ env: { DEMO_DATA: 'true', DELIVERY_WORKERS: 'false' } });
});
afterAll(() => t.close());

describe('demo data', () => {
  it('is loaded into an empty database at start', async () => {
    const counts = await countDemoTables(t.database.db);
    // The README's records, and the purchases of the 90 days of club history (DEMO_TODAY fixed by the tests).
    expect(counts).toMatchObject({
      orders: 10 + 64,
      tickets: 11 + 89,
      checks: 4 + 83,
      reservations: 3 + 18,
      attractionUsage: 5,
      registrations: 0,
      ticketShares: 2,
      passCustomizations: 3,
      passCustomizationCategories: 3,
      testPasses: 1,
      walletExceptions: 1,
      walletItemExclusions: 1,
      wristbandMerchPackIds: 1,
    });
  });

  it('answers every order of the README table as described', async () => {
    const readme = await readFile(new URL('../../../../README.md', import.meta.url), 'utf8');
    const rows = [...readme.matchAll(/^\| (\d+) \| (\d+) \| (.+) \|$/gm)].map((m) => [m[1]!, m[2]!] as const);
    expect(rows).toHaveLength(11);
    const pass: Record<string, Record<string, unknown>> = {};
    for (const [orderId, barcode] of rows) {
      const res = await login({ orderId, barcode });
      expect(res.statusCode, `${orderId}/${barcode}`).toBe(200);
      expect(res.json()).toMatchObject({ orderId, barcode });
      pass[orderId] = res.json();
    }
    // 10000001: season passholder with a name (no registration), no photo yet.
    expect(pass['10000001']).toMatchObject({
      isPassholder: true,
      firstName: 'Ana',
      lastName: 'Lopez',
      skipImage: false,
      excluded: null,
      backgroundColor: '#0b3d91',
    });
    // 10000002: Stored Value Card with credits, shared with one guest (the stopped share is not listed).
    expect(pass['10000002']).toMatchObject({ category: 'Stored Value Card', credits: 42.5 });
    expect(pass['10000002']!.ticketShares).toEqual([expect.objectContaining({ firstName: 'Rosa', lastName: 'Diaz' })]);
    // 10000003: unregistered day ticket in the Day Ticket colours.
    expect(pass['10000003']).toMatchObject({
      firstName: null,
      lastName: null,
      skipRegistration: false,
      product: 'Day Ticket',
      backgroundColor: '#7b2cbf',
      foregroundColor: '#ffd60a',
    });
    // 10000004: excluded, with the exclusion's own message.
    expect(pass['10000004']!.excluded).toEqual(expect.stringContaining('Partner vouchers cannot be added'));
    // 10000005: refunded.
    expect(pass['10000005']).toMatchObject({ refunded: true, isRedeemed: false, excluded: null });
    // 10000006: NFC barcode, not excluded.
    expect(pass['10000006']).toMatchObject({ barcode: '3400000000000017', excluded: null });
    // 10000007: wristband.
    expect(pass['10000007']).toMatchObject({ isWristband: true, isRedeemed: false, refunded: false });
    // 10000008: wallet exception: no registration although the holder has no name.
    expect(pass['10000008']).toMatchObject({ firstName: null, skipRegistration: true, skipImage: true });
    // 10000009: redeemed.
    expect(pass['10000009']).toMatchObject({ isRedeemed: true, redeemed: '2026-11-15T18:12:00.000Z' });
    // 10000010: a Gold season pass that needs a visit reservation (the demo's entry windows).
    expect(pass['10000010']).toMatchObject({ isPassholder: true, product: 'Gold Season Pass' });
    const visits = await t.app.inject({
      method: 'POST',
      url: '/api/visits/',
      payload: { orderId: '10000010', barcode: '2400000000000097' },
      remoteAddress: `10.9.0.${++ip}`,
    });
    expect(visits.json()).toMatchObject({ required: true });
    // 0 / 99000001: the test pass.
    expect(pass['0']).toMatchObject({ orderId: '0', barcode: '99000001', firstName: 'Test', product: 'Test Season Pass' });
    // Only the wristband ticket is a wristband, only the excluded one is excluded.
    for (const [orderId, p] of Object.entries(pass)) {
      if (orderId !== '10000007') expect(p.isWristband, orderId).toBe(false);
      if (orderId !== '10000004') expect(p.excluded, orderId).toBeNull();
    }
  });

  it('has a working share link and a stopped one (the README lists both)', async () => {
    const readme = await readFile(new URL('../../../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`http://localhost:3000/${DEMO_SHARE_LINKS.active}`);
    expect(readme).toContain(`http://localhost:3000/${DEMO_SHARE_LINKS.stopped}`);
    for (const link of Object.values(DEMO_SHARE_LINKS)) expect(link).toMatch(/^[A-Za-z0-9_-]{88}$/);

    const shared = await login({ hashUrl: DEMO_SHARE_LINKS.active });
    expect(shared.statusCode).toBe(200);
    expect(shared.json()).toMatchObject({
      orderId: '',
      barcode: '3500000000000028',
      shareId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sharedWith: { firstName: 'Rosa' },
    });
    const stopped = await login({ hashUrl: DEMO_SHARE_LINKS.stopped });
    expect(stopped.statusCode).toBe(410);
  });

  it('answers what it holds through the integration API, shares included', async () => {
    const held = (await t.app.inject({ method: 'GET', url: '/api/integrations/orders/10000002', headers: integrationAuth })).json();
    expect(held.tickets[0].shares).toEqual([
      {
        shareId: expect.any(String),
        firstName: 'Rosa',
        lastName: 'Diaz',
        email: 'rosa.diaz@example.com',
        phone: '3105550142',
        createdAt: expect.any(String),
      },
    ]);
    expect(JSON.stringify(held)).not.toContain('hash');
  });

  it("has today's usage for the stored value card, none of it in the future", async () => {
    const usage = (await snapshotFeedTables(t.database.db)).attractionUsage;
    const start = operatingDayStart(new Date(), 'America/Los_Angeles').getTime();
    expect(usage).toHaveLength(5);
    for (const event of usage) {
      expect(event.barcode).toBe('3500000000000028');
      expect(event.timestamp.getTime()).toBeGreaterThanOrEqual(start);
      expect(event.timestamp.getTime()).toBeLessThanOrEqual(Date.now());
    }
  });

  it('is not loaded again on the next start', async () => {
    const before = await countDemoTables(t.database.db);
    // Without workers (so in the other tests that start a demo): the loading is the start's, and
    // an app with workers closed here waited about 10 s for its webhooks job in hand (the demo's
    // test message to its endpoint).
    const second = await createTestApp({ database: t.database, env: { DEMO_DATA: 'true', DELIVERY_WORKERS: 'false' } });
    await second.app.close();
    expect(await countDemoTables(t.database.db)).toEqual(before);
    const history = historyDepsOf(t.app);
    expect(await loadDemoData({ db: t.database.db, changes: t.app.jobs, parkTimezone: 'America/Los_Angeles', history })).toBeNull();
  });

  it('places its dates around today by default: every order inside the 90-day claim window, none in the future', async () => {
    const today = createTestApp({ env: { DEMO_DATA: 'true', DEMO_TODAY: '', DELIVERY_WORKERS: 'false' } });
    const fresh = await today;
    try {
      const { orders, tickets } = await snapshotFeedTables(fresh.database.db);
      const now = Date.now();
      for (const order of orders) {
        expect(order.orderDate.getTime(), order.orderId).toBeLessThanOrEqual(now);
        expect(order.orderDate.getTime(), order.orderId).toBeGreaterThan(now - 90 * 24 * 3600_000);
      }
      for (const ticket of tickets) if (ticket.expires) expect(ticket.expires.getTime()).toBeGreaterThan(now);
    } finally {
      await fresh.close();
    }
  }, 60_000); // a fresh demo load, with its 90 days of history

  it('moves its dates by whole days at the same park clock time, across a daylight-saving change', () => {
    const data = {
      orders: { '1': { orderDate: '2026-10-02T17:45:00-07:00', tickets: [{ expires: '2030-12-31T23:59:59-08:00', redeemed: null }] } },
      checks: { c: { orderDate: '2026-11-14T12:30:00-08:00' } },
      reservations: { r: { arrival: '2026-12-01', departure: '2026-12-03' } },
      usage: [],
    };
    const later = shiftDemoDates(data, '2027-01-10', 'America/Los_Angeles') as unknown as typeof data;
    // 50 days later: 17:45 in Los Angeles, now on standard time (-08:00).
    expect(Date.parse(later.orders['1']!.orderDate)).toBe(Date.parse('2026-11-21T17:45:00-08:00'));
    expect(Date.parse(later.orders['1']!.tickets[0]!.expires)).toBe(Date.parse('2031-02-19T23:59:59-08:00'));
    expect(later.orders['1']!.tickets[0]!.redeemed).toBeNull();
    expect(Date.parse(later.checks.c!.orderDate)).toBe(Date.parse('2027-01-03T12:30:00-08:00'));
    expect(later.reservations.r).toEqual({ arrival: '2027-01-20', departure: '2027-01-22' });
    expect(shiftDemoDates(data, '2026-11-21', 'America/Los_Angeles')).toEqual(data);
  });

  it('is not loaded with DEMO_DATA=false', async () => {
    const off = await createTestApp({ env: { DEMO_DATA: 'false' } });
    try {
      const counts = await countDemoTables(off.database.db);
      expect(Object.values(counts).every((n) => n === 0)).toBe(true);
      expect(Object.values(await countClub(off.database.db)).every((n) => n === 0)).toBe(true);
    } finally {
      await off.close();
    }
  });

  it('leaves the club empty with DEMO_HISTORY=false, the rest of the demo loaded', async () => {
    const bare = await createTestApp({ env: { DEMO_DATA: 'true', DEMO_HISTORY: 'false' } });
    try {
      const counts = await countDemoTables(bare.database.db);
      expect(counts.orders).toBeGreaterThan(0);
      expect(Object.values(await countClub(bare.database.db)).every((n) => n === 0)).toBe(true);
    } finally {
      await bare.close();
    }
  });
});

describe('demo history', () => {
  it('holds 90 days of the club: members in every tier, claims, redemptions, expired lots, lookups and a webhook endpoint', async () => {
    const club = await countClub(t.database.db);
    expect(club).toMatchObject({ tiers: 3, rewards: 4, webhookEndpoints: 1 });
    expect((await t.database.db.select({ n: count() }).from(schema.activityCounts))[0]!.n).toBeGreaterThan(200);
    expect(club.accounts).toBeGreaterThan(60);
    expect(club.claims).toBeGreaterThan(120);
    expect(club.redemptions).toBeGreaterThan(20);
    const expired = await t.database.db
      .select({ n: count() })
      .from(schema.loyaltyLedger)
      .where(sql`kind = 'expired'`);
    expect(expired[0]!.n).toBeGreaterThan(0);
    // Members who visited on three days of the challenge's completed it, at the claim's time.
    const completed = await t.database.db.select({ n: count() }).from(schema.loyaltyChallengeCompletions);
    expect(completed[0]!.n).toBeGreaterThan(0);
  });

  it('answers non-empty Dashboard series over 90 days', async () => {
    const board = await dashboard90(t.app);
    expect(board.claims).toHaveLength(90);
    const days = (series: Record<string, unknown>[], key: string) => series.filter((d) => Number(d[key]) > 0).length;
    // Claims on most days, new members, points earned, redeemed and expired, lookups every day.
    expect(days(board.claims, 'tickets') + days(board.claims, 'foodAndBeverage')).toBeGreaterThan(60);
    expect(days(board.claims, 'newMembers')).toBeGreaterThan(30);
    expect(days(board.points, 'earned')).toBeGreaterThan(60);
    expect(days(board.points, 'redeemed')).toBeGreaterThan(10);
    expect(days(board.points, 'expired')).toBeGreaterThan(3);
    expect(days(board.lookups, 'found')).toBeGreaterThanOrEqual(84);
    expect(days(board.wallet.days, 'shareLinksOpened')).toBeGreaterThan(30);
    // Members in every tier, and points expiring within 30 days.
    for (const tier of DEMO_TIERS) expect(board.tiers.find((row) => row.tier === tier.name)?.members, tier.name).toBeGreaterThan(0);
    expect(board.outstanding?.points).toBeGreaterThan(0);
    expect(board.outstanding?.expiring?.within30Days).toBeGreaterThan(0);
  });

  it('has member cards added to Apple and Google wallets, and their deliveries on most days: pushed and fetched, updated, dead', async () => {
    const board = await dashboard90(t.app);
    const days = (series: Record<string, unknown>[], key: string) => series.filter((d) => Number(d[key]) > 0).length;
    expect(days(board.wallet.days, 'applePasses')).toBeGreaterThan(15);
    expect(days(board.wallet.days, 'googleObjects')).toBeGreaterThan(5);
    expect(board.wallet.activeDevices).toBeGreaterThan(30);
    expect(days(board.deliveries, 'sent')).toBeGreaterThan(45);
    expect(days(board.deliveries, 'fetchedPushes')).toBeGreaterThan(30);
    expect(days(board.deliveries, 'dead')).toBeGreaterThan(3);
    for (const day of board.deliveries) expect(day.fetchP50Seconds === null, day.day).toBe(day.fetchedPushes === 0);
  });

  it('fills the Deliveries tab: the deliveries in each state, the dead ones listed with their error, the pushes fetched', async () => {
    const staff = await loginAs(t.app, { accessLevel: 1000 });
    const get = async <T>(path: string) => {
      const res = await t.app.inject({ method: 'GET', url: `${deliveries.api}${path}`, headers: staff.headers });
      expect(res.statusCode, path).toBe(200);
      return res.json<T>();
    };
    const counts = await get<Record<string, number>>('counts');
    expect(counts).toMatchObject({ queued: 0, retrying: 0 });
    expect(counts.fetched).toBeGreaterThan(80);
    expect(counts.sent).toBeGreaterThan(30);
    expect(counts.skipped).toBeGreaterThan(0);
    // The failed ones, the list's default: an old iPad's pushes, refused by APNs at every try.
    const dead = await get<Record<string, unknown>[]>('');
    expect(dead).toHaveLength(counts.dead!);
    expect(dead.length).toBeGreaterThan(3);
    for (const row of dead)
      expect(row).toMatchObject({
        deliveryTarget: 'apple',
        deliveryState: 'dead',
        deliveryAttempts: t.app.config.deliveries.retryLimit + 1,
        deliveryLastError: 'APNs answered 400 (BadDeviceToken)',
      });
    for (const row of await get<{ deliverySent: string; deliveryFetched: string }[]>('?filter=fetched'))
      expect(Date.parse(row.deliveryFetched)).toBeGreaterThanOrEqual(Date.parse(row.deliverySent));
    // The tab's last 24 hours, as of the end of the day with the most pushes fetched.
    const busiest = (await dashboard90(t.app)).deliveries.reduce((a, b) => (b.fetchedPushes > a.fetchedPushes ? b : a));
    const pushes = await reportApplePushes(t.database.db, operatingDayBounds(busiest.day, 'America/Los_Angeles').end);
    expect(pushes.fetched).toBeGreaterThanOrEqual(busiest.fetchedPushes);
    expect(pushes.sent).toBeGreaterThanOrEqual(pushes.fetched);
    expect(pushes.p50Seconds).not.toBeNull();
  });

  it('lists the README members in the Loyalty tab, each in their tier, with their member card', async () => {
    const readme = await readFile(new URL('../../../../README.md', import.meta.url), 'utf8');
    const rows = [...readme.matchAll(/^\| (\S+@example\.com) \| (\d{16}) \| (.+?) \|$/gm)].map((m) => ({
      email: m[1]!,
      number: m[2]!,
      tier: m[3]!,
    }));
    expect(rows.map((row) => row.tier)).toEqual(['Gold', 'Silver', 'Bronze', 'none']);
    const staff = await loginAs(t.app, { accessLevel: 1000 });
    const listed = [];
    const cards = [];
    for (const row of rows) {
      const found = await t.app.inject({
        method: 'POST',
        url: `${STAFF_LOYALTY_API}search/`,
        headers: staff.headers,
        payload: { searchTerm: row.email },
      });
      expect(found.statusCode, row.email).toBe(200);
      const [result] = found.json<{ STRACCOUNTID: string; userID: string }[]>();
      const account = (
        await onDemoDay(() =>
          t.app.inject({ method: 'GET', url: `${STAFF_LOYALTY_API}account/${result!.userID}/`, headers: staff.headers }),
        )
      ).json<StaffAccount>();
      listed.push({ email: row.email, number: result!.STRACCOUNTID, tier: account.tier ?? 'none' });
      cards.push(account.card);
    }
    expect(listed).toEqual(rows);
    // Their member cards: Maya's on three Apple devices, Leo's saved to Google Wallet, Ivy's on one device, Sam's nowhere.
    expect(cards).toEqual(
      FEATURED_MEMBERS.map(({ card }) => ({
        appleDevices: Array.isArray(card) ? card.length : 0,
        google: card === 'google' ? 'saved' : 'unknown',
      })),
    );
  });

  it('is the same on two fresh databases (deterministic)', async () => {
    // Without workers, as above: what is compared is what the start loaded.
    const again = await createTestApp({ env: { DEMO_DATA: 'true', DELIVERY_WORKERS: 'false' } });
    try {
      expect(await countDemoTables(again.database.db)).toEqual(await countDemoTables(t.database.db));
      expect(await countClub(again.database.db)).toEqual(await countClub(t.database.db));
      const [a, b] = [await dashboard90(t.app), await dashboard90(again.app)];
      // Up to the demo's today: the other tests' lookups come after it.
      const same = (board: Dashboard) => ({
        claims: board.claims,
        points: board.points,
        tiers: board.tiers,
        lookups: board.lookups,
        wallets: board.wallet.days.map(({ day, applePasses, googleObjects }) => ({ day, applePasses, googleObjects })),
        activeDevices: board.wallet.activeDevices,
        deliveries: board.deliveries,
      });
      expect(same(b)).toEqual(same(a));
    } finally {
      await again.close();
    }
  }, 60_000); // a fresh demo load, with its 90 days of history
});

describe('operating day', () => {
  it('starts at 2:00 AM in the park time zone, across daylight saving changes', () => {
    const la = 'America/Los_Angeles';
    expect(operatingDayStart(new Date('2026-11-21T20:00:00Z'), la).toISOString()).toBe('2026-11-21T10:00:00.000Z');
    // 1:30 AM local still belongs to the day before.
    expect(operatingDayStart(new Date('2026-11-21T09:30:00Z'), la).toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(operatingDayStart(new Date('2026-07-04T20:00:00Z'), la).toISOString()).toBe('2026-07-04T09:00:00.000Z');
    expect(operatingDayStart(new Date('2026-11-01T12:00:00Z'), la).toISOString()).toBe('2026-11-01T10:00:00.000Z');
    expect(operatingDayStart(new Date('2026-11-21T20:00:00Z'), 'Asia/Tokyo').toISOString()).toBe('2026-11-21T17:00:00.000Z');
  });

  it('moves the reference day usage onto today, keeping clock times once they have passed', () => {
    const events = [
      { timestamp: '2026-01-01T10:05:12-08:00', attraction: 'A' },
      { timestamp: '2026-01-01T14:30:09-08:00', attraction: 'B' },
    ];
    const evening = shiftUsageToToday(events, new Date('2026-11-21T23:00:00-08:00'), 'America/Los_Angeles') as { timestamp: string }[];
    expect(evening.map((e) => e.timestamp)).toEqual(['2026-11-21T18:05:12.000Z', '2026-11-21T22:30:09.000Z']);
    // At 9:00 AM neither has happened yet: spread over 2:00 to 9:00, in order.
    const morning = shiftUsageToToday(events, new Date('2026-11-21T09:00:00-08:00'), 'America/Los_Angeles') as { timestamp: string }[];
    const times = morning.map((e) => Date.parse(e.timestamp));
    expect(times[0]).toBeGreaterThanOrEqual(Date.parse('2026-11-21T02:00:00-08:00'));
    expect(times[0]).toBeLessThan(times[1]!);
    expect(times[1]).toBeLessThanOrEqual(Date.parse('2026-11-21T09:00:00-08:00'));
  });
});
