// Staff redeem a reward for a member and reverse redemptions from the Loyalty tab: Loyalty
// Redeem guards both, the core's rules refuse with a plain reason (409), each is a ledger
// entry naming the reward by this staff member and an audit entry, a double submit of the form
// spends once and a reversal gives the points back once. The account shows the member's tier.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOYALTY } from '@boardwalk/contract/staff-loyalty-tabs';
import type { StaffAccount, StaffRedemptions } from '@boardwalk/contract/staff-loyalty';
import { auditLog, loyaltyLedger, loyaltyRedemptions, loyaltyRewards, loyaltyTiers, permissions } from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../../test-support/test-app.ts';

let t: TestApp;
let staff: StaffLogin;
const api = '/api/admin/loyalty/';
let seq = 0;

const call = (method: 'GET' | 'POST', url: string, payload?: object, as = staff) =>
  t.app.inject({ method, url, headers: as.headers, ...(payload && { payload }) });

/** A member who earned `points` through a staff ticket claim (one point per USD). */
async function aMember(points: number) {
  const n = ++seq;
  const email = `redeemer${n}@example.com`;
  const created = await call('POST', `${api}create`, { email, firstName: 'Reda', lastName: `Member ${n}` });
  expect(created.statusCode, created.body).toBe(200);
  const userID = created.body;
  if (points > 0) {
    const orderId = String(74_000_000 + n);
    await putOrder(t.app, orderId, anOrder([{ barcode: `${orderId}00000001`, price: points }], { orderDate: new Date().toISOString() }));
    const claim = await call('POST', `${api}tickets/`, { orderId, email, userID });
    expect(claim.statusCode, claim.body).toBe(200);
  }
  return userID;
}

async function aReward(values: Partial<typeof loyaltyRewards.$inferInsert> = {}) {
  const [row] = await t.database.db
    .insert(loyaltyRewards)
    .values({ name: `Reward ${++seq}`, pointsCost: 100, ...values })
    .returning();
  return row!;
}

