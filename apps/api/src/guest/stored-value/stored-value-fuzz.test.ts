// Fuzzed bodies against POST /api/stored-value/: never a 5xx, and nothing written (the page
// only reads: links, tickets, usage and the guest tables stay as they were).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder, snapshotGuestTables } from '../../../test-support/fixtures.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../../test-support/test-app.ts';

let t: TestApp;
let barcodeHash: string;
beforeAll(async () => {
  t = await createTestApp();
  await putOrder(t.app, '51000001', anOrder([{ barcode: '5100000000000011', category: 'Stored Value Card', credits: 5 }]));
  await t.app.inject({
    method: 'POST',
    url: '/api/integrations/usage',
    headers: integrationAuth,
    payload: {
      events: [{ barcode: '5100000000000011', attraction: 'Carousel', location: 'Main Pier', timestamp: new Date().toISOString() }],
    },
  });
  const login = await t.app.inject({ method: 'POST', url: '/api/login/', payload: { orderId: '51000001', barcode: '5100000000000011' } });
  barcodeHash = login.json().barcodeHash;
});
afterAll(() => t.close());

const snapshot = async () => {
  const [links, usage] = await Promise.all([
    t.database.db.select().from(schema.storedValueLinks),
    t.database.db.select().from(schema.attractionUsage),
  ]);
  return JSON.stringify({ guest: await snapshotGuestTables(t.database.db), links, usage });
};

/** The valid body with its hash replaced or edited, random objects and random JSON values. */
const bodies = fc.oneof(
  fc
    .oneof(fc.jsonValue(), fc.string({ unit: 'binary' }), fc.string({ unit: 'binary', minLength: 43, maxLength: 43 }))
    .map((barcodeHash) => ({
      barcodeHash,
    })),
  fc.nat({ max: 42 }).map((i) => ({ barcodeHash: `${barcodeHash.slice(0, i)}${barcodeHash.slice(i + 1)}` })),
  fc
    .record({ key: fc.constantFrom('barcode', 'orderId', '__proto__', 'extra', 'barcodeHash'), value: fc.jsonValue() })
    .map(({ key, value }) => ({ barcodeHash, [key]: value })),
  fc.dictionary(fc.constantFrom('barcodeHash', 'barcode', 'hashUrl'), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null))),
  fc.jsonValue(),
);

describe('fuzzing /api/stored-value/', () => {
  it('never answers 5xx and writes nothing', async () => {
    const before = await snapshot();
    let ip = 0;
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/stored-value/',
          payload: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
          remoteAddress: `10.9.${(++ip >> 8) & 255}.${ip & 255}`,
        });
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode >= 400) expect(res.json().message).toEqual(expect.any(String));
        else expect(res.json().barcode).toBe('5100000000000011');
      }),
      { numRuns: 200 },
    );
    expect(await snapshot()).toBe(before);
  });

  it('answers 4xx to bodies that are not JSON objects', async () => {
    const url = '/api/stored-value/';
    for (const payload of ['', 'null', '[]', '"x"', '{"barcodeHash":', '\u0000']) {
      const res = await t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    const form = await t.app.inject({
      method: 'POST',
      url,
      payload: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
  });
});
