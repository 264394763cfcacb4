// The tills' loyalty calls: a member by the card barcode, redemptions exactly once per
// idempotency key (also 50 at once), the reasons a redemption is refused, and reversals once.
import { eventsOfType } from '../../test-support/events.ts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loyaltyLedger, loyaltyRedemptions, loyaltyRewards, loyaltyTiers } from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { loyaltyTiers as loyaltyTiersTab } from '@boardwalk/contract/staff-loyalty-tabs';
import { loginAs } from '../../test-support/staff.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../test-support/test-app.ts';
import { claimTickets } from './loyalty-claims.service.ts';
import { insertAccount } from './loyalty.repo.ts';
import { reverseInvalidClaims } from './loyalty-reversals.service.ts';
import { loyaltyCoreOf } from './loyalty.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const API = '/api/integrations/loyalty/';
const DAY = 24 * 60 * 60 * 1000;
let seq = 0;

/** A member who earned `points` (a claimed ticket of that many USD, one point per USD); their member number and account. */
async function aMember(points: number) {
  const n = ++seq;
  const email = `till${n}@example.com`;
  const accountId = (await insertAccount(t.database.db, {
    email,
    firstName: 'Till',
    lastName: `Member ${n}`,
    createdBy: 'staff',
    createdAt: new Date(),
  }))!;
  const orderId = String(73000000 + n);
  const barcode = `${orderId}00000001`;
  if (points > 0) {
    await putOrder(t.app, orderId, anOrder([{ barcode, price: points }], { orderDate: new Date().toISOString() }));
    await claimTickets(loyaltyCoreOf(t.app), { orderId, email, accountId }, { kind: 'staff', username: 'gina' });
  }
  const [row] = await t.database
    .executeSql(`select member_number, card_token from loyalty_accounts where id = '${accountId}'`)
    .then((r) => r.rows as { member_number: string; card_token: string }[]);
  return { memberNumber: row!.member_number, card: row!.card_token, accountId, email, orderId, barcode };
}

async function aReward(values: Partial<typeof loyaltyRewards.$inferInsert> = {}) {
  const [row] = await t.database.db
    .insert(loyaltyRewards)
    .values({ name: `Reward ${++seq}`, pointsCost: 100, ...values })
    .returning();
  return row!;
}

const getMember = (memberNumber: string) => t.app.inject({ method: 'GET', url: `${API}members/${memberNumber}`, headers: integrationAuth });
/** A redemption at the till, with the card's barcode (its token). */
const redeem = (card: string, rewardId: string, idempotencyKey: string, headers: Record<string, string> = integrationAuth) =>
  t.app.inject({ method: 'POST', url: `${API}redemptions`, headers, payload: { card, rewardId, idempotencyKey } });
const reverse = (redemptionId: string) =>
  t.app.inject({ method: 'POST', url: `${API}redemptions/${redemptionId}/reverse`, headers: integrationAuth });
const ledgerOf = (accountId: string) =>
  t.database.db.select().from(loyaltyLedger).where(eq(loyaltyLedger.accountId, accountId)).orderBy(loyaltyLedger.id);
const balanceOf = async (accountId: string) => (await ledgerOf(accountId)).reduce((sum, e) => sum + e.points, 0);

describe('a member at the till', () => {
  it('answers the member by card barcode (or typed member number) with balance, tier and the rewards they can redeem now, no email; 404 unknown, 400 malformed, 401 without the key', async () => {
    const member = await aMember(300);
    const cheap = await aReward({ name: 'Soda', pointsCost: 50, description: 'Any fountain drink' });
    await aReward({ name: 'Too dear', pointsCost: 301 });
    await aReward({ name: 'Retired', pointsCost: 10, active: false });
    await aReward({ name: 'Next summer', pointsCost: 10, validFrom: new Date(Date.now() + 30 * DAY) });
    const res = await getMember(member.card);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ memberNumber: member.memberNumber, firstName: 'Till', balance: 300, tier: null });
    // The till is not told the member's email (the review's item 12).
    expect(body).not.toHaveProperty('email');
    expect(res.body).not.toContain(member.email);
    // A scanner's upper case and the typed member number find the same member.
    expect((await getMember(member.card.toUpperCase())).json()).toEqual(body);
    expect((await getMember(member.memberNumber)).json()).toEqual(body);
    expect(body.rewards).toContainEqual({ rewardId: cheap.id, name: 'Soda', description: 'Any fountain drink', pointsCost: 50 });
    for (const name of ['Too dear', 'Retired', 'Next summer'])
      expect(body.rewards.map((r: { name: string }) => r.name)).not.toContain(name);

    expect((await getMember('7700000099999999')).statusCode).toBe(404);
    expect((await getMember('12ab')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `${API}members/${member.memberNumber}` })).statusCode).toBe(401);
  });
});