const redemptionsOf = async (userID: string) => {
  const res = await call('GET', `${api}redemptions/${userID}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<StaffRedemptions>();
};
const accountOf = async (userID: string) => (await call('GET', `${api}account/${userID}/`)).json<StaffAccount>();
/** The member card's barcode, what a till redeems with. */
const cardOf = async (userID: string) =>
  ((await t.database.executeSql(`select card_token from loyalty_accounts where id = $1`, [userID])).rows[0] as { card_token: string })
    .card_token;
const redeem = (userID: string, rewardId: string, idempotencyKey: string = crypto.randomUUID(), as = staff) =>
  call('POST', `${api}redemptions/`, { userID, rewardId, idempotencyKey }, as);
const reverse = (userID: string, redemptionId: string, as = staff) =>
  call('POST', `${api}redemptions/reverse/`, { userID, redemptionId }, as);
const ledgerOf = (accountId: string) =>
  t.database.db.select().from(loyaltyLedger).where(eq(loyaltyLedger.accountId, accountId)).orderBy(loyaltyLedger.id);
const auditOf = (userID: string, action: string) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.resource, 'loyalty'), eq(auditLog.recordId, userID), eq(auditLog.action, action)));

beforeAll(async () => {
  t = await createTestApp();
  staff = await loginAs(t.app, { accessLevel: 100 });
});
afterAll(() => t.close());

describe('redeeming for a member', () => {
  it('offers only what the member can redeem now, spends the cost once as a ledger entry naming the reward, audited', async () => {
    const userID = await aMember(250);
    const churro = await aReward({ name: 'Churro', pointsCost: 100, description: 'Cinnamon sugar' });
    await aReward({ name: 'Too dear', pointsCost: 251 });
    await aReward({ name: 'Retired', pointsCost: 10, active: false });
    const before = await redemptionsOf(userID);
    expect(before.redemptions).toEqual([]);
    expect(before.rewards).toContainEqual({ rewardId: churro.id, name: 'Churro', description: 'Cinnamon sugar', pointsCost: 100 });
    expect(before.rewards.map((r) => r.name)).not.toContain('Too dear');
    expect(before.rewards.map((r) => r.name)).not.toContain('Retired');

    const res = await redeem(userID, churro.id, before.idempotencyKey);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({ rewardName: 'Churro', pointsSpent: 100, balance: 150 });

    const entry = (await ledgerOf(userID)).at(-1)!;
    expect(entry).toMatchObject({
      points: -100,
      kind: 'redemption',
      reason: 'redeemed: Churro',
      redemptionId: answer.redemptionId,
      causedBy: 'staff',
      staffMember: staff.username,
    });
    const [audit] = await auditOf(userID, 'redeem');
    expect(audit).toMatchObject({ username: staff.username, before: { balance: 250 } });
    expect(audit!.after).toEqual({ balance: 150, points: -100, redemptionId: answer.redemptionId, reward: 'Churro' });

    const after = await redemptionsOf(userID);
    expect(after.idempotencyKey).not.toBe(before.idempotencyKey);
    expect(after.redemptions).toEqual([
      expect.objectContaining({
        redemptionId: answer.redemptionId,
        rewardName: 'Churro',
        pointsSpent: 100,
        reversedAt: null,
        causedBy: 'staff',
      }),
    ]);
    expect((await accountOf(userID)).balance).toBe(150);
  });

  it('refuses with the reason (409) and writes nothing: points, inactive, dates, tier, limit; 404 for an unknown reward or member', async () => {
    const userID = await aMember(120);
    await t.database.db.insert(loyaltyTiers).values({ name: `Gold ${++seq}`, pointsToReach: 1000 });
    const [gold] = await t.database.db.select().from(loyaltyTiers).where(eq(loyaltyTiers.pointsToReach, 1000));
    const once = await aReward({ name: 'Once', pointsCost: 10, limitPerMember: 1 });
    expect((await redeem(userID, once.id)).statusCode).toBe(200);
    const cases = [
      [await aReward({ name: 'Dear', pointsCost: 500 }), 'Not enough points: the balance is 110 and Dear costs 500.'],
      [await aReward({ name: 'Old', pointsCost: 10, active: false }), 'Old is not offered any more.'],
      [
        await aReward({ name: 'Later', pointsCost: 10, validFrom: new Date(Date.now() + 86_400_000) }),
        'Later is not offered on this date.',
      ],
      [
        await aReward({ name: 'Lounge', pointsCost: 10, minimumTier: gold!.name }),
        `Lounge needs the ${gold!.name} tier; this member's tier is none yet.`,
      ],
      [once, 'This member has redeemed Once 1 time, its limit per member.'],
    ] as const;
    const ledger = await ledgerOf(userID);
    const audits = await auditOf(userID, 'redeem');
    for (const [reward, reason] of cases) {
      const res = await redeem(userID, reward.id);
      expect(res.statusCode, reward.name).toBe(409);
      expect(res.json()).toMatchObject({ error: 'CONFLICT', message: reason });
    }
    expect((await redeem(userID, crypto.randomUUID())).statusCode).toBe(404);
    expect((await redeem(crypto.randomUUID(), once.id)).statusCode).toBe(404);
    const bad = await call('POST', `${api}redemptions/`, { userID, rewardId: 'x', idempotencyKey: 'y' });
    expect(bad.statusCode).toBe(400);
    expect(await ledgerOf(userID)).toEqual(ledger);
    expect(await auditOf(userID, 'redeem')).toEqual(audits);
  });

  it('spends once when the form is submitted twice at once (one key): the same answer, one entry, one audit', async () => {
    const userID = await aMember(300);
    const reward = await aReward({ name: 'Double', pointsCost: 100 });
    const { idempotencyKey } = await redemptionsOf(userID);
    const answers = await Promise.all(Array.from({ length: 8 }, () => redeem(userID, reward.id, idempotencyKey)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((r) => r.json().redemptionId)).size).toBe(1);
    expect(answers.map((r) => r.json().balance)).toEqual(Array(8).fill(200));
    expect((await ledgerOf(userID)).filter((e) => e.kind === 'redemption')).toHaveLength(1);
    expect(await auditOf(userID, 'redeem')).toHaveLength(1);
    expect((await accountOf(userID)).balance).toBe(200);
    // The same key again for another reward is refused, not replayed.
    const other = await aReward({ name: 'Other', pointsCost: 1 });
    expect((await redeem(userID, other.id, idempotencyKey)).statusCode).toBe(409);
  });

  it("keeps the staff form's keys apart from the tills' transaction ids", async () => {
    const userID = await aMember(300);
    const reward = await aReward({ name: 'Shared key', pointsCost: 100 });
    const key = crypto.randomUUID();
    expect((await redeem(userID, reward.id, key)).statusCode).toBe(200);
    const card = await cardOf(userID);
    const till = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/loyalty/redemptions',
      headers: integrationAuth,
      payload: { card, rewardId: reward.id, idempotencyKey: key },
    });
    expect(till.statusCode, till.body).toBe(201);
    expect((await accountOf(userID)).balance).toBe(100);
  });

  it('needs Loyalty Redeem: 403 to a member holding Loyalty Manage only, who still sees the redemptions', async () => {
    const userID = await aMember(200);
    const reward = await aReward({ pointsCost: 50 });
    const manager = await loginAs(t.app, { accessLevel: 100 });
    await t.database.db.update(permissions).set({ minimumAccessLevel: 500 }).where(eq(permissions.name, LOYALTY.redeem.name));
    try {
      const refused = await redeem(userID, reward.id, crypto.randomUUID(), manager);
      expect(refused.statusCode).toBe(403);
      const { redemptions } = await redemptionsOf(userID);
      expect(redemptions).toEqual([]);
      expect((await call('GET', `${api}redemptions/${userID}/`, undefined, manager)).statusCode).toBe(200);
      expect((await ledgerOf(userID)).filter((e) => e.kind === 'redemption')).toEqual([]);
    } finally {
      await t.database.db.update(permissions).set({ minimumAccessLevel: 100 }).where(eq(permissions.name, LOYALTY.redeem.name));
    }
  });
});

