// Challenges: the tab's rules; a goal of distinct days (claimed purchases by their own day, and
// attraction visits on a claimed ticket), distinct food outlets or hotel nights within the
// dates; the bonus once on completion, whatever runs and workers meet it; taken back when a
// reversal leaves the goal unmet (the campaign's entries sum to zero) and earned again after;
// the budget cut; the progress on the statement.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOYALTY_STATEMENT_TOKEN, type Statement } from '@boardwalk/contract/loyalty-statement';
import { loyaltyAccounts, loyaltyCampaigns, loyaltyChallengeCompletions, loyaltyLedger } from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { eventsOfType } from '../../test-support/events.ts';
import { loginAs, type StaffLogin } from '../../test-support/staff.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../test-support/test-app.ts';
import { operatingDay, operatingDayBounds, shiftDate } from '../platform/park-time.ts';
import { publishCardsChangedByTime } from './loyalty-expiry.service.ts';
import { insertAccount } from './loyalty.repo.ts';
import { claimHotel, claimPurchase, claimTickets } from './loyalty-claims.service.ts';
import { CHALLENGE_TAKEN_BACK, settleChallenges } from './loyalty-challenges.service.ts';
import { reverseInvalidClaims } from './loyalty-reversals.service.ts';
import { loyaltyCoreOf, type LoyaltyCore } from './loyalty.service.ts';

const TZ = 'America/Los_Angeles';
const API = '/api/admin/loyalty-campaigns/';
const staffClaim = { kind: 'staff', username: 'challenge.tester' } as const;
const today = () => operatingDay(new Date(), TZ);
/** Noon in the park `days` from today (negative: before). */
const noonOn = (days: number) => {
  const day = shiftDate(today(), days);
  const noonUtc = new Date(`${day}T12:00:00Z`);
  const local = new Date(noonUtc.toLocaleString('en-US', { timeZone: TZ }));
  return new Date(noonUtc.getTime() + (noonUtc.getTime() - local.getTime()));
};

let t: TestApp;
/** A second instance on the same database: a second worker. */
let second: TestApp;
let core: LoyaltyCore;
let admin: StaffLogin;

beforeAll(async () => {
  const env = { DELIVERY_WORKERS: 'false', PARK_TIMEZONE: TZ, LOG_LEVEL: 'error' };
  t = await createTestApp({ env });
  second = await createTestApp({ database: t.database, env });
  core = loyaltyCoreOf(t.app);
  admin = await loginAs(t.app, { accessLevel: 100 });
});
afterAll(async () => {
  await second.close();
  await t.close();
});
beforeEach(async () => {
  await t.database.db.delete(loyaltyAccounts);
  await t.database.db.delete(loyaltyCampaigns);
});

/** A challenge through the tab: 3 days within the last week and the next, 300 points, unless told. */
async function challenge(fields: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: API,
    headers: admin.headers,
    payload: {
      loyaltyCampaignName: `Challenge ${crypto.randomUUID().slice(0, 6)}`,
      loyaltyCampaignKind: 'challenge',
      loyaltyCampaignGoal: 'days',
      loyaltyCampaignGoalCount: 3,
      loyaltyCampaignBonusPoints: 300,
      loyaltyCampaignFrom: shiftDate(today(), -7),
      loyaltyCampaignTo: shiftDate(today(), 7),
      loyaltyCampaignTickets: true,
      loyaltyCampaignFoodAndBeverage: true,
      loyaltyCampaignHotel: true,
      loyaltyCampaignActive: true,
      ...fields,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ loyaltyCampaignID: string; loyaltyCampaignName: string }>();
}

let serial = 0;
async function member() {
  const n = ++serial;
  const email = `challenger${n}@example.com`;
  const accountId = (await insertAccount(t.database.db, {
    email,
    firstName: 'Chal',
    lastName: `Lenger ${n}`,
    createdBy: 'staff',
    createdAt: new Date(),
  }))!;
  return { accountId, email };
}

let orders = 0;
/** A ticket order of one ticket bought `days` from today, claimed by the member: its barcode. */
async function claimTicketOn(who: { accountId: string; email: string }, days: number) {
  const orderId = String(65_000_000 + ++orders);
  const barcode = `${orderId}00000001`;
  await putOrder(t.app, orderId, anOrder([{ barcode, price: 10 }], { orderDate: noonOn(days).toISOString() }));
  await claimTickets(core, { ...who, orderId }, staffClaim);
  return { orderId, barcode };
}

