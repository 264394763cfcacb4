// A property over random campaigns (multipliers and fixed bonuses, budgets and caps or none) and
// random batches of claims made at once, refunds and their reversal jobs: after every step each
// balance is the sum of its ledger entries, no campaign gave past its budget, no member received
// past a campaign's cap, every bonus is the best campaign's or cut, and a reversed claim's
// bonus is taken back whole.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loyaltyAccounts, loyaltyCampaigns } from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';
import { operatingDay } from '../platform/park-time.ts';
import { insertAccount } from './loyalty.repo.ts';
import { claimTickets } from './loyalty-claims.service.ts';
import { reverseInvalidClaims } from './loyalty-reversals.service.ts';
import { loyaltyCoreOf, type LoyaltyCore } from './loyalty.service.ts';

let t: TestApp;
let core: LoyaltyCore;
beforeAll(async () => {
  t = await createTestApp({ env: { DELIVERY_WORKERS: 'false' } });
  core = loyaltyCoreOf(t.app);
});
afterAll(() => t.close());

const campaign = fc.record({
  multiplier: fc.option(fc.constantFrom(1.25, 1.5, 2, 3), { nil: null }),
  bonusPoints: fc.integer({ min: 1, max: 60 }),
  budget: fc.option(fc.integer({ min: 1, max: 300 }), { nil: null }),
  capPerMember: fc.option(fc.integer({ min: 1, max: 120 }), { nil: null }),
});
const step = fc.oneof(
  fc.record({
    op: fc.constant('claims' as const),
    claims: fc.array(fc.record({ member: fc.nat(3), price: fc.integer({ min: 0, max: 90 }) }), { minLength: 1, maxLength: 6 }),
  }),
  fc.record({ op: fc.constant('refund' as const), i: fc.nat(30) }),
);

let order = 0;
async function checkInvariants() {
  const { rows: balances } = await t.database.executeSql(
    `select a.id, coalesce(sum(l.points), 0)::int as ledger,
       coalesce((select sum(remaining) from loyalty_lots k where k.account_id = a.id), 0)::int as kept
     from loyalty_accounts a left join loyalty_ledger l on l.account_id = a.id group by a.id`,
  );
  for (const b of balances as { ledger: number; kept: number }[]) expect(b.kept).toBe(Math.max(b.ledger, 0));
  const { rows: budgets } = await t.database.executeSql(
    `select c.budget, coalesce(sum(l.points) filter (where l.kind = 'bonus'), 0)::int as given
     from loyalty_campaigns c left join loyalty_ledger l on l.campaign_id = c.id group by c.id`,
  );
  for (const b of budgets as { budget: number | null; given: number }[])
    if (b.budget !== null) expect(b.given).toBeLessThanOrEqual(b.budget);
  const { rows: caps } = await t.database.executeSql(
    `select c.cap_per_member as cap, sum(l.points)::int as given from loyalty_ledger l join loyalty_campaigns c on c.id = l.campaign_id
     where l.kind = 'bonus' group by c.id, l.account_id`,
  );
  for (const c of caps as { cap: number | null; given: number }[]) if (c.cap !== null) expect(c.given).toBeLessThanOrEqual(c.cap);
  // A reversed claim's bonus is taken back whole; a standing claim's is not.
  const { rows: orders } = await t.database.executeSql(
    `select o.reversed_at is not null as reversed,
       coalesce(sum(l.points) filter (where l.kind in ('bonus', 'bonus-reversal')), 0)::int as bonus,
       count(*) filter (where l.kind = 'bonus')::int as bonuses
     from loyalty_orders o left join loyalty_ledger l on l.loyalty_order_id = o.id group by o.id`,
  );
  for (const o of orders as { reversed: boolean; bonus: number; bonuses: number }[]) {
    expect(o.bonuses).toBeLessThanOrEqual(1);
    if (o.reversed) expect(o.bonus).toBe(0);
  }
}

it('keeps every balance the sum of its entries, every campaign within its budget and every member within its cap', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(campaign, { minLength: 1, maxLength: 3 }),
      fc.array(step, { minLength: 1, maxLength: 12 }),
      async (campaigns, steps) => {
        await t.database.db.delete(loyaltyAccounts);
        await t.database.db.delete(loyaltyCampaigns);
        const day = operatingDay(new Date(), core.config.parkTimezone);
        await t.database.db.insert(loyaltyCampaigns).values(
          campaigns.map((c, i) => ({
            name: `Property ${i}`,
            kind: c.multiplier === null ? 'bonus' : 'multiplier',
            multiplier: c.multiplier,
            bonusPoints: c.multiplier === null ? c.bonusPoints : null,
            validFrom: day,
            validTo: day,
            budget: c.budget,
            capPerMember: c.capPerMember,
          })),
        );
        const members: { accountId: string; email: string }[] = [];
        for (let m = 0; m < 4; m++) {
          const email = `property${m}-${order}@example.com`;
          members.push({
            email,
            accountId: (await insertAccount(t.database.db, {
              email,
              firstName: 'P',
              lastName: `${m}`,
              createdBy: 'staff',
              createdAt: new Date(),
            }))!,
          });
        }
        const claimed: { orderId: string; barcode: string; price: number }[] = [];
        for (const s of steps) {
          if (s.op === 'claims') {
            const batch: { orderId: string; barcode: string; price: number; member: { accountId: string; email: string } }[] = [];
            for (const c of s.claims) {
              const orderId = String(66_000_000 + ++order);
              const barcode = `${orderId}00000001`;
              await putOrder(t.app, orderId, anOrder([{ barcode, price: c.price }], { orderDate: new Date().toISOString() }));
              batch.push({ orderId, barcode, price: c.price, member: members[c.member]! });
            }
            const outcomes = await Promise.allSettled(
              batch.map((b) => claimTickets(core, { ...b.member, orderId: b.orderId }, { kind: 'staff', username: 'property' })),
            );
            outcomes.forEach((o, i) => {
              if (o.status === 'fulfilled') claimed.push(batch[i]!);
              else expect(String(o.reason)).toMatch(/no amount that earns points/);
            });
          } else if (claimed.length > 0) {
            const refund = claimed[s.i % claimed.length]!;
            await putOrder(t.app, refund.orderId, anOrder([{ barcode: refund.barcode, price: refund.price, refunded: true }]));
            await reverseInvalidClaims(core, 'ticket', refund.barcode, null);
            await reverseInvalidClaims(core, 'ticket', refund.barcode, null);
          }
          await checkInvariants();
        }
      },
    ),
    { numRuns: 15 },
  );
  // Runs differ in size (up to 72 claims); 15 take about 2.5 s alone, and CI once took past
  // the default 30 s on its loaded 2 cores.
}, 120_000);
