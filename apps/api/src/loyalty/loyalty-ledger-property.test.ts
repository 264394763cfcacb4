// A property over random sequences of claims, feed refunds, cancellations and repeated
// reversal jobs: every balance is what its standing claims earned, no purchase has two
// standing claims, and no claim is reversed twice.
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { LoyaltyOrderType } from '@boardwalk/contract/loyalty';
import { loyaltyAccounts, loyaltyLedger, loyaltyOrders, registrations } from '@boardwalk/db/schema';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../test-support/test-app.ts';
import { insertAccount } from './loyalty.repo.ts';
import { claimHotel, claimPurchase, claimTickets } from './loyalty-claims.service.ts';
import { reverseInvalidClaims } from './loyalty-reversals.service.ts';
import { loyaltyCoreOf, type LoyaltyCore } from './loyalty.service.ts';

let t: TestApp;
let core: LoyaltyCore;
const today = new Date().toISOString();
const stay = { arrival: today.slice(0, 10), departure: today.slice(0, 10), total: 150.75 };
const ORDERS = ['72000001', '72000002', '72000003'];
const CHECKS = ['PB-1', 'PB-2'];
const HOTELS = ['HP1', 'HP2'];
const ticketOf = (orderId: string) => `${orderId}00000001`;

beforeAll(async () => {
  // Reversals are run by the property itself (and run again, as a retried job would).
  t = await createTestApp({ env: { DELIVERY_WORKERS: 'false' } });
  core = loyaltyCoreOf(t.app);
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
);
const sourceOf = (type: LoyaltyOrderType, n: number) =>
  type === 'ticket' ? ticketOf(ORDERS[n]!) : type === 'food-and-beverage' ? CHECKS[n]! : HOTELS[n]!;

it('keeps every balance equal to what its standing claims earned, one standing claim per purchase, one reversal per claim', async () => {
  let member = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 12 }), async (commands) => {
      await resetPurchases();
      for (const c of commands) {
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
          const by = c.staff ? ({ kind: 'staff', username: 'e2e.admin@boardwalk.test' } as const) : ({ kind: 'guest' } as const);
          if (!c.staff) await putUnder(c.type, source, email);
          const claim =
            c.type === 'ticket'
              ? claimTickets(core, { orderId: ORDERS[c.n]!, email, accountId }, by)
              : c.type === 'hotel'
                ? claimHotel(core, { reservationNumber: source, email, accountId }, by)
                : claimPurchase(core, { checkNumber: source, email, accountId }, by);
          await claim.catch((error: { statusCode?: number }) => expect(error.statusCode).toBe(400));
        } else if (c.op === 'refund') {
          if (c.type === 'ticket') {
            await putOrder(t.app, ORDERS[c.n]!, anOrder([{ barcode: source, price: 33.33, refunded: true }], { orderDate: today }));
          } else if (c.type === 'hotel') await setHotel(source, true);
          else await setCheck(source, true);
          await reverseInvalidClaims(core, c.type, source);
        } else {
          await reverseInvalidClaims(core, c.type, source);
        }
      }
      const { rows: balances } = await t.database.executeSql(
        `select a.id, coalesce((select sum(points) from loyalty_ledger l where l.account_id = a.id), 0)::int as balance,
                coalesce((select sum(e.points) from loyalty_orders o join loyalty_ledger e on e.loyalty_order_id = o.id and e.kind = 'earn'
                          where o.account_id = a.id and o.reversed_at is null), 0)::int as standing
         from loyalty_accounts a`,
      );
      for (const row of balances as { balance: number; standing: number }[]) expect(row.balance).toBe(row.standing);
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
    }),
    { numRuns: 25 },
  );
});