async function claimCheck(who: { accountId: string; email: string }, terminalId: string, days = 0) {
  const checkNumber = `CH-${++orders}`;
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/integrations/checks/${checkNumber}`,
    headers: integrationAuth,
    payload: { checkNumber, orderDate: noonOn(days).toISOString(), terminalId, total: 10 },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  await claimPurchase(core, { ...who, checkNumber }, staffClaim);
}

async function claimStay(who: { accountId: string; email: string }, arrival: number, departure: number) {
  const reservationNumber = `RS-${++orders}`;
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/integrations/reservations/${reservationNumber}`,
    headers: integrationAuth,
    payload: { arrival: shiftDate(today(), arrival), departure: shiftDate(today(), departure), total: 100 },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  await claimHotel(core, { ...who, reservationNumber }, staffClaim);
}

const settle = (accountId: string, app: TestApp = t) => settleChallenges(loyaltyCoreOf(app.app), accountId, new Date());

const bonusesOf = (accountId: string) =>
  t.database.db
    .select({ kind: loyaltyLedger.kind, points: loyaltyLedger.points, reason: loyaltyLedger.reason, campaignId: loyaltyLedger.campaignId })
    .from(loyaltyLedger)
    .where(sql`${loyaltyLedger.accountId} = ${accountId} and ${loyaltyLedger.campaignId} is not null`)
    .orderBy(loyaltyLedger.id);