describe('redemptions', () => {
  it('spends the cost once: 201, then 200 with the same body for the same key, one ledger entry naming the reward', async () => {
    const member = await aMember(250);
    const reward = await aReward({ name: 'Churro', pointsCost: 100 });
    const first = await redeem(member.card, reward.id, 'till-7-0001');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({
      redemptionId: expect.any(String),
      memberNumber: member.memberNumber,
      rewardId: reward.id,
      pointsSpent: 100,
      balance: 150,
    });
    const again = await redeem(member.card, reward.id, 'till-7-0001');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const ledger = await ledgerOf(member.accountId);
    expect(ledger.filter((e) => e.kind === 'redemption')).toMatchObject([
      { points: -100, reason: 'redeemed: Churro', causedBy: 'till', redemptionId: first.json().redemptionId },
    ]);
    expect(await balanceOf(member.accountId)).toBe(150);
    // The operator's systems are told once, with the balance it left.
    expect((await eventsOfType(t.app, 'loyalty.reward_redeemed')).filter((e) => e.memberNumber === member.memberNumber)).toEqual([
      {
        memberNumber: member.memberNumber,
        redemptionId: first.json().redemptionId,
        rewardId: reward.id,
        rewardName: 'Churro',
        pointsSpent: 100,
        balance: 150,
        redeemedBy: 'till',
      },
    ]);
    expect(
      (await eventsOfType(t.app, 'loyalty.points_changed')).filter((e) => e.memberNumber === member.memberNumber).at(-1),
    ).toMatchObject({
      entry: { points: -100, kind: 'redemption', reason: 'redeemed: Churro' },
      balance: 150,
    });
    // The same key for another reward is no replay.
    const other = await aReward({ pointsCost: 1 });
    const reused = await redeem(member.card, other.id, 'till-7-0001');
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({ error: 'CONFLICT', message: 'This idempotency key was used for another redemption.' });
  });

  it('refuses with 409 and a plain reason, spending nothing: points, inactive, out of dates, tier, limit', async () => {
    const member = await aMember(120);
    const cases = [
      [await aReward({ name: 'Big prize', pointsCost: 500 }), 'Not enough points: the balance is 110 and Big prize costs 500.'],
      [await aReward({ name: 'Old prize', active: false }), 'Old prize is not offered any more.'],
      [await aReward({ name: 'Spring prize', validTo: new Date(Date.now() - DAY) }), 'Spring prize is not offered on this date.'],
      [await aReward({ name: 'Later prize', validFrom: new Date(Date.now() + DAY) }), 'Later prize is not offered on this date.'],
    ] as const;
    await t.database.db.insert(loyaltyTiers).values({ name: 'Sapphire', pointsToReach: 100_000 });
    const tiered = await aReward({ name: 'Lounge', pointsCost: 10, minimumTier: 'Sapphire' });
    const limited = await aReward({ name: 'Photo', pointsCost: 10, limitPerMember: 1 });
    expect((await redeem(member.card, limited.id, `limit-${member.memberNumber}-1`)).statusCode).toBe(201);
    const all = [
      ...cases,
      [tiered, "Lounge needs the Sapphire tier; this member's tier is none yet."],
      [limited, 'This member has redeemed Photo 1 time, its limit per member.'],
    ] as const;
    const before = await ledgerOf(member.accountId);
    for (const [reward, message] of all) {
      const res = await redeem(member.card, reward.id, `refused-${reward.id}`);
      expect(res.statusCode, reward.name).toBe(409);
      expect(res.json()).toEqual({ statusCode: 409, error: 'CONFLICT', message });
    }
    expect(await ledgerOf(member.accountId)).toEqual(before);
    expect(await t.database.db.$count(loyaltyRedemptions, eq(loyaltyRedemptions.accountId, member.accountId))).toBe(1);
    expect((await redeem(member.card, crypto.randomUUID(), 'no-such-reward')).statusCode).toBe(404);
    expect((await redeem('0'.repeat(32), limited.id, 'no-such-member')).statusCode).toBe(404);
  });

  it('refuses bad bodies with 400 naming the field, and spends nothing', async () => {
    const member = await aMember(100);
    const reward = await aReward({ pointsCost: 1 });
    for (const payload of [
      { card: member.card, rewardId: reward.id, idempotencyKey: '' },
      { card: member.card, rewardId: reward.id, idempotencyKey: 'k'.repeat(101) },
      { memberNumber: member.memberNumber, rewardId: 'not-a-guid', idempotencyKey: 'k1' },
      { card: member.card, rewardId: reward.id, idempotencyKey: 'k2', points: 5 },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: `${API}redemptions`, headers: integrationAuth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await balanceOf(member.accountId)).toBe(100);
    expect((await redeem(member.card, reward.id, 'k'.repeat(100))).statusCode).toBe(201);
  });

  it('lets a negative balance block redemptions until it is earned back', async () => {
    const member = await aMember(100);
    const reward = await aReward({ name: 'Ice cream', pointsCost: 80 });
    expect((await redeem(member.card, reward.id, `neg-${member.memberNumber}-1`)).statusCode).toBe(201);
    // The feed refunds the ticket: the claim's 100 points are taken back, leaving -80.
    await putOrder(
      t.app,
      member.orderId,
      anOrder([{ barcode: member.barcode, price: 100, refunded: true }], { orderDate: new Date().toISOString() }),
    );
    await reverseInvalidClaims(loyaltyCoreOf(t.app), 'ticket', member.barcode, null);
    expect(await balanceOf(member.accountId)).toBe(-80);
    const cheap = await aReward({ name: 'Sticker', pointsCost: 1 });
    const res = await redeem(member.card, cheap.id, `neg-${member.memberNumber}-2`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Not enough points: the balance is -80 and Sticker costs 1.');
  });

  it('gives 50 concurrent redemptions that the balance covers once exactly one 201 and 49 409s', async () => {
    const member = await aMember(100);
    const reward = await aReward({ pointsCost: 60 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => redeem(member.card, reward.id, `race-${member.memberNumber}-${i}`)),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(await balanceOf(member.accountId)).toBe(40);
    expect(await t.database.db.$count(loyaltyRedemptions, eq(loyaltyRedemptions.accountId, member.accountId))).toBe(1);
  });

  it('spends once for 50 concurrent replays of one key: one 201, 49 200s with the same body', async () => {
    const member = await aMember(1000);
    const reward = await aReward({ pointsCost: 10 });
    const key = `replay-${member.memberNumber}`;
    const answers = await Promise.all(Array.from({ length: 50 }, () => redeem(member.card, reward.id, key)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(49);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(await balanceOf(member.accountId)).toBe(990);
    const entries = await t.database.db
      .select()
      .from(loyaltyLedger)
      .where(and(eq(loyaltyLedger.accountId, member.accountId), eq(loyaltyLedger.kind, 'redemption')));
    expect(entries).toHaveLength(1);
  });
});

describe('reversing a redemption', () => {
  it('gives the points back once with an entry naming the reward; again: 200 and nothing more; 404 unknown, 400 malformed', async () => {
    const member = await aMember(200);
    const reward = await aReward({ name: 'Funnel cake', pointsCost: 150, limitPerMember: 1 });
    const { redemptionId } = (await redeem(member.card, reward.id, `rev-${member.memberNumber}`)).json();
    const first = await reverse(redemptionId);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      redemptionId,
      memberNumber: member.memberNumber,
      rewardId: reward.id,
      pointsReturned: 150,
      balance: 200,
    });
    const again = await reverse(redemptionId);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const entries = (await ledgerOf(member.accountId)).filter((e) => e.redemptionId === redemptionId);
    expect(entries.map((e) => [e.kind, e.points, e.reason])).toEqual([
      ['redemption', -150, 'redeemed: Funnel cake'],
      ['redemption-reversal', 150, 'redemption reversed: Funnel cake'],
    ]);
    // A reversed redemption no longer counts against the limit.
    expect((await redeem(member.card, reward.id, `rev-${member.memberNumber}-again`)).statusCode).toBe(201);
    expect((await reverse(crypto.randomUUID())).statusCode).toBe(404);
    expect((await reverse('nope')).statusCode).toBe(400);
  });
});

describe('tiers', () => {
  it('follow the points earned in 365 days: spending keeps the tier, a reversal can lower it; each change is an event', async () => {
    await t.database.db.insert(loyaltyTiers).values([
      { name: 'Bronze', pointsToReach: 200 },
      { name: 'Gold', pointsToReach: 400 },
      { name: 'Retired Platinum', pointsToReach: 300, active: false },
    ]);
    const member = await aMember(350);
    const tierNow = async () => (await getMember(member.memberNumber)).json().tier;
    expect(await tierNow()).toBe('Bronze');
    const lounge = await aReward({ name: 'Bronze lounge', pointsCost: 300, minimumTier: 'Bronze' });
    expect((await redeem(member.card, lounge.id, `tier-${member.memberNumber}`)).statusCode).toBe(201);
    expect(await tierNow()).toBe('Bronze');
    await putOrder(
      t.app,
      member.orderId,
      anOrder([{ barcode: member.barcode, price: 350, refunded: true }], { orderDate: new Date().toISOString() }),
    );
    await reverseInvalidClaims(loyaltyCoreOf(t.app), 'ticket', member.barcode, null);
    expect(await tierNow()).toBeNull();
    // The operator's systems are told each change, and only the changes (the redemption kept the tier).
    const changes = (await eventsOfType(t.app, 'loyalty.tier_changed')).filter((e) => e.memberNumber === member.memberNumber);
    expect(changes).toEqual([
      { memberNumber: member.memberNumber, from: null, to: 'Bronze' },
      { memberNumber: member.memberNumber, from: 'Bronze', to: null },
    ]);
  });

  it('move with a staff change of the tiers: each member moved is told once, in the change; a refused change tells nothing', async () => {
    // The tiers of the test before: Bronze 200, Gold 400 (and an inactive 300).
    const staff = await loginAs(t.app, { accessLevel: 1000 });
    const low = await aMember(150);
    const high = await aMember(450);
    const ours = new Set([low.memberNumber, high.memberNumber]);
    const told = async () => (await eventsOfType(t.app, 'loyalty.tier_changed')).filter((e) => ours.has(String(e.memberNumber)));
    const toldBefore = (await told()).length;
    const newlyTold = async () => (await told()).slice(toldBefore);
    const tierId = async (name: string) => (await t.database.db.select().from(loyaltyTiers).where(eq(loyaltyTiers.name, name)))[0]!.id;
    const call = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, status = method === 'POST' ? 201 : 200) => {
      const res = await t.app.inject({ method, url, headers: staff.headers, ...(payload && { payload }) });
      expect(res.statusCode, res.body).toBe(status);
      return res.json<Record<string, unknown>>();
    };
    const tiersApi = loyaltyTiersTab.api;

    const copper = await call('POST', tiersApi, { loyaltyTierName: 'Copper', loyaltyTierPointsToReach: 100, loyaltyTierActive: true });
    await call('PUT', `${tiersApi}${await tierId('Gold')}`, { loyaltyTierPointsToReach: 500 });
    await call('PUT', `${tiersApi}${await tierId('Bronze')}`, { loyaltyTierName: 'Bronze Plus' });
    await call('PUT', `${tiersApi}${String(copper.loyaltyTierID)}`, { loyaltyTierActive: false });
    // Refused (400, 409): nothing changes, nobody is told.
    await call('PUT', `${tiersApi}${await tierId('Gold')}`, { loyaltyTierPointsToReach: 0 }, 400);
    await call('PUT', `${tiersApi}${await tierId('Gold')}`, { loyaltyTierPointsToReach: 200 }, 409);
    await call('PUT', `${tiersApi}${await tierId('Gold')}`, { loyaltyTierPointsToReach: 400 });
    await call('DELETE', `${tiersApi}${await tierId('Gold')}`);
    // Deleting an inactive tier moves nobody.
    await call('DELETE', `${tiersApi}${String(copper.loyaltyTierID)}`);

    expect(await newlyTold()).toEqual([
      { memberNumber: low.memberNumber, from: null, to: 'Copper' },
      { memberNumber: high.memberNumber, from: 'Gold', to: 'Bronze' },
      { memberNumber: high.memberNumber, from: 'Bronze', to: 'Bronze Plus' },
      { memberNumber: low.memberNumber, from: 'Copper', to: null },
      { memberNumber: high.memberNumber, from: 'Bronze Plus', to: 'Gold' },
      { memberNumber: high.memberNumber, from: 'Gold', to: 'Bronze Plus' },
    ]);
  });
});
