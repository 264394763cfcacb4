// A property over random interleavings of claims, feed refunds and cancellations, repeated
// reversal jobs, redemptions at the till (replayed keys among them), their reversals, staff
// adjustments and expiry runs with the clock moved on. After every step: each balance is the
// sum of its ledger and what the test's own model says (what standing claims earned, plus
// adjustments, minus redemptions standing, minus what expired); the lots hold max(balance, 0)
// and none is below zero; each redemption spent its cost once and was given back at most once;
// a replayed key spent nothing; no purchase has two standing claims and no claim is reversed
// twice; the tier is the rule's (points earned in 365 days: earns minus their reversals).
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { LoyaltyOrderType } from '@boardwalk/contract/loyalty';
import { loyaltyAccounts, loyaltyLedger, loyaltyOrders, loyaltyRewards, loyaltyTiers, registrations } from '@boardwalk/db/schema';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../test-support/test-app.ts';
import { findLoyaltyMember, insertAccount } from './loyalty.repo.ts';
import { claimHotel, claimPurchase, claimTickets, type ClaimOutcome } from './loyalty-claims.service.ts';
import { expireLots } from './loyalty-expiry.service.ts';
import { tierOf } from './loyalty-redemptions.service.ts';
import { reverseInvalidClaims } from './loyalty-reversals.service.ts';
import { adjustPoints, loyaltyCoreOf, type LoyaltyCore } from './loyalty.service.ts';

let t: TestApp;
let core: LoyaltyCore;
const today = new Date().toISOString();
const stay = { arrival: today.slice(0, 10), departure: today.slice(0, 10), total: 150.75 };
const ORDERS = ['72000001', '72000002', '72000003'];
const CHECKS = ['PB-1', 'PB-2'];
const HOTELS = ['HP1', 'HP2'];
const ticketOf = (orderId: string) => `${orderId}00000001`;

const DAY = 24 * 60 * 60 * 1000;
const TIERS = [
  { name: 'Bronze', pointsToReach: 30 },
  { name: 'Silver', pointsToReach: 60 },
  { name: 'Gold', pointsToReach: 300 },
];
/** The rewards' ids, by cost. */
const rewards: { id: string; pointsCost: number }[] = [];

beforeAll(async () => {
  // Reversals and expiry runs are run by the property itself (and run again, as a retried job would).
  t = await createTestApp({ env: { DELIVERY_WORKERS: 'false' } });
  core = loyaltyCoreOf(t.app);
  await t.database.db.insert(loyaltyTiers).values(TIERS);
  for (const pointsCost of [5, 20, 33]) {
    const [row] = await t.database.db
      .insert(loyaltyRewards)
      .values({ name: `Reward of ${pointsCost}`, pointsCost })
      .returning();
    rewards.push({ id: row!.id, pointsCost });
  }
});
afterAll(() => t.close());

/** Reservations the property cancelled (a claim's email change keeps the state). */
const cancelled = new Set<string>();

