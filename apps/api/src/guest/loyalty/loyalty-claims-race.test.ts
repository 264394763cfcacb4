// A purchase can be claimed once, by one account: 100 new accounts claiming one purchase at
// the same moment get exactly one success (the unique index on standing claims decides). The
// order has a ticket for each of them (each racer holds one, so each may claim the order), and
// the winner takes every ticket of it.
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
        payload: { email, firstName: 'Race', lastName: `No ${i}` },
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
