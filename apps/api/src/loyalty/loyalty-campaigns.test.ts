// Campaigns on claims: the Loyalty Campaigns tab's rules and figures; the bonus of the best
// single campaign as its own ledger entry, by the purchase's own operating day, its kind and the
// member's tier; a reversal taking it back exactly; a member's cap and a campaign's budget never
// passed, also by 50 claims at once; the budget spent told once by event; the Dashboard and the
// statement showing the bonuses.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LoyaltyOrderType } from '@boardwalk/contract/loyalty';
import { loyaltyAccounts, loyaltyCampaigns, loyaltyLedger, loyaltyTiers } from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { eventsOfType } from '../../test-support/events.ts';
import { loginAs, type StaffLogin } from '../../test-support/staff.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../test-support/test-app.ts';
import { operatingDay, shiftDate } from '../platform/park-time.ts';
import { insertAccount } from './loyalty.repo.ts';
import { claimHotel, claimPurchase, claimTickets, type ClaimOutcome } from './loyalty-claims.service.ts';
import { reverseInvalidClaims } from './loyalty-reversals.service.ts';
import { campaignBonus } from './loyalty-campaigns.service.ts';
import { loyaltyCoreOf, type LoyaltyCore } from './loyalty.service.ts';

let t: TestApp;
let core: LoyaltyCore;
let admin: StaffLogin;
const TZ = 'America/Los_Angeles';
const today = () => operatingDay(new Date(), TZ);
const staffClaim = { kind: 'staff', username: 'campaign.tester' } as const;
const API = '/api/admin/loyalty-campaigns/';

beforeAll(async () => {
  t = await createTestApp({
    env: { DELIVERY_WORKERS: 'false', PARK_TIMEZONE: TZ, LOG_LEVEL: 'error' },
    logStream: { write: (l) => process.stderr.write(l) },
  });
  core = loyaltyCoreOf(t.app);
  admin = await loginAs(t.app, { accessLevel: 100 });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(loyaltyAccounts);
  await t.database.db.delete(loyaltyCampaigns);
  await t.database.db.delete(loyaltyTiers);
});

