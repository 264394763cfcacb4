// Fuzzed bodies and path values against the wristband calls (the guest's activation, the
// gate's lookup, the staff Deactivate): never a 5xx, and nothing written on a 4xx.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder, staff } from '../../../test-support/fixtures.ts';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../../test-support/test-app.ts';
import { TICKET_TOKENS } from '../ticket/ticket-tokens.service.ts';

let t: TestApp;
let admin: StaffLogin;
let valid: Record<string, unknown>;
let bindingId: string;

beforeAll(async () => {
  t = await createTestApp();
  await staff.wristbandPack(t.database.db, { merchItemId: '770' });
  await putOrder(
    t.app,
    '70000001',
    anOrder([
      { barcode: '7000000000000011', packId: '770' },
      { barcode: '7000000000000028', packId: '770' },
    ]),
  );
  admin = await loginAs(t.app, { accessLevel: 1000 });
  const token = await t.app.keys.signToken(TICKET_TOKENS.wristband.purpose, '7000000000000011', 3600);
  valid = { barcode: '7000000000000011', wristbandBarcode: 'FUZZ000000000001', wristbandActivateToken: token };
  // One band already bound, for the lookup and Deactivate to find.
  const [row] = await t.database.db
    .insert(schema.wristbandBindings)
    .values({ wristbandBarcode: 'FUZZ000000000000', barcode: '7000000000000028', orderId: '70000001' })
    .returning();
  bindingId = row!.id;
});
afterAll(() => t.close());

/** Every binding and audit entry: equal snapshots mean nothing was written. */
async function snapshot() {
  const [bindings, audit] = await Promise.all([
    t.database.db.select().from(schema.wristbandBindings),
    t.database.db.select().from(schema.auditLog),
  ]);
  return JSON.stringify({ bindings, audit: audit.length });
}

/** Valid bodies with one field replaced by anything, random objects, and random JSON values. */
const bodies = () =>
  fc.oneof(
    fc
      .record({
        key: fc.constantFrom('barcode', 'wristbandBarcode', 'wristbandActivateToken', 'orderId', '__proto__', 'extra'),
        value: fc.oneof(fc.jsonValue(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme', minLength: 16, maxLength: 16 })),
      })
      .map(({ key, value }) => ({ ...valid, [key]: value })),
    fc.dictionary(
      fc.constantFrom('barcode', 'wristbandBarcode', 'wristbandActivateToken'),
      fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
    ),
    fc.jsonValue(),
  );

/** Path values: anything, 16 characters of anything, real-looking codes and GUIDs. */
const pathValues = () =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', minLength: 16, maxLength: 16 }),
    fc.stringMatching(/^[A-Za-z0-9]{16}$/),
    fc.uuid(),
    fc.constantFrom('FUZZ000000000000', 'fuzz000000000000', '%00', '..', 'a'.repeat(5000)),
  );

async function expectSafe(res: { statusCode: number; json(): { message?: unknown } }, before: string, writes: boolean) {
  expect(res.statusCode).toBeLessThan(500);
  if (res.statusCode >= 400) {
    expect(res.json().message).toEqual(expect.any(String));
    expect(await snapshot()).toBe(before);
  } else if (!writes) {
    expect(await snapshot()).toBe(before);
  }
}

describe('fuzzing the wristband calls', () => {
  it('POST /api/wristband/activate/: never 5xx, nothing written on a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(bodies(), async (body) => {
        const before = await snapshot();
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/wristband/activate/',
          payload: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        await expectSafe(res, before, true);
      }),
      { numRuns: 200 },
    );
  });

  it('answers 4xx to activation bodies that are not JSON objects', async () => {
    for (const payload of ['', 'null', '[]', '"x"', '{"barcode":', '\u0000']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/wristband/activate/',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
  });

  it('GET /api/integrations/wristbands/{code}: never 5xx, never writes', async () => {
    await fc.assert(
      fc.asyncProperty(pathValues(), async (value) => {
        const before = await snapshot();
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/integrations/wristbands/${encodeURIComponent(value)}`,
          headers: integrationAuth,
        });
        await expectSafe(res, before, false);
      }),
      { numRuns: 200 },
    );
  });

  it('POST /api/admin/wristbands/deactivate/{id}: never 5xx, nothing written on a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(pathValues(), fc.constant(bindingId)), fc.jsonValue(), async (value, body) => {
        const before = await snapshot();
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/admin/wristbands/deactivate/${encodeURIComponent(value)}`,
          headers: { ...admin.headers, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        await expectSafe(res, before, true);
      }),
      { numRuns: 200 },
    );
  });
});