async function resetPurchases() {
  await t.database.db.delete(loyaltyAccounts);
  cancelled.clear();
  for (const orderId of ORDERS)
    await putOrder(t.app, orderId, anOrder([{ barcode: ticketOf(orderId), price: 33.33 }], { orderDate: today }));
  for (const id of CHECKS) await setCheck(id, false);
  for (const id of HOTELS) await setHotel(id, false);
}
const setCheck = (id: string, refunded: boolean) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/integrations/checks/${id}`,
    headers: integrationAuth,
    payload: { checkNumber: id, orderDate: today, terminalId: 'FB-1', total: 19.99, refunded },
  });
const setHotel = (id: string, isCancelled: boolean, email?: string) => {
  if (isCancelled) cancelled.add(id);
  return t.app.inject({
    method: 'PUT',
    url: `/api/integrations/reservations/${id}`,
    headers: integrationAuth,
    payload: { ...stay, cancelled: isCancelled, ...(email && { email }) },
  });
};
/** A guest claims only what is under their email: the purchase is put under the new member's first. */
async function putUnder(type: LoyaltyOrderType, source: string, email: string) {
  if (type === 'hotel') await setHotel(source, cancelled.has(source), email);
  if (type === 'ticket') {
    const registration = { barcode: source, firstName: 'P', lastName: 'Q', email, phone: '3105550100' };
    await t.database.db.insert(registrations).values(registration).onConflictDoUpdate({ target: registrations.barcode, set: { email } });
  }
}

const command = fc.oneof(
  fc.record({
    op: fc.constant('claim' as const),
    type: fc.constantFrom<LoyaltyOrderType>('ticket', 'food-and-beverage', 'hotel'),
    n: fc.nat(1),
    staff: fc.boolean(),
  }),
  fc.record({
    op: fc.constant('refund' as const),
    type: fc.constantFrom<LoyaltyOrderType>('ticket', 'food-and-beverage', 'hotel'),
    n: fc.nat(1),
  }),
  fc.record({
    op: fc.constant('reverse' as const),
    type: fc.constantFrom<LoyaltyOrderType>('ticket', 'food-and-beverage', 'hotel'),
    n: fc.nat(1),
  }),
  fc.record({ op: fc.constant('redeem' as const), member: fc.nat(4), reward: fc.nat(2), key: fc.nat(3) }),
  fc.record({ op: fc.constant('replay' as const), i: fc.nat(4) }),
  fc.record({ op: fc.constant('unredeem' as const), i: fc.nat(4) }),
  fc.record({ op: fc.constant('adjust' as const), member: fc.nat(4), points: fc.integer({ min: -40, max: 40 }).filter((p) => p !== 0) }),
  fc.record({ op: fc.constant('expire' as const), months: fc.integer({ min: 1, max: 14 }) }),
);

/** The test's own account of each member: what it earned, adjusted, spent, by its standing claims and redemptions. */
interface Model {
  earned: Map<string, number>;
  adjusted: Map<string, number>;
  spent: Map<string, number>;
  /** Standing claims by source: the account and what it earned. */
  standing: Map<string, { accountId: string; points: number }>;
  redemptions: { id: string; accountId: string; cost: number; reversed: boolean }[];
  /** Idempotency keys used, with what they redeemed. */
  keys: Map<string, { accountId: string; card: string; rewardId: string; body: string }>;
  accounts: { id: string; card: string }[];
  /** How far the expiry runs' clock is ahead of now. */
  clockMs: number;
}
const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);

/** The invariants, after every step. */
async function checkInvariants(model: Model) {
  const { rows } = await t.database.executeSql(
    `select a.id,
       coalesce((select sum(points) from loyalty_ledger l where l.account_id = a.id), 0)::int as balance,
       coalesce((select -sum(points) from loyalty_ledger l where l.account_id = a.id and l.kind = 'expired'), 0)::int as expired,
       coalesce((select sum(points) from loyalty_ledger l where l.account_id = a.id and l.points > 0
         and not (l.kind = 'redemption-reversal' and exists (select 1 from loyalty_redemption_lots rl where rl.redemption_id = l.redemption_id))), 0)::int as given,
       coalesce((select sum(remaining) from loyalty_lots k where k.account_id = a.id), 0)::int as kept,
       coalesce((select sum(points) from loyalty_lots k where k.account_id = a.id), 0)::int as lotted,
       coalesce((select min(remaining) from loyalty_lots k where k.account_id = a.id), 0)::int as lowest
     from loyalty_accounts a`,
    [],
  );
  for (const row of rows as {
    id: string;
    balance: number;
    expired: number;
    given: number;
    kept: number;
    lotted: number;
    lowest: number;
  }[]) {
    const modelled = (model.earned.get(row.id) ?? 0) + (model.adjusted.get(row.id) ?? 0) - (model.spent.get(row.id) ?? 0) - row.expired;
    expect(row.balance, 'balance = the model').toBe(modelled);
    expect((await findLoyaltyMember(t.database.db, row.id))!.balance, 'read model balance = the ledger sum').toBe(row.balance);
    expect(row.kept, 'the lots hold max(balance, 0)').toBe(Math.max(row.balance, 0));
    expect(row.lotted, 'every positive entry opened a lot of its points (a reversal gives back to the lots it came from)').toBe(row.given);
    expect(row.lowest, 'no lot below zero').toBeGreaterThanOrEqual(0);
    const earned = model.earned.get(row.id) ?? 0;
    const tier = [...TIERS].reverse().find((x) => earned >= x.pointsToReach)?.name ?? null;
    expect((await tierOf(t.database.db, row.id, new Date()))?.name ?? null, 'tier = the rule').toBe(tier);
  }
  const { rows: redemptions } = await t.database.executeSql(
    `select r.id, r.reversed_at is not null as reversed,
       (select count(*) from loyalty_ledger l where l.redemption_id = r.id and l.kind = 'redemption')::int as spends,
       (select count(*) from loyalty_ledger l where l.redemption_id = r.id and l.kind = 'redemption' and l.points = -r.points_spent)::int as spent,
       (select count(*) from loyalty_ledger l where l.redemption_id = r.id and l.kind = 'redemption-reversal')::int as backs,
       (select count(*) from loyalty_ledger l where l.redemption_id = r.id and l.kind = 'redemption-reversal' and l.points = r.points_spent)::int as back
     from loyalty_redemptions r`,
    [],
  );
  expect(redemptions).toHaveLength(model.redemptions.length);
  for (const r of redemptions as { id: string; reversed: boolean; spends: number; spent: number; backs: number; back: number }[]) {
    expect([r.spends, r.spent], 'a redemption spends its cost once').toEqual([1, 1]);
    expect([r.backs, r.back], 'a reversed redemption is given back once').toEqual(r.reversed ? [1, 1] : [0, 0]);
    expect(model.redemptions.find((m) => m.id === r.id)?.reversed).toBe(r.reversed);
  }
  const standingTwice = await t.database.db.$count(
    loyaltyOrders,
    sql`${loyaltyOrders.reversedAt} is null and exists (select 1 from loyalty_orders o2 where o2.source_type = ${loyaltyOrders.sourceType}
          and o2.source_id = ${loyaltyOrders.sourceId} and o2.reversed_at is null and o2.id <> ${loyaltyOrders.id})`,
  );
  expect(standingTwice).toBe(0);
  const reversedTwice = await t.database.executeSql(
    `select loyalty_order_id from loyalty_ledger where kind = 'reversal' group by loyalty_order_id having count(*) > 1`,
  );
  expect(reversedTwice.rows).toEqual([]);
  // Every reversed claim has its reversal entry, and every reversal a reversed claim.
  const unmatched = await t.database.db.$count(
    loyaltyOrders,
    sql`(${loyaltyOrders.reversedAt} is null) = exists (select 1 from ${loyaltyLedger} r where r.loyalty_order_id = ${loyaltyOrders.id} and r.kind = 'reversal')`,
  );
  expect(unmatched).toBe(0);
}
const sourceOf = (type: LoyaltyOrderType, n: number) =>
  type === 'ticket' ? ticketOf(ORDERS[n]!) : type === 'food-and-beverage' ? CHECKS[n]! : HOTELS[n]!;

let run = 0;
/** What the runs did, so that the property is seen to cover every kind of step. */
const seen = { redeemed: 0, replayed: 0, unredeemed: 0, adjusted: 0, expired: 0 };

const postRedemption = (card: string, rewardId: string, idempotencyKey: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/integrations/loyalty/redemptions',
    headers: integrationAuth,
    payload: { card, rewardId, idempotencyKey },
  });

/** A redemption (a new key or a replayed one), its reversal, a staff adjustment or an expiry run with the clock moved on. */
async function spendOrExpire(
  c:
    | { op: 'redeem'; member: number; reward: number; key: number }
    | { op: 'replay'; i: number }
    | { op: 'unredeem'; i: number }
    | { op: 'adjust'; member: number; points: number }
    | { op: 'expire'; months: number },
  model: Model,
) {
  const balanceOf = async (accountId: string) => (await findLoyaltyMember(t.database.db, accountId))!.balance;
  if (c.op === 'expire') {
    model.clockMs += c.months * 30 * DAY;
    seen.expired += await expireLots(core, new Date(Date.now() + model.clockMs));
    return;
  }
  if (c.op === 'replay') {
    // The till sends a redemption again (its answer was lost): the same answer, nothing spent.
    const [key, earlier] = [...model.keys].at(c.i % Math.max(model.keys.size, 1)) ?? [];
    if (!key || !earlier) return;
    const before = await balanceOf(earlier.accountId);
    const res = await postRedemption(earlier.card, earlier.rewardId, key);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(earlier.body);
    expect(await balanceOf(earlier.accountId), 'a replayed key spends nothing').toBe(before);
    seen.replayed++;
    return;
  }
  if (c.op === 'unredeem') {
    const redemption = model.redemptions[c.i % Math.max(model.redemptions.length, 1)];
    if (!redemption) return;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/integrations/loyalty/redemptions/${redemption.id}/reverse`,
      headers: integrationAuth,
    });
    expect(res.statusCode, res.body).toBe(200);
    if (!redemption.reversed) add(model.spent, redemption.accountId, -redemption.cost);
    seen.unredeemed++;
    redemption.reversed = true;
    return;
  }
  const account = model.accounts[c.member % Math.max(model.accounts.length, 1)];
  if (!account) return;
  if (c.op === 'adjust') {
    const before = await balanceOf(account.id);
    const adjusted = await core.db
      .transaction((tx) =>
        adjustPoints(tx, core.changes, { accountId: account.id, points: c.points, reason: 'property', staffMember: 'gina' }),
      )
      .then(
        () => true,
        (error: { statusCode?: number }) => (expect(error.statusCode).toBe(400), false),
      );
    expect(adjusted, 'only a deduction below zero is refused').toBe(c.points > 0 || before + c.points >= 0);
    if (adjusted) add(model.adjusted, account.id, c.points);
    if (adjusted) seen.adjusted++;
    return;
  }
  const reward = rewards[c.reward]!;
  const key = `run${run}-key${c.key}`;
  const before = await balanceOf(account.id);
  const res = await postRedemption(account.card, reward.id, key);
  const earlier = model.keys.get(key);
  if (earlier) {
    // A replayed key: the same answer for the same redemption, a refusal for another; nothing spent either way.
    if (earlier.card === account.card && earlier.rewardId === reward.id) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(earlier.body);
    } else expect(res.statusCode).toBe(409);
    expect(await balanceOf(account.id), 'a replayed key spends nothing').toBe(before);
    return;
  }
  if (before < reward.pointsCost) {
    expect(res.statusCode, res.body).toBe(409);
    return;
  }
  expect(res.statusCode, res.body).toBe(201);
  const { redemptionId } = res.json() as { redemptionId: string };
  model.keys.set(key, { accountId: account.id, card: account.card, rewardId: reward.id, body: res.body });
  model.redemptions.push({ id: redemptionId, accountId: account.id, cost: reward.pointsCost, reversed: false });
  add(model.spent, account.id, reward.pointsCost);
  seen.redeemed++;
}