async function statementOf(accountId: string): Promise<Statement> {
  const token = t.app.keys.signToken(LOYALTY_STATEMENT_TOKEN.purpose, accountId, 600);
  const res = await t.app.inject({ method: 'GET', url: '/api/loyalty/statement', headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Statement>();
}

describe('the tab', () => {
  it.each([
    [{ loyaltyCampaignGoal: null }, 'loyaltyCampaignGoal', 'A challenge needs its Challenge Goal'],
    [{ loyaltyCampaignGoalCount: null }, 'loyaltyCampaignGoalCount', 'A challenge needs its Goal Count'],
    [{ loyaltyCampaignBonusPoints: null }, 'loyaltyCampaignBonusPoints', 'A challenge campaign needs its Bonus Points'],
    [{ loyaltyCampaignGoal: 'laps' }, 'loyaltyCampaignGoal', 'Challenge Goal must be one of Days Visited, Food Outlets, Hotel Nights'],
  ])('refuses %j with a message on its field, and creates nothing', async (fields, path, message) => {
    const res = await t.app.inject({
      method: 'POST',
      url: API,
      headers: admin.headers,
      payload: {
        loyaltyCampaignName: 'Broken',
        loyaltyCampaignKind: 'challenge',
        loyaltyCampaignGoal: 'days',
        loyaltyCampaignGoalCount: 3,
        loyaltyCampaignBonusPoints: 300,
        loyaltyCampaignFrom: today(),
        loyaltyCampaignTo: today(),
        ...fields,
      },
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain(message);
    expect(JSON.stringify(res.json())).toContain(path);
    expect(await t.database.db.select().from(loyaltyCampaigns)).toEqual([]);
  });
});

describe('the tab clears', () => {
  it("another kind's Challenge Goal and Goal Count", async () => {
    const bonus = await challenge({ loyaltyCampaignKind: 'bonus' });
    expect(bonus).toMatchObject({ loyaltyCampaignGoal: null, loyaltyCampaignGoalCount: null });
    const c = await challenge();
    const changed = await t.app.inject({
      method: 'PUT',
      url: `${API}${c.loyaltyCampaignID}`,
      headers: admin.headers,
      payload: { loyaltyCampaignKind: 'bonus' },
    });
    expect(changed.json()).toMatchObject({ loyaltyCampaignKind: 'bonus', loyaltyCampaignGoal: null, loyaltyCampaignGoalCount: null });
  });
});

describe('days visited', () => {
  it('counts the distinct days of claimed purchases within the dates, by their own day; completes once, on the statement', async () => {
    const c = await challenge();
    const who = await member();
    await claimTicketOn(who, -1);
    await claimTicketOn(who, -1);
    // Bought before the challenge's dates: not counted, though claimed today.
    await claimTicketOn(who, -9);
    await claimTicketOn(who, 0);
    // Each claim on a challenge's day queues the member's settling (a member with no card too).
    const { rows } = await t.database.executeSql(`select count(*)::int as n from pgboss.job where name = $1 and data->>'accountId' = $2`, [
      'loyalty-challenges',
      who.accountId,
    ]);
    expect((rows[0] as { n: number }).n).toBeGreaterThan(0);
    expect(await settle(who.accountId)).toEqual({ completed: 0, takenBack: 0 });
    expect((await statementOf(who.accountId)).challenges).toEqual([
      {
        name: c.loyaltyCampaignName,
        goal: 'days',
        goalCount: 3,
        progress: 2,
        bonusPoints: 300,
        completed: false,
        validTo: shiftDate(today(), 7),
      },
    ]);
    await claimTicketOn(who, -3);
    expect(await settle(who.accountId)).toEqual({ completed: 1, takenBack: 0 });
    expect(await settle(who.accountId)).toEqual({ completed: 0, takenBack: 0 });
    expect(await bonusesOf(who.accountId)).toEqual([
      { kind: 'bonus', points: 300, reason: c.loyaltyCampaignName, campaignId: c.loyaltyCampaignID },
    ]);
    const statement = await statementOf(who.accountId);
    expect(statement.challenges[0]).toMatchObject({ progress: 3, completed: true, bonusPoints: 300 });
    // The tills' member lookup and the Loyalty tab's account name it too.
    const [account] = await t.database.db.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.id, who.accountId));
    const till = await t.app.inject({
      method: 'GET',
      url: `/api/integrations/loyalty/members/${account!.memberNumber}`,
      headers: integrationAuth,
    });
    const named = {
      campaignId: c.loyaltyCampaignID,
      name: c.loyaltyCampaignName,
      goal: 'days',
      goalCount: 3,
      progress: 3,
      completed: true,
    };
    expect(till.json().challenges).toEqual([expect.objectContaining(named)]);
    const staffView = await t.app.inject({ method: 'GET', url: `/api/admin/loyalty/account/${who.accountId}/`, headers: admin.headers });
    expect(staffView.statusCode, staffView.body).toBe(200);
    expect(staffView.json().challenges).toEqual([expect.objectContaining(named)]);
    expect(statement.ledger.entries[0]).toMatchObject({ kind: 'bonus', points: 300, campaign: c.loyaltyCampaignName, purchase: null });
  });

  it("counts the days a claimed ticket was used at an attraction; the gate's feed publishes the visit for the queue", async () => {
    await challenge({ loyaltyCampaignGoalCount: 3 });
    const who = await member();
    const { barcode } = await claimTicketOn(who, 0);
    const visit = (days: number, attraction: string) => ({
      barcode,
      attraction,
      location: 'North Pier',
      timestamp: noonOn(days).toISOString(),
    });
    // A visit on an unclaimed ticket counts for nobody.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/usage',
      headers: integrationAuth,
      payload: {
        events: [
          visit(-2, 'Ferris Wheel'),
          visit(-2, 'Carousel'),
          visit(-4, 'Ferris Wheel'),
          { ...visit(-5, 'Carousel'), barcode: '9999000000001' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await t.database.executeSql(`select data->>'barcode' as barcode from pgboss.job where name = $1 order by 1`, [
      'loyalty-challenges',
    ]);
    expect(rows.map((r) => (r as { barcode: string | null }).barcode).filter(Boolean)).toEqual(
      expect.arrayContaining(['9999000000001', barcode]),
    );
    expect(await settle(who.accountId)).toEqual({ completed: 1, takenBack: 0 });
    expect((await bonusesOf(who.accountId)).map((b) => b.points)).toEqual([300]);
  });

  it('keeps a completion when staff later raise the goal or retention drops visits: only a reversal weighs it again', async () => {
    const c = await challenge({ loyaltyCampaignGoalCount: 2 });
    const who = await member();
    await claimTicketOn(who, 0);
    await claimTicketOn(who, -1);
    expect(await settle(who.accountId)).toEqual({ completed: 1, takenBack: 0 });
    const raised = await t.app.inject({
      method: 'PUT',
      url: `${API}${c.loyaltyCampaignID}`,
      headers: admin.headers,
      payload: { loyaltyCampaignGoalCount: 5 },
    });
    expect(raised.statusCode, raised.body).toBe(200);
    expect(await settle(who.accountId)).toEqual({ completed: 0, takenBack: 0 });
    expect((await bonusesOf(who.accountId)).map((b) => b.points)).toEqual([300]);
  });

  it('a claim bought before the dates, whose visits may come within them, still queues the settling', async () => {
    await challenge({ loyaltyCampaignFrom: shiftDate(today(), -3), loyaltyCampaignTo: shiftDate(today(), 3) });
    const who = await member();
    await claimTicketOn(who, -6);
    const { rows } = await t.database.executeSql(`select count(*)::int as n from pgboss.job where name = $1 and data->>'accountId' = $2`, [
      'loyalty-challenges',
      who.accountId,
    ]);
    expect((rows[0] as { n: number }).n).toBeGreaterThan(0);
  });

  it('republishes every member card when a challenge starts or ends (the hourly pass over time)', async () => {
    await challenge({ loyaltyCampaignFrom: shiftDate(today(), 1), loyaltyCampaignTo: shiftDate(today(), 1) });
    const republishes = async () =>
      (
        (await t.database.executeSql(`select count(*)::int as n from pgboss.job where name = 'member-cards-republish'`, [])).rows[0] as {
          n: number;
        }
      ).n;
    const dayStart = (days: number) => operatingDayBounds(shiftDate(today(), days), TZ).start.getTime();
    await publishCardsChangedByTime(core, new Date(dayStart(0) + 60_000));
    const before = await republishes();
    await publishCardsChangedByTime(core, new Date(dayStart(0) + 3_600_000));
    expect(await republishes()).toBe(before);
    // Its first day begins; then its last day ends.
    await publishCardsChangedByTime(core, new Date(dayStart(1) + 60_000));
    expect(await republishes()).toBe(before + 1);
    await publishCardsChangedByTime(core, new Date(dayStart(1) + 3_600_000));
    expect(await republishes()).toBe(before + 1);
    await publishCardsChangedByTime(core, new Date(dayStart(2) + 60_000));
    expect(await republishes()).toBe(before + 2);
  });

  it('two workers settling at once give one bonus', async () => {
    await challenge({ loyaltyCampaignGoalCount: 1 });
    const who = await member();
    await claimTicketOn(who, 0);
    const results = await Promise.all([settle(who.accountId), settle(who.accountId, second), settle(who.accountId)]);
    expect(results.reduce((sum, r) => sum + r.completed, 0)).toBe(1);
    expect((await bonusesOf(who.accountId)).map((b) => b.points)).toEqual([300]);
  });
});

describe('food outlets and hotel nights', () => {
  it('counts distinct outlets (the till terminal) of checks bought within the dates', async () => {
    await challenge({ loyaltyCampaignGoal: 'outlets', loyaltyCampaignGoalCount: 2, loyaltyCampaignBonusPoints: 150 });
    const who = await member();
    await claimCheck(who, 'FB-1');
    await claimCheck(who, 'FB-1', -1);
    await claimCheck(who, 'FB-2', -10);
    expect(await settle(who.accountId)).toEqual({ completed: 0, takenBack: 0 });
    expect((await statementOf(who.accountId)).challenges[0]).toMatchObject({ goal: 'outlets', progress: 1, completed: false });
    await claimCheck(who, 'FB-2', -2);
    expect(await settle(who.accountId)).toEqual({ completed: 1, takenBack: 0 });
    expect((await bonusesOf(who.accountId)).map((b) => b.points)).toEqual([150]);
  });

  it('counts the nights of claimed stays that fall within the dates', async () => {
    const from = -5;
    await challenge({
      loyaltyCampaignGoal: 'nights',
      loyaltyCampaignGoalCount: 3,
      loyaltyCampaignFrom: shiftDate(today(), from),
      loyaltyCampaignTo: shiftDate(today(), 5),
    });
    const who = await member();
    // Arrived 7 days ago, left 3 days ago: 2 of its 4 nights are within the dates.
    await claimStay(who, -7, -3);
    expect(await settle(who.accountId)).toEqual({ completed: 0, takenBack: 0 });
    expect((await statementOf(who.accountId)).challenges[0]).toMatchObject({ goal: 'nights', progress: 2 });
    await claimStay(who, 0, 1);
    expect(await settle(who.accountId)).toEqual({ completed: 1, takenBack: 0 });
  });
});

describe('reversals and budgets', () => {
  it("takes the bonus back when a reversal leaves the goal unmet (the campaign's entries sum to 0), and gives it again when met again", async () => {
    const c = await challenge({ loyaltyCampaignGoalCount: 2 });
    const who = await member();
    await claimTicketOn(who, 0);
    const refunded = await claimTicketOn(who, -1);
    await settle(who.accountId);
    await putOrder(
      t.app,
      refunded.orderId,
      anOrder([{ barcode: refunded.barcode, price: 10, refunded: true }], { orderDate: noonOn(-1).toISOString() }),
    );
    expect(await reverseInvalidClaims(core, 'ticket', refunded.barcode, 'ticketing')).toBe(1);
    expect(await settle(who.accountId)).toEqual({ completed: 0, takenBack: 1 });
    expect(await bonusesOf(who.accountId)).toEqual([
      { kind: 'bonus', points: 300, reason: c.loyaltyCampaignName, campaignId: c.loyaltyCampaignID },
      { kind: 'bonus-reversal', points: -300, reason: CHALLENGE_TAKEN_BACK, campaignId: c.loyaltyCampaignID },
    ]);
    const [sum] = await t.database.db
      .select({ points: sql<number>`sum(${loyaltyLedger.points})::int` })
      .from(loyaltyLedger)
      .where(eq(loyaltyLedger.campaignId, c.loyaltyCampaignID));
    expect(sum!.points).toBe(0);
    expect(await t.database.db.select().from(loyaltyChallengeCompletions)).toEqual([]);
    expect((await statementOf(who.accountId)).challenges[0]).toMatchObject({ progress: 1, completed: false });
    await claimTicketOn(who, -2);
    expect(await settle(who.accountId)).toEqual({ completed: 1, takenBack: 0 });
    expect((await bonusesOf(who.accountId)).map((b) => b.points)).toEqual([300, -300, 300]);
  });

  it('cuts the last bonus to what is left of the budget, marks it spent and tells the operator once', async () => {
    const c = await challenge({ loyaltyCampaignGoalCount: 1, loyaltyCampaignBudget: 500 });
    const members = [await member(), await member(), await member()];
    for (const who of members) await claimTicketOn(who, 0);
    for (const who of members) await settle(who.accountId);
    const given = [];
    for (const who of members) given.push((await bonusesOf(who.accountId)).map((b) => b.points));
    expect(given).toEqual([[300], [200], []]);
    expect(await eventsOfType(t.app, 'loyalty.campaign_budget_spent')).toHaveLength(1);
    const [row] = await t.database.db.select().from(loyaltyCampaigns).where(eq(loyaltyCampaigns.id, c.loyaltyCampaignID));
    expect(row!.budgetSpentAt).not.toBeNull();
    // The third member, who completed nothing, no longer sees a challenge whose budget is spent; the second sees theirs, cut.
    expect((await statementOf(members[2]!.accountId)).challenges).toEqual([]);
    expect((await statementOf(members[1]!.accountId)).challenges[0]).toMatchObject({ completed: true, bonusPoints: 200 });
  });

  it('an inactive challenge or one outside its dates counts nothing and is not shown', async () => {
    await challenge({ loyaltyCampaignGoalCount: 1, loyaltyCampaignActive: false });
    await challenge({ loyaltyCampaignGoalCount: 1, loyaltyCampaignFrom: shiftDate(today(), 1), loyaltyCampaignTo: shiftDate(today(), 3) });
    const who = await member();
    await claimTicketOn(who, 0);
    // No challenge runs on the purchase's day: the claim queues nothing.
    const { rows } = await t.database.executeSql(`select count(*)::int as n from pgboss.job where name = $1 and data->>'accountId' = $2`, [
      'loyalty-challenges',
      who.accountId,
    ]);
    expect((rows[0] as { n: number }).n).toBe(0);
    expect(await settle(who.accountId)).toEqual({ completed: 0, takenBack: 0 });
    expect((await statementOf(who.accountId)).challenges).toEqual([]);
  });
});
