// Fuzzed bodies against the guest calls: never a 5xx, and nothing written on a 4xx.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anOrder, putOrder, snapshotGuestTables } from '../../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await putOrder(t.app, '40000001', anOrder([{ barcode: '4000000000000011', holder: {} }]));
});
afterAll(() => t.close());

const valid = {
  orderId: '40000001',
  barcode: '4000000000000011',
  firstName: 'Ana',
  lastName: 'Lopez',
  email: 'ana@example.com',
  phone: '3105550100',
  optInEmailMarketing: false,
  optInSMSMarketing: false,
};

/** Valid bodies with one field replaced by anything, random objects, and random JSON values. */
const bodies = fc.oneof(
  fc
    .record({
      key: fc.constantFrom(...Object.keys(valid), 'hashUrl', 'shareId', 'isIOS', '__proto__', 'extra'),
      value: fc.oneof(fc.jsonValue(), fc.string({ unit: 'binary' })),
    })
    .map(({ key, value }) => ({ ...valid, [key]: value })),
  fc.dictionary(
    fc.constantFrom(...Object.keys(valid), 'hashUrl', 'shareId'),
    fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
  ),
  fc.jsonValue(),
);

describe.each(['/api/login/', '/api/register/'])('fuzzing %s', (url) => {
  it('never answers 5xx and writes nothing on 4xx', async () => {
    let ip = 0;
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const before = await snapshotGuestTables(t.database.db);
        const res = await t.app.inject({
          method: 'POST',
          url,
          payload: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
          remoteAddress: `10.7.${(++ip >> 8) & 255}.${ip & 255}`,
        });
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode >= 400) {
          expect(res.json().message).toEqual(expect.any(String));
          expect(await snapshotGuestTables(t.database.db)).toBe(before);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('answers 4xx to bodies that are not JSON objects', async () => {
    for (const payload of ['', 'null', '[]', '"x"', '{"orderId":', '\u0000']) {
      const res = await t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    const text = await t.app.inject({ method: 'POST', url, payload: 'a=b', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(400);
    const form = await t.app.inject({
      method: 'POST',
      url,
      payload: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
  });
});