it('keeps every balance the sum of its ledger and the model, the lots whole, each spend and reversal once, the tier the rule', async () => {
  let member = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 16 }), async (commands) => {
      await resetPurchases();
      run++;
      const model: Model = {
        earned: new Map(),
        adjusted: new Map(),
        spent: new Map(),
        standing: new Map(),
        redemptions: [],
        keys: new Map(),
        accounts: [],
        clockMs: 0,
      };
      for (const c of commands) {
        if (c.op === 'redeem' || c.op === 'replay' || c.op === 'unredeem' || c.op === 'adjust' || c.op === 'expire') {
          await spendOrExpire(c, model);
          await checkInvariants(model);
          continue;
        }
        const source = sourceOf(c.type, c.n);
        if (c.op === 'claim') {
          const email = `p${++member}@example.com`;
          const accountId = (await insertAccount(t.database.db, {
            email,
            firstName: 'P',
            lastName: 'Q',
            createdBy: c.staff ? 'staff' : 'guest',
            createdAt: new Date(),
          }))!;
          model.accounts.push({ id: accountId, card: (await findLoyaltyMember(t.database.db, accountId))!.cardToken });
          const by = c.staff ? ({ kind: 'staff', username: 'e2e.admin@boardwalk.test' } as const) : ({ kind: 'guest' } as const);
          if (!c.staff) await putUnder(c.type, source, email);
          const claim =
            c.type === 'ticket'
              ? claimTickets(core, { orderId: ORDERS[c.n]!, email, accountId }, by)
              : c.type === 'hotel'
                ? claimHotel(core, { reservationNumber: source, email, accountId }, by)
                : claimPurchase(core, { checkNumber: source, email, accountId }, by);
          const outcome = await claim.catch((error: { statusCode?: number }) => expect(error.statusCode).toBe(400));
          if (outcome && 'loyaltyOrders' in (outcome as ClaimOutcome)) {
            const { loyaltyOrders: claimed } = outcome as ClaimOutcome;
            for (const order of claimed) {
              model.standing.set(`${c.type}:${order.sourceId}`, { accountId, points: order.points });
              add(model.earned, accountId, order.points);
            }
          }
        } else if (c.op === 'refund') {
          if (c.type === 'ticket') {
            await putOrder(t.app, ORDERS[c.n]!, anOrder([{ barcode: source, price: 33.33, refunded: true }], { orderDate: today }));
          } else if (c.type === 'hotel') await setHotel(source, true);
          else await setCheck(source, true);
          await reverseInvalidClaims(core, c.type, source, null);
          const claim = model.standing.get(`${c.type}:${source}`);
          if (claim) {
            add(model.earned, claim.accountId, -claim.points);
            model.standing.delete(`${c.type}:${source}`);
          }
        } else {
          await reverseInvalidClaims(core, c.type, source, null);
        }
        await checkInvariants(model);
      }
    }),
    {
      numRuns: 30,
      // One interleaving with every kind of step, then random ones.
      examples: [
        [
          [
            { op: 'claim', type: 'hotel', n: 0, staff: true },
            { op: 'claim', type: 'ticket', n: 1, staff: false },
            { op: 'redeem', member: 0, reward: 2, key: 0 },
            { op: 'replay', i: 0 },
            { op: 'redeem', member: 1, reward: 1, key: 1 },
            { op: 'unredeem', i: 0 },
            { op: 'unredeem', i: 0 },
            { op: 'adjust', member: 0, points: -10 },
            { op: 'adjust', member: 1, points: 15 },
            { op: 'refund', type: 'hotel', n: 0 },
            { op: 'expire', months: 13 },
            { op: 'claim', type: 'food-and-beverage', n: 0, staff: true },
            { op: 'redeem', member: 2, reward: 0, key: 2 },
          ],
        ],
      ],
    },
  );
  for (const [step, n] of Object.entries(seen)) expect(n, step).toBeGreaterThan(0);
  // Thirty interleavings of up to 16 steps, each step checked: a minute or more on a busy machine.
}, 300_000);