describe('reversing a redemption', () => {
  it("gives a staff or till redemption's points back once (also when asked twice at once), as an entry naming the reward, audited once", async () => {
    const userID = await aMember(300);
    const reward = await aReward({ name: 'Funnel cake', pointsCost: 120 });
    const redemptionId = (await redeem(userID, reward.id)).json().redemptionId as string;
    const answers = await Promise.all([reverse(userID, redemptionId), reverse(userID, redemptionId)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(answers.map((r) => r.json())).toEqual([
      { pointsReturned: 120, balance: 300 },
      { pointsReturned: 120, balance: 300 },
    ]);
    const again = await reverse(userID, redemptionId);
    expect(again.json()).toEqual({ pointsReturned: 120, balance: 300 });
    const reversals = (await ledgerOf(userID)).filter((e) => e.kind === 'redemption-reversal');
    expect(reversals).toEqual([
      expect.objectContaining({ points: 120, reason: 'redemption reversed: Funnel cake', causedBy: 'staff', staffMember: staff.username }),
    ]);
    const audits = await auditOf(userID, 'reverse-redemption');
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      before: { balance: 180 },
      after: { balance: 300, points: 120, redemptionId, reward: 'Funnel cake' },
    });
    const [listed] = (await redemptionsOf(userID)).redemptions;
    expect(listed!.reversedAt).not.toBeNull();

    // A till's redemption: staff reverse it the same way.
    const card = await cardOf(userID);
    const till = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/loyalty/redemptions',
      headers: integrationAuth,
      payload: { card, rewardId: reward.id, idempotencyKey: `till-${++seq}` },
    });
    expect(till.statusCode, till.body).toBe(201);
    expect((await redemptionsOf(userID)).redemptions[0]).toMatchObject({ causedBy: 'till', staffMember: null });
    expect((await reverse(userID, till.json().redemptionId)).json()).toEqual({ pointsReturned: 120, balance: 300 });
  });

  it("answers 404 for another member's redemption or an unknown one, and changes nothing", async () => {
    const owner = await aMember(200);
    const stranger = await aMember(0);
    const reward = await aReward({ pointsCost: 50 });
    const redemptionId = (await redeem(owner, reward.id)).json().redemptionId as string;
    expect((await reverse(stranger, redemptionId)).statusCode).toBe(404);
    expect((await reverse(owner, crypto.randomUUID())).statusCode).toBe(404);
    const [row] = await t.database.db.select().from(loyaltyRedemptions).where(eq(loyaltyRedemptions.id, redemptionId));
    expect(row!.reversedAt).toBeNull();
    expect((await accountOf(owner)).balance).toBe(150);
  });
});

describe("the account's tier", () => {
  it('is the highest active tier the points earned in 365 days reach; spending never lowers it', async () => {
    const userID = await aMember(400);
    expect((await accountOf(userID)).tier).toBeNull();
    await t.database.db.insert(loyaltyTiers).values([
      { name: `Bronze ${++seq}`, pointsToReach: 300 + seq },
      { name: `Silver ${++seq}`, pointsToReach: 2_000_000 + seq },
    ]);
    const tier = (await accountOf(userID)).tier;
    expect(tier).toMatch(/^Bronze /);
    const reward = await aReward({ pointsCost: 350 });
    expect((await redeem(userID, reward.id)).statusCode).toBe(200);
    expect(await accountOf(userID)).toMatchObject({ balance: 50, tier });
  });
});

describe("the account's lots", () => {
  it('lists each positive entry with what is left after spending and when it expires', async () => {
    const userID = await aMember(250);
    const reward = await aReward({ pointsCost: 100 });
    expect((await redeem(userID, reward.id)).statusCode).toBe(200);
    const res = await call('GET', `${api}lots/${userID}/`);
    expect(res.statusCode, res.body).toBe(200);
    const [lot, ...others] = res.json();
    expect(others).toEqual([]);
    expect(lot).toMatchObject({ reason: 'claimed', points: 250, remaining: 150, expiredPoints: 0, expired: false });
    const months = (Date.parse(lot.expiresAt) - Date.parse(lot.earnedAt)) / (30.4 * 86_400_000);
    expect(Math.round(months)).toBe(12);
    expect((await call('GET', `${api}lots/${crypto.randomUUID()}/`)).statusCode).toBe(404);
  });
});