/** A campaign through the tab, as staff create it (every kind of purchase, today only, unless told). */
async function createCampaign(fields: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: API,
    headers: admin.headers,
    payload: {
      loyaltyCampaignName: `Campaign ${crypto.randomUUID().slice(0, 8)}`,
      loyaltyCampaignKind: 'multiplier',
      loyaltyCampaignMultiplier: 2,
      loyaltyCampaignFrom: today(),
      loyaltyCampaignTo: today(),
      loyaltyCampaignTickets: true,
      loyaltyCampaignFoodAndBeverage: true,
      loyaltyCampaignHotel: true,
      loyaltyCampaignActive: true,
      ...fields,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Record<string, unknown> & { loyaltyCampaignID: string }>();
}

let serial = 0;
/** A member staff made, with a ticket order of its own at this price (dated `orderDate`): its order id. */
async function memberWithTicket(price: number, orderDate = new Date().toISOString()) {
  const n = ++serial;
  const email = `campaign${n}@example.com`;
  const accountId = (await insertAccount(t.database.db, {
    email,
    firstName: 'Cam',
    lastName: `Paign ${n}`,
    createdBy: 'staff',
    createdAt: new Date(),
  }))!;
  const orderId = String(64_000_000 + n);
  await putOrder(t.app, orderId, anOrder([{ barcode: `${orderId}00000001`, price }], { orderDate }));
  return { accountId, email, orderId, barcode: `${orderId}00000001` };
}

const claim = (m: { accountId: string; email: string; orderId: string }) =>
  claimTickets(core, { accountId: m.accountId, email: m.email, orderId: m.orderId }, staffClaim);

const entriesOf = (accountId: string) =>
  t.database.db.select().from(loyaltyLedger).where(eq(loyaltyLedger.accountId, accountId)).orderBy(loyaltyLedger.id);

async function campaignRow(id: string) {
  const res = await t.app.inject({ method: 'GET', url: API, headers: admin.headers });
  expect(res.statusCode).toBe(200);
  return res.json<Record<string, unknown>[]>().find((row) => row.loyaltyCampaignID === id)!;
}

describe('the Loyalty Campaigns tab', () => {
  it.each([
    [{ loyaltyCampaignMultiplier: null }, 'loyaltyCampaignMultiplier', 'A multiplier campaign needs its Multiplier'],
    [{ loyaltyCampaignKind: 'bonus' }, 'loyaltyCampaignBonusPoints', 'A fixed bonus campaign needs its Bonus Points'],
    [
      { loyaltyCampaignKind: 'triple' },
      'loyaltyCampaignKind',
      'Kind must be one of Multiplier, Fixed Bonus, Birthday Gift, Referral, Challenge',
    ],
    [{ loyaltyCampaignMultiplier: 11 }, 'loyaltyCampaignMultiplier', 'Multiplier must be a number from 1.01 to 10 with at most 2 decimals'],
    [
      { loyaltyCampaignTickets: false, loyaltyCampaignFoodAndBeverage: false, loyaltyCampaignHotel: false },
      'loyaltyCampaignTickets',
      'Choose at least one kind of purchase: Tickets, Food and Beverage or Hotel',
    ],
    [{ loyaltyCampaignFrom: '2026-12-02', loyaltyCampaignTo: '2026-12-01' }, 'loyaltyCampaignTo', 'To must not be before From'],
    [{ loyaltyCampaignFrom: '2026-02-30' }, 'loyaltyCampaignFrom', 'From (Operating Day) must be a date, e.g. 2026-11-21'],
  ])('refuses %j with a message and writes nothing', async (fields, path, message) => {
    const res = await t.app.inject({
      method: 'POST',
      url: API,
      headers: admin.headers,
      payload: {
        loyaltyCampaignName: 'Refused',
        loyaltyCampaignKind: 'multiplier',
        loyaltyCampaignMultiplier: 2,
        loyaltyCampaignFrom: '2026-12-01',
        loyaltyCampaignTo: '2026-12-02',
        loyaltyCampaignTickets: true,
        ...fields,
      },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().fields).toContainEqual(expect.objectContaining({ path, message }));
    expect(await t.database.db.select().from(loyaltyCampaigns)).toHaveLength(0);
  });

  it('lists each campaign with its status and its figures counted from the ledger, and is for administrators only', async () => {
    const scheduled = await createCampaign({ loyaltyCampaignFrom: shiftDate(today(), 3), loyaltyCampaignTo: shiftDate(today(), 4) });
    expect(scheduled).toMatchObject({
      loyaltyCampaignStatus: 'Scheduled',
      loyaltyCampaignPointsAwarded: 0,
      loyaltyCampaignMembersReached: 0,
      loyaltyCampaignBudgetLeft: null,
    });
    const running = await createCampaign({ loyaltyCampaignBudget: 1000 });
    await claim(await memberWithTicket(40));
    await claim(await memberWithTicket(25));
    expect(await campaignRow(running.loyaltyCampaignID)).toMatchObject({
      loyaltyCampaignStatus: 'Running',
      loyaltyCampaignPointsAwarded: 65,
      loyaltyCampaignMembersReached: 2,
      loyaltyCampaignBudgetLeft: 935,
    });
    const sorted = await t.app.inject({ method: 'GET', url: `${API}?sort=loyaltyCampaignPointsAwarded`, headers: admin.headers });
    expect(sorted.statusCode).toBe(400);
    const clerk = await loginAs(t.app, { accessLevel: 10 });
    expect((await t.app.inject({ method: 'GET', url: API, headers: clerk.headers })).statusCode).toBe(403);
    // A campaign that gave points cannot be deleted (its entries name it): it is deactivated instead.
    const removed = await t.app.inject({ method: 'DELETE', url: `${API}${running.loyaltyCampaignID}`, headers: admin.headers });
    expect(removed.statusCode).toBe(409);
    expect(removed.json().message).toBe("This Loyalty Campaigns row is still used by members' points entries: deactivate it instead.");
    const stopped = await t.app.inject({
      method: 'PUT',
      url: `${API}${running.loyaltyCampaignID}`,
      headers: admin.headers,
      payload: { loyaltyCampaignActive: false },
    });
    expect(stopped.json().loyaltyCampaignStatus).toBe('Inactive');
    const later = await memberWithTicket(10);
    expect((await claim(later)).pointsEarned).toBe(10);
  });
});

describe('bonuses on claims', () => {
  it('adds a multiplier as its own entry naming the campaign, in the claim, rounded down', async () => {
    const campaign = await createCampaign({ loyaltyCampaignName: 'Time and a Half', loyaltyCampaignMultiplier: 1.5 });
    const member = await memberWithTicket(33.33);
    const outcome = await claim(member);
    expect(outcome).toMatchObject({ pointsEarned: 33 + 16, balance: 49 });
    expect((await entriesOf(member.accountId)).map((e) => [e.kind, e.points, e.campaignId, e.reason])).toEqual([
      ['earn', 33, null, 'claimed'],
      ['bonus', 16, campaign.loyaltyCampaignID, 'Time and a Half'],
    ]);
    const lots = await t.database.executeSql(`select points, remaining from loyalty_lots where account_id = $1 order by id`, [
      member.accountId,
    ]);
    expect(lots.rows).toEqual([
      { points: 33, remaining: 33 },
      { points: 16, remaining: 16 },
    ]);
  });

  it('computes a multiplier in hundredths: no binary fraction moves a point', () => {
    expect(campaignBonus({ kind: 'multiplier', multiplier: 1.1, bonusPoints: null }, 100)).toBe(10);
    expect(campaignBonus({ kind: 'multiplier', multiplier: 1.15, bonusPoints: null }, 20)).toBe(3);
    expect(campaignBonus({ kind: 'multiplier', multiplier: 10, bonusPoints: null }, 7)).toBe(63);
    expect(campaignBonus({ kind: 'bonus', multiplier: null, bonusPoints: 25 }, 7)).toBe(25);
  });

  it('applies the best single campaign when several match, and none that is inactive, of another kind or over the tier', async () => {
    await createCampaign({ loyaltyCampaignName: 'Double', loyaltyCampaignMultiplier: 2 });
    const fixed = await createCampaign({ loyaltyCampaignName: 'Fifty', loyaltyCampaignKind: 'bonus', loyaltyCampaignBonusPoints: 50 });
    await createCampaign({
      loyaltyCampaignName: 'Off',
      loyaltyCampaignKind: 'bonus',
      loyaltyCampaignBonusPoints: 500,
      loyaltyCampaignActive: false,
    });
    await createCampaign({
      loyaltyCampaignName: 'Hotel only',
      loyaltyCampaignKind: 'bonus',
      loyaltyCampaignBonusPoints: 400,
      loyaltyCampaignTickets: false,
      loyaltyCampaignFoodAndBeverage: false,
    });
    await t.database.db.insert(loyaltyTiers).values({ name: 'Gold', pointsToReach: 1000 });
    await createCampaign({
      loyaltyCampaignName: 'Gold only',
      loyaltyCampaignKind: 'bonus',
      loyaltyCampaignBonusPoints: 300,
      loyaltyCampaignMinimumTier: 'Gold',
    });
    const member = await memberWithTicket(30);
    expect((await claim(member)).pointsEarned).toBe(30 + 50);
    const bonuses = (await entriesOf(member.accountId)).filter((e) => e.kind === 'bonus');
    expect(bonuses.map((e) => [e.points, e.campaignId])).toEqual([[50, fixed.loyaltyCampaignID]]);
    // Reaching Gold with this claim's own points, the Gold campaign is the best.
    const gold = await memberWithTicket(1200);
    expect((await claim(gold)).pointsEarned).toBe(1200 + 1200);
  });

  it("counts a purchase by its own operating day, not the claim's, in the park's time zone", async () => {
    const yesterday = shiftDate(today(), -1);
    await createCampaign({ loyaltyCampaignFrom: yesterday, loyaltyCampaignTo: yesterday });
    // 1:30 AM today in the park belongs to yesterday's operating day (it starts at 2:00 AM).
    const lateNight = new Date(new Date(`${today()}T01:30:00Z`).getTime() + tzOffsetMs(today()));
    const old = await memberWithTicket(20, lateNight.toISOString());
    expect((await claim(old)).pointsEarned).toBe(40);
    const fresh = await memberWithTicket(20);
    expect((await claim(fresh)).pointsEarned).toBe(20);
  });

  it('applies to food and beverage checks and hotel stays by their kinds', async () => {
    await createCampaign({
      loyaltyCampaignKind: 'bonus',
      loyaltyCampaignBonusPoints: 7,
      loyaltyCampaignTickets: false,
      loyaltyCampaignHotel: false,
    });
    const member = await memberWithTicket(10);
    await t.app.inject({
      method: 'PUT',
      url: '/api/integrations/checks/CAMP-1',
      headers: integrationAuth,
      payload: { checkNumber: 'CAMP-1', orderDate: new Date().toISOString(), terminalId: 'FB-1', total: 12.5 },
    });
    await t.app.inject({
      method: 'PUT',
      url: '/api/integrations/reservations/CAMP-H1',
      headers: integrationAuth,
      payload: { arrival: today(), departure: today(), total: 100 },
    });
    const who = { accountId: member.accountId, email: member.email };
    expect((await claim(member)).pointsEarned).toBe(10);
    expect(((await claimPurchase(core, { ...who, checkNumber: 'CAMP-1' }, staffClaim)) as ClaimOutcome).pointsEarned).toBe(12 + 7);
    expect((await claimHotel(core, { ...who, reservationNumber: 'CAMP-H1' }, staffClaim)).pointsEarned).toBe(200);
  });
});

/** The park's UTC offset on that day, in ms (Los Angeles: 7 or 8 hours behind). */
function tzOffsetMs(day: string) {
  const noon = new Date(`${day}T12:00:00Z`);
  const local = new Date(noon.toLocaleString('en-US', { timeZone: TZ }));
  const utc = new Date(noon.toLocaleString('en-US', { timeZone: 'UTC' }));
  return utc.getTime() - local.getTime();
}

describe('reversals', () => {
  it("takes a refunded purchase's bonus back with it: the campaign's entries sum to zero", async () => {
    const campaign = await createCampaign({ loyaltyCampaignMultiplier: 3 });
    const member = await memberWithTicket(20);
    expect((await claim(member)).pointsEarned).toBe(60);
    await putOrder(t.app, member.orderId, anOrder([{ barcode: member.barcode, price: 20, refunded: true }]));
    expect(await reverseInvalidClaims(core, 'ticket' as LoyaltyOrderType, member.barcode, 'ticketing')).toBe(1);
    expect(await reverseInvalidClaims(core, 'ticket', member.barcode, 'ticketing')).toBe(0);
    const entries = await entriesOf(member.accountId);
    expect(entries.map((e) => [e.kind, e.points, e.reason])).toEqual([
      ['earn', 20, 'claimed'],
      ['bonus', 40, campaign.loyaltyCampaignName],
      ['reversal', -20, 'refunded'],
      ['bonus-reversal', -40, 'refunded'],
    ]);
    const [sum] = await t.database.db
      .select({ points: sql<number>`sum(${loyaltyLedger.points})::int` })
      .from(loyaltyLedger)
      .where(eq(loyaltyLedger.campaignId, campaign.loyaltyCampaignID));
    expect(sum!.points).toBe(0);
    // What it gave still counts against a budget; the figures show what it stands at.
    expect(await campaignRow(campaign.loyaltyCampaignID)).toMatchObject({
      loyaltyCampaignPointsAwarded: 0,
      loyaltyCampaignMembersReached: 1,
    });
  });

  it('takes the bonus back when staff remove the order', async () => {
    await createCampaign({ loyaltyCampaignKind: 'bonus', loyaltyCampaignBonusPoints: 15 });
    const member = await memberWithTicket(5);
    await claim(member);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/loyalty/order/${member.accountId}/${member.orderId}/${member.barcode}`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const entries = await entriesOf(member.accountId);
    expect(entries.map((e) => [e.kind, e.points, e.causedBy])).toEqual([
      ['earn', 5, 'staff'],
      ['bonus', 15, 'staff'],
      ['reversal', -5, 'staff'],
      ['bonus-reversal', -15, 'staff'],
    ]);
  });
});

describe('caps and budgets', () => {
  it("cuts a bonus to what is left of the member's cap", async () => {
    await createCampaign({ loyaltyCampaignKind: 'bonus', loyaltyCampaignBonusPoints: 40, loyaltyCampaignCapPerMember: 100 });
    const member = await memberWithTicket(1);
    const given = [];
    for (let i = 0; i < 4; i++) {
      const orderId = String(65_000_000 + i);
      await putOrder(t.app, orderId, anOrder([{ barcode: `${orderId}00000001`, price: 1 }], { orderDate: new Date().toISOString() }));
      given.push((await claimTickets(core, { accountId: member.accountId, email: member.email, orderId }, staffClaim)).pointsEarned - 1);
    }
    expect(given).toEqual([40, 40, 20, 0]);
  });

  it('50 concurrent claims against a budget of 10 bonuses award exactly the budget, and the campaign is told spent once', async () => {
    const campaign = await createCampaign({
      loyaltyCampaignName: 'Ten Winners',
      loyaltyCampaignKind: 'bonus',
      loyaltyCampaignBonusPoints: 25,
      loyaltyCampaignBudget: 250,
    });
    const members = [];
    for (let i = 0; i < 50; i++) members.push(await memberWithTicket(10));
    const outcomes = await Promise.all(members.map(claim));
    expect(outcomes.filter((o) => o.pointsEarned === 35)).toHaveLength(10);
    expect(outcomes.filter((o) => o.pointsEarned === 10)).toHaveLength(40);
    const [sum] = await t.database.db
      .select({ points: sql<number>`sum(${loyaltyLedger.points})::int` })
      .from(loyaltyLedger)
      .where(eq(loyaltyLedger.campaignId, campaign.loyaltyCampaignID));
    expect(sum!.points).toBe(250);
    const told = (await eventsOfType(t.app, 'loyalty.campaign_budget_spent')).filter((e) => e.campaignId === campaign.loyaltyCampaignID);
    expect(told).toEqual([{ campaignId: campaign.loyaltyCampaignID, name: 'Ten Winners', budget: 250, awarded: 250 }]);
    expect(await campaignRow(campaign.loyaltyCampaignID)).toMatchObject({
      loyaltyCampaignStatus: 'Budget spent',
      loyaltyCampaignPointsAwarded: 250,
      loyaltyCampaignMembersReached: 10,
      loyaltyCampaignBudgetLeft: 0,
    });
  });

  it('a budget staff edit: raised past what was given, the campaign runs again; lowered to it, it is spent and the operator told', async () => {
    const campaign = await createCampaign({ loyaltyCampaignKind: 'bonus', loyaltyCampaignBonusPoints: 30, loyaltyCampaignBudget: 30 });
    expect((await claim(await memberWithTicket(1))).pointsEarned).toBe(31);
    expect(await campaignRow(campaign.loyaltyCampaignID)).toMatchObject({ loyaltyCampaignStatus: 'Budget spent' });
    const edit = (budget: number | null) =>
      t.app.inject({
        method: 'PUT',
        url: `${API}${campaign.loyaltyCampaignID}`,
        headers: admin.headers,
        payload: { loyaltyCampaignBudget: budget },
      });
    expect((await edit(100)).json()).toMatchObject({ loyaltyCampaignStatus: 'Running', loyaltyCampaignBudgetLeft: 70 });
    expect((await claim(await memberWithTicket(1))).pointsEarned).toBe(31);
    // Lowered to what it gave (60): spent at once, told once more.
    const told = () => eventsOfType(t.app, 'loyalty.campaign_budget_spent');
    const before = (await told()).length;
    expect((await edit(50)).json()).toMatchObject({ loyaltyCampaignStatus: 'Budget spent', loyaltyCampaignBudgetLeft: -10 });
    expect((await told()).slice(before)).toEqual([
      { campaignId: campaign.loyaltyCampaignID, name: campaign.loyaltyCampaignName, budget: 50, awarded: 60 },
    ]);
    expect((await claim(await memberWithTicket(1))).pointsEarned).toBe(1);
    // No budget: running again.
    expect((await edit(null)).json()).toMatchObject({ loyaltyCampaignStatus: 'Running' });
    expect((await claim(await memberWithTicket(1))).pointsEarned).toBe(31);
  });

  it('cuts the bonus that reaches the budget to what is left', async () => {
    await createCampaign({ loyaltyCampaignKind: 'bonus', loyaltyCampaignBonusPoints: 30, loyaltyCampaignBudget: 50 });
    expect((await claim(await memberWithTicket(1))).pointsEarned).toBe(31);
    expect((await claim(await memberWithTicket(1))).pointsEarned).toBe(21);
    expect((await claim(await memberWithTicket(1))).pointsEarned).toBe(1);
  });
});

describe('where bonuses show', () => {
  it("puts the campaigns' points per day on the Dashboard", async () => {
    await createCampaign({ loyaltyCampaignKind: 'bonus', loyaltyCampaignBonusPoints: 12 });
    await claim(await memberWithTicket(3));
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/dashboard/?range=today', headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().points.at(-1)).toMatchObject({ earned: 3, campaigns: 12 });
  });
});

describe('the member lookups', () => {
  it('name the campaigns running today that apply to the member, at the tills and in the Loyalty tab', async () => {
    await t.database.db.insert(loyaltyTiers).values({ name: 'Gold', pointsToReach: 500 });
    const everyone = await createCampaign({
      loyaltyCampaignName: 'Double Food',
      loyaltyCampaignTickets: false,
      loyaltyCampaignHotel: false,
    });
    await createCampaign({
      loyaltyCampaignName: 'Gold Bonus',
      loyaltyCampaignKind: 'bonus',
      loyaltyCampaignBonusPoints: 5,
      loyaltyCampaignMinimumTier: 'Gold',
    });
    await createCampaign({
      loyaltyCampaignName: 'Next Week',
      loyaltyCampaignFrom: shiftDate(today(), 7),
      loyaltyCampaignTo: shiftDate(today(), 8),
    });
    const member = await memberWithTicket(20);
    await claim(member);
    const [account] = await t.database.db.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.id, member.accountId));
    const till = await t.app.inject({
      method: 'GET',
      url: `/api/integrations/loyalty/members/${account!.memberNumber}`,
      headers: integrationAuth,
    });
    expect(till.statusCode, till.body).toBe(200);
    expect(till.json().campaigns).toEqual([
      {
        campaignId: everyone.loyaltyCampaignID,
        name: 'Double Food',
        kind: 'multiplier',
        multiplier: 2,
        bonusPoints: null,
        appliesTo: ['food-and-beverage'],
        validTo: today(),
      },
    ]);
    const staff = await t.app.inject({ method: 'GET', url: `/api/admin/loyalty/account/${member.accountId}/`, headers: admin.headers });
    expect(staff.statusCode, staff.body).toBe(200);
    expect(staff.json().campaigns.map((c: { name: string }) => c.name)).toEqual(['Double Food']);
    const gold = await memberWithTicket(600);
    await claim(gold);
    const goldAccount = await t.app.inject({ method: 'GET', url: `/api/admin/loyalty/account/${gold.accountId}/`, headers: admin.headers });
    expect(goldAccount.json().campaigns.map((c: { name: string }) => c.name)).toEqual(['Double Food', 'Gold Bonus']);
  });
});
