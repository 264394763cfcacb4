// Privacy for a person known by name only (issue 47, item 6): staff find a ticket holder with
// no email or phone (often a child) by their first and last name plus an order id, a barcode
// or the order's date; the export shows their ticket, and the erasure empties their name on it
// and leaves the order's other people as they are. A name whose ticket has an email or phone
// finds that person as a query by it would. Audited under the keyed hash, never the name.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_QUERY_MESSAGE, type PrivacyErasure, type PrivacyExport } from '@boardwalk/contract/privacy';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';

let t: TestApp;
let officer: StaffLogin;

const PURCHASER = { firstName: 'Maren', lastName: 'Lindqvist', email: 'maren.l@example.com', phone: '3105550301' };
const ORDER = '86000001';
const AVA = { barcode: '8600000100000001', firstName: 'Ava', lastName: 'Lindqvist' };
const BEN = { barcode: '8600000100000002', firstName: 'Ben', lastName: 'Lindqvist' };
const OTHER_DAY_ORDER = '86000002';
const OTHER_AVA = '8600000200000001';
const ADULT_ORDER = '86000003';
const ADULT = { firstName: 'Tove', lastName: 'Berg', email: 'tove.berg@example.com' };

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: officer.headers });
async function find(query: object) {
  const res = await post('/api/admin/privacy/export', query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PrivacyExport>();
}
const holderOf = async (barcode: string) =>
  (await t.database.db.select().from(schema.tickets).where(eq(schema.tickets.barcode, barcode)))[0]!;

beforeAll(async () => {
  t = await createTestApp();
  officer = await loginAs(t.app, { accessLevel: 100 });
  const child = (c: typeof AVA) => ({
    barcode: c.barcode,
    product: 'Junior Season Pass',
    holder: { firstName: c.firstName, lastName: c.lastName },
  });
  await putOrder(t.app, ORDER, anOrder([child(AVA), child(BEN)], { purchaser: PURCHASER, orderDate: '2026-11-20T18:15:00Z' }));
  // Another Ava Lindqvist, on an order of another day.
  await putOrder(
    t.app,
    OTHER_DAY_ORDER,
    anOrder([{ ...child(AVA), barcode: OTHER_AVA }], { purchaser: PURCHASER, orderDate: '2026-11-22T10:00:00Z' }),
  );
  await putOrder(t.app, ADULT_ORDER, anOrder([{ barcode: '8600000300000001', holder: ADULT }], { purchaser: PURCHASER }));
});
afterAll(() => t.close());

describe('finding a person known by name', () => {
  it("by name and order id: their ticket and holder name only, whatever the case; not the order's other people", async () => {
    const doc = await find({ firstName: 'ava', lastName: ' LINDQVIST ', orderId: ORDER });
    expect(doc.tickets).toEqual([
      {
        orderId: ORDER,
        barcode: AVA.barcode,
        product: 'Junior Season Pass',
        visitDate: null,
        expires: expect.anything(),
        roles: ['holder'],
        purchaser: null,
        holder: { firstName: 'Ava', lastName: 'Lindqvist', email: null, phone: null },
        registration: null,
      },
    ]);
    expect(JSON.stringify(doc)).not.toContain('Ben');
    expect(JSON.stringify(doc)).not.toContain(PURCHASER.email);
  });

  it("by name and barcode, and by name and the order's date (UTC day): only the tickets in that scope", async () => {
    expect((await find({ firstName: 'Ava', lastName: 'Lindqvist', barcode: OTHER_AVA })).tickets.map((x) => x.barcode)).toEqual([
      OTHER_AVA,
    ]);
    expect((await find({ firstName: 'Ava', lastName: 'Lindqvist', orderDate: '2026-11-20' })).tickets.map((x) => x.barcode)).toEqual([
      AVA.barcode,
    ]);
    expect((await find({ firstName: 'Ava', lastName: 'Lindqvist', orderDate: '2026-11-21' })).tickets).toEqual([]);
    expect((await find({ firstName: 'Eva', lastName: 'Lindqvist', orderId: ORDER })).tickets).toEqual([]);
  });

  it('refuses a date that two orders holding the name share (two people, maybe), naming the orders; nothing is erased', async () => {
    const SAME_DAY_ORDER = '86000004';
    await putOrder(
      t.app,
      SAME_DAY_ORDER,
      anOrder([{ barcode: '8600000400000001', product: 'Day Ticket', holder: { firstName: 'Ava', lastName: 'Lindqvist' } }], {
        orderDate: '2026-11-20T22:00:00Z',
      }),
    );
    const query = { firstName: 'Ava', lastName: 'Lindqvist', orderDate: '2026-11-20' };
    for (const url of ['/api/admin/privacy/export', '/api/admin/privacy/erase']) {
      const res = await post(url, query);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe(
        `2 orders of 2026-11-20 hold someone of this name (${ORDER}, ${SAME_DAY_ORDER}): search with the order id.`,
      );
    }
    expect((await holderOf('8600000400000001')).holderFirstName).toBe('Ava');
    expect((await holderOf(AVA.barcode)).holderFirstName).toBe('Ava');
  });

  it('finds a named holder who has an email as a query by that email would', async () => {
    const byName = await find({ firstName: 'Tove', lastName: 'Berg', orderId: ADULT_ORDER });
    const byEmail = await find({ email: ADULT.email });
    expect(byName.tickets).toEqual(byEmail.tickets);
    expect(byName.tickets[0]!.holder).toMatchObject({ email: ADULT.email });
  });

  it('answers 400 with one message to a name without a scope, with two scopes, with an email, or half a name; an order id alone', async () => {
    for (const query of [
      { firstName: 'Ava', lastName: 'Lindqvist' },
      { firstName: 'Ava', lastName: 'Lindqvist', orderId: ORDER, barcode: AVA.barcode },
      { firstName: 'Ava', lastName: 'Lindqvist', email: 'x@example.com', orderId: ORDER },
      { firstName: 'Ava', orderId: ORDER },
      { orderId: ORDER },
      { orderDate: '2026-11-20' },
    ]) {
      const res = await post('/api/admin/privacy/export', query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().message).toContain(PRIVACY_QUERY_MESSAGE);
    }
    const badDate = await post('/api/admin/privacy/export', { firstName: 'Ava', lastName: 'Lindqvist', orderDate: '20-11-2026' });
    expect(badDate.statusCode).toBe(400);
  });
});

describe('erasing a person known by name', () => {
  it("empties their name on their ticket only; the order's other holder and purchaser stay; a second erasure holds nothing; audited without the name", async () => {
    const query = { firstName: 'Ava', lastName: 'Lindqvist', orderId: ORDER };
    const res = await post('/api/admin/privacy/erase', query);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PrivacyErasure>()).toMatchObject({ held: true, orderIds: [ORDER], erased: { 'orders and tickets': 1 } });

    expect(await holderOf(AVA.barcode)).toMatchObject({ holderFirstName: null, holderLastName: null });
    expect(await holderOf(BEN.barcode)).toMatchObject({ holderFirstName: 'Ben', holderLastName: 'Lindqvist' });
    expect(await holderOf(OTHER_AVA)).toMatchObject({ holderFirstName: 'Ava' });
    const [order] = await t.database.db.select().from(schema.orders).where(eq(schema.orders.orderId, ORDER));
    expect(order).toMatchObject({ purchaserFirstName: PURCHASER.firstName, purchaserEmail: PURCHASER.email });

    expect((await find(query)).tickets).toEqual([]);
    expect((await post('/api/admin/privacy/erase', query)).json()).toMatchObject({ held: false });

    const entries = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(inArray(schema.auditLog.action, ['erase', 'export']));
    const mine = entries.filter((e) => (e.after as { asked?: string } | null)?.asked === 'firstName+lastName+orderId');
    expect(mine.length).toBeGreaterThan(0);
    // The record id is a keyed digest of the query: random letters, which once spelled "Ava" by chance.
    for (const entry of mine) expect(entry.recordId).toMatch(/^[\w-]{43}$/);
    const withoutDigests = JSON.stringify(mine.map(({ recordId: _digest, ...rest }) => rest));
    expect(withoutDigests).not.toContain('Ava');
    expect(withoutDigests).not.toContain('Lindqvist');
  });
});
