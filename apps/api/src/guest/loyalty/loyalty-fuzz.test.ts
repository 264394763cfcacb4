// Fuzzed bodies against the loyalty calls: never a 5xx, and nothing written on a 4xx.
import fc from 'fast-check';
import { loyaltyAccounts, loyaltyLedger, loyaltyOrders } from '@boardwalk/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { proofOf } from '../../../test-support/loyalty.fixtures.ts';

let t: TestApp;
let userID = '';
const email = 'fuzz@example.com';
beforeAll(async () => {
  t = await createTestApp();
  await putOrder(t.app, '73000001', anOrder([{ barcode: '7300000000000011', price: 10 }], { orderDate: new Date().toISOString() }));
  const payload = { email, firstName: 'F', lastName: 'Z', proof: proofOf(t, email) };
  userID = (await t.app.inject({ method: 'POST', url: '/api/loyalty/create', payload })).body;
});
afterAll(() => t.close());

const counts = async () =>
  [
    await t.database.db.$count(loyaltyAccounts),
    await t.database.db.$count(loyaltyOrders),
    await t.database.db.$count(loyaltyLedger),
  ].join();

const calls: [string, Record<string, unknown>][] = [
  ['/api/loyalty/verify', { email }],
  ['/api/loyalty/confirm', { email, code: '123456' }],
  ['/api/loyalty/create', { email: 'new@example.com', firstName: 'A', lastName: 'B', proof: 'x.y.z' }],
  ['/api/loyalty/tickets/', { orderId: '73000001', email, userID: '' }],
  ['/api/loyalty/purchase/', { checkNumber: '4012', email, userID: '', checkID: 'FB-1' }],
  ['/api/loyalty/hotels/', { reservationNumber: 'H1', email, userID: '' }],
];

describe.each(calls)('fuzzing %s', (url, template) => {
  it('never answers 5xx and writes nothing on 4xx', async () => {
    const valid = { ...template, ...('userID' in template && { userID }) };
    const bodies = fc.oneof(
      fc
        .record({
          key: fc.constantFrom(...Object.keys(valid), '__proto__', 'constructor', 'extra'),
          value: fc.oneof(fc.jsonValue(), fc.string({ unit: 'binary' }), fc.string({ maxLength: 5000 })),
        })
        .map(({ key, value }) => ({ ...valid, [key]: value })),
      fc.dictionary(fc.constantFrom(...Object.keys(valid)), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null))),
      fc.jsonValue(),
    );
    let ip = 0;
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const before = await counts();
        const res = await t.app.inject({
          method: 'POST',
          url,
          payload: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
          remoteAddress: `10.73.${(++ip >> 8) & 255}.${ip & 255}`,
        });
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode >= 400) {
          expect(res.json().message).toEqual(expect.any(String));
          expect(await counts()).toBe(before);
        }
      }),
      { numRuns: 150 },
    );
  });
});
