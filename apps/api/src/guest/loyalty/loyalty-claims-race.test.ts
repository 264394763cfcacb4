// A purchase can be claimed once, by one account: 100 new accounts claiming one purchase at
// the same moment get exactly one success (the unique index on standing claims decides). The
// order has a ticket for each of them (each racer holds one, so each may claim the order), and
// the winner takes every ticket of it. And a new account's guest adds one purchase online, however
// many claims arrive at once.
import { proofOf } from '../../../test-support/loyalty.fixtures.ts';
import { loyaltyLedger, loyaltyOrders } from '@boardwalk/db/schema';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const tickets = Array.from({ length: 100 }, (_, i) => ({
    barcode: `7100000000${String(i).padStart(6, '0')}`,
    price: 1,
    holder: { email: `racer${i}@example.com` },
  }));
  await putOrder(t.app, '71000001', anOrder(tickets, { orderDate: new Date().toISOString() }));
});
afterAll(() => t.close());

it('lets exactly one of 100 concurrent claims of one purchase succeed', async () => {
  const members = await Promise.all(
    Array.from({ length: 100 }, async (_, i) => {
      const email = `racer${i}@example.com`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/loyalty/create',
        payload: { email, firstName: 'Race', lastName: `No ${i}`, proof: proofOf(t, email) },
        remoteAddress: `10.71.0.${i}`,
      });
      expect(res.statusCode).toBe(200);
      return { email, userID: res.body, address: `10.71.0.${i}` };
    }),
  );
  const answers = await Promise.all(
    members.map(({ email, userID, address }) =>
      t.app.inject({
        method: 'POST',
        url: '/api/loyalty/tickets/',
        payload: { orderId: '71000001', email, userID },
        remoteAddress: address,
      }),
    ),
  );
  const statuses = answers.map((a) => a.statusCode);
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s === 400)).toHaveLength(99);
  for (const a of answers.filter((x) => x.statusCode === 400)) expect(a.json().message).toBe('This purchase has already been claimed.');
  const claims = await t.database.db.select().from(loyaltyOrders);
  expect(claims).toHaveLength(100);
  expect(new Set(claims.map((c) => c.accountId)).size).toBe(1);
  const ledger = await t.database.db.select().from(loyaltyLedger);
  expect(ledger).toHaveLength(100);
  expect(ledger.reduce((sum, e) => sum + e.points, 0)).toBe(100);
});

it("lets a new account's guest add one purchase online, also with 10 claims of 10 purchases at the same moment", async () => {
  const email = 'one.at.a.time@example.com';
  for (let i = 0; i < 10; i++) {
    await putOrder(
      t.app,
      String(72000001 + i),
      anOrder([{ barcode: `72000000000000${String(i).padStart(2, '0')}`, price: 10 }], {
        orderDate: new Date().toISOString(),
        purchaser: { firstName: 'Una', lastName: 'Vez', email },
      }),
    );
  }
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/loyalty/create',
    payload: { email, firstName: 'Una', lastName: 'Vez', proof: proofOf(t, email) },
    remoteAddress: '10.72.0.1',
  });
  expect(created.statusCode).toBe(200);
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      t.app.inject({
        method: 'POST',
        url: '/api/loyalty/tickets/',
        payload: { orderId: String(72000001 + i), email, userID: created.body },
        remoteAddress: `10.72.1.${i}`,
      }),
    ),
  );
  expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
  for (const a of answers.filter((x) => x.statusCode !== 200)) {
    expect(a.statusCode).toBe(400);
    expect(a.json().message).toMatch(/^This account has already added a purchase online\./);
  }
  const { rows } = await t.database.executeSql(
    `select count(*)::int as n from loyalty_orders o join loyalty_accounts a on a.id = o.account_id where a.email = $1`,
    [email],
  );
  expect(rows[0]?.n).toBe(1);
});
