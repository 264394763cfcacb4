import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderFeed } from '@boardwalk/contract/integrations';
import { upsertRegistration } from '../../guest/pass/pass.repo.ts';
import { anOrder, aTicket } from '../../../test-support/fixtures.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../../test-support/test-app.ts';
import { feedTablesFingerprint, snapshotFeedTables } from '../../../test-support/integration-tables.fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function put(orderId: string, body: unknown) {
  return t.app.inject({ method: 'PUT', url: `/api/integrations/orders/${orderId}`, headers: integrationAuth, payload: body as object });
}
const get = (orderId: string) => t.app.inject({ method: 'GET', url: `/api/integrations/orders/${orderId}`, headers: integrationAuth });
const fieldPaths = (body: { fields?: { path: string }[] }) => (body.fields ?? []).map((f) => f.path);
const fingerprint = () => feedTablesFingerprint(t.database.db);

async function rowsOf(orderId: string) {
  const s = await snapshotFeedTables(t.database.db);
  return {
    order: s.orders.find((o) => o.orderId === orderId),
    tickets: s.tickets.filter((x) => x.orderId === orderId).sort((a, b) => a.position - b.position),
  };
}

describe('PUT /api/integrations/orders/{orderId}', () => {
  it('creates the order with 201, then answers 200 when it is replaced', async () => {
    const body = anOrder([{ barcode: '6100000000000011' }, { barcode: '6100000000000028', credits: 12.5 }]);
    const created = await put('61000001', body);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ outcome: 'created' });
    const { order, tickets } = await rowsOf('61000001');
    expect(order).toMatchObject({ orderId: '61000001', purchaserFirstName: 'Ana', orderDate: new Date('2026-11-20T18:15:00Z') });
    expect(tickets.map((x) => [x.barcode, x.position, x.credits])).toEqual([
      ['6100000000000011', 0, 0],
      ['6100000000000028', 1, 12.5],
    ]);

    const replaced = await put(
      '61000001',
      anOrder([
        { barcode: '6100000000000011', cash: 3.25 },
        { barcode: '6100000000000028', credits: 12.5 },
      ]),
    );
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toEqual({ outcome: 'replaced' });
    expect((await rowsOf('61000001')).tickets[0]!.cash).toBe(3.25);
  });

  it('changes nothing, not even updated_at, when the same body is sent twice', async () => {
    const body = anOrder([
      { barcode: '6100000000000035', price: 129.99, expires: '2030-06-30T23:59:59-07:00', iCloudBindingLink: 'https://example.com/bind/1' },
    ]);
    expect((await put('61000002', body)).statusCode).toBe(201);
    const before = await rowsOf('61000002');
    const all = await fingerprint();
    const again = await put('61000002', body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ outcome: 'unchanged' });
    expect(await rowsOf('61000002')).toEqual(before);
    expect(await fingerprint()).toBe(all);
    // The same instants written with another offset are the same data.
    const sameInstant = {
      ...body,
      orderDate: '2026-11-20T10:15:00-08:00',
      tickets: [{ ...body.tickets[0]!, expires: '2030-07-01T06:59:59Z' }],
    };
    expect((await put('61000002', sameInstant)).json()).toEqual({ outcome: 'unchanged' });
    expect(await fingerprint()).toBe(all);
  });

  it('writes only the rows that differ', async () => {
    const body = anOrder([{ barcode: '6100000000000042' }, { barcode: '6100000000000059' }]);
    await put('61000003', body);
    const before = await rowsOf('61000003');
    await new Promise((r) => setTimeout(r, 5));
    const changed = anOrder([{ barcode: '6100000000000042' }, { barcode: '6100000000000059', refunded: true }]);
    expect((await put('61000003', changed)).json()).toEqual({ outcome: 'replaced' });
    const after = await rowsOf('61000003');
    expect(after.order).toEqual(before.order);
    expect(after.tickets[0]).toEqual(before.tickets[0]);
    expect(after.tickets[1]!.refunded).toBe(true);
    expect(after.tickets[1]!.updatedAt.getTime()).toBeGreaterThan(before.tickets[1]!.updatedAt.getTime());
  });

  it('replaces the ticket set: tickets no longer listed are removed, with their registrations', async () => {
    await put('61000004', anOrder([{ barcode: '6100000000000066' }, { barcode: '6100000000000073' }, { barcode: '6100000000000080' }]));
    const registration = { firstName: 'Gone', lastName: 'Guest', email: 'gone@example.com', phone: '3105550100' };
    await upsertRegistration(t.database.db, { barcode: '6100000000000073', ...registration });
    const res = await put('61000004', anOrder([{ barcode: '6100000000000080' }, { barcode: '6100000000000097' }]));
    expect(res.json()).toEqual({ outcome: 'replaced' });
    const { tickets } = await rowsOf('61000004');
    expect(tickets.map((x) => [x.barcode, x.position])).toEqual([
      ['6100000000000080', 0],
      ['6100000000000097', 1],
    ]);
    const s = await snapshotFeedTables(t.database.db);
    expect(s.registrations.find((r) => r.barcode === '6100000000000073')).toBeUndefined();
    // A removed barcode is free for another order.
    expect((await put('61000005', anOrder([{ barcode: '6100000000000066' }]))).statusCode).toBe(201);
  });

  it('keeps the guest registration when the feed resends the ticket without holder details', async () => {
    await put('61000006', anOrder([{ barcode: '6100000000000103', holder: {} }]));
    await upsertRegistration(t.database.db, {
      barcode: '6100000000000103',
      firstName: 'Rita',
      lastName: 'Moreno',
      email: 'rita@example.com',
      phone: '3105550199',
      optInEmailMarketing: true,
    });
    // The feed resends the ticket without a holder (undefined is left out of the JSON).
    const tickets = [
      { ...aTicket({ barcode: '6100000000000103', credits: 4 }), holder: undefined },
      aTicket({ barcode: '6100000000000110' }),
    ];
    const resent = await put('61000006', { ...anOrder(), tickets });
    expect(resent.statusCode).toBe(200);
    const login = await t.app.inject({ method: 'POST', url: '/api/login/', payload: { orderId: '61000006', barcode: '6100000000000103' } });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({
      firstName: 'Rita',
      lastName: 'Moreno',
      email: 'rita@example.com',
      phone: '3105550199',
      credits: 4,
    });
    const held = (await get('61000006')).json();
    expect(held.tickets[0]).toMatchObject({
      holder: { firstName: null, lastName: null },
      registration: { firstName: 'Rita', optInEmailMarketing: true },
    });
  });

  it('answers 409 when a barcode belongs to another order, and writes nothing', async () => {
    await put('61000007', anOrder([{ barcode: '6100000000000127' }]));
    await put('61000008', anOrder([{ barcode: '6100000000000134' }]));
    const before = await fingerprint();
    // A new order, and a replacement of an existing one, each with one taken barcode.
    for (const [orderId, body] of [
      ['61000009', anOrder([{ barcode: '6100000000000141' }, { barcode: '6100000000000127' }])],
      ['61000008', anOrder([{ barcode: '6100000000000134', credits: 9 }, { barcode: '6100000000000127' }])],
    ] as const) {
      const res = await put(orderId, body);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ statusCode: 409, error: 'CONFLICT', fields: [{ path: 'tickets.1.barcode' }] });
      expect(res.json().message).toContain('61000007');
      expect(await fingerprint()).toBe(before);
    }
    expect((await get('61000009')).statusCode).toBe(404);
  });

  it('stays consistent under concurrent feeds: one creation, and one owner per barcode', async () => {
    const body = anOrder([{ barcode: '6100000000000165' }, { barcode: '6100000000000172' }]);
    const same = await Promise.all(Array.from({ length: 5 }, () => put('61000012', body)));
    expect(same.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(same.filter((r) => r.statusCode === 200).map((r) => r.json())).toEqual(Array(4).fill({ outcome: 'unchanged' }));

    // Two new orders claiming the same barcodes (in opposite order) at once: one wins, the other gets a 409.
    const rivals = await Promise.all([
      put('61000013', anOrder([{ barcode: '6100000000000189' }, { barcode: '6100000000000196' }])),
      put('61000014', anOrder([{ barcode: '6100000000000196' }, { barcode: '6100000000000189' }])),
    ]);
    expect(rivals.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const { tickets: won } = await rowsOf(rivals[0]!.statusCode === 201 ? '61000013' : '61000014');
    expect(won).toHaveLength(2);
    const s = await snapshotFeedTables(t.database.db);
    expect(s.tickets.filter((x) => ['6100000000000189', '6100000000000196'].includes(x.barcode))).toHaveLength(2);
  });

  it.each<[string, (body: OrderFeed) => unknown, string[]]>([
    ['a bad order date', (b) => ({ ...b, orderDate: '2026-11-20 18:15' }), ['orderDate']],
    ['a date without offset', (b) => ({ ...b, orderDate: '2026-11-20T18:15:00' }), ['orderDate']],
    ['year 0', (b) => ({ ...b, orderDate: '0000-01-01T00:00:00Z' }), ['orderDate']],
    ['no tickets', (b) => ({ ...b, tickets: [] }), ['tickets']],
    ['a missing product', (b) => ({ ...b, tickets: [{ ...b.tickets[0], product: undefined }] }), ['tickets.0.product']],
    ['a short barcode', (b) => ({ ...b, tickets: [{ ...b.tickets[0], barcode: '1234567' }] }), ['tickets.0.barcode']],
    ['a nested bad email', (b) => ({ ...b, tickets: [{ ...b.tickets[0], holder: { email: 'nope' } }] }), ['tickets.0.holder.email']],
    [
      'negative credits and 3 decimals',
      (b) => ({ ...b, tickets: [{ ...b.tickets[0], credits: -1, cash: 1.005 }] }),
      ['tickets.0.credits', 'tickets.0.cash'],
    ],
    ['a NUL character', (b) => ({ ...b, tickets: [{ ...b.tickets[0], product: 'Day\u0000Ticket' }] }), ['tickets.0.product']],
    [
      'a javascript: link',
      (b) => ({ ...b, tickets: [{ ...b.tickets[0], iCloudBindingLink: 'javascript:alert(1)' }] }),
      ['tickets.0.iCloudBindingLink'],
    ],
    ['a barcode twice', (b) => ({ ...b, tickets: [b.tickets[0], b.tickets[0]] }), ['tickets.1.barcode']],
    ['an unknown field', (b) => ({ ...b, colour: 'red' }), ['colour']],
    [
      'unknown nested fields',
      (b) => ({ ...b, purchaser: { firstName: 'A', nick: 'x' }, tickets: [{ ...b.tickets[0], colour: 'red' }] }),
      ['purchaser.nick', 'tickets.0.colour'],
    ],
    [
      'several bad fields at once',
      (b) => ({ ...b, orderDate: 'x', tickets: [{ ...b.tickets[0], barcode: 'x', extra: 1 }] }),
      ['orderDate', 'tickets.0.barcode', 'tickets.0.extra'],
    ],
  ])('answers 400 naming each bad field for %s, and writes nothing', async (_name, change, paths) => {
    const before = await fingerprint();
    const res = await put('61000010', change(anOrder([{ barcode: '6100000000000158' }])));
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ statusCode: 400, error: 'VALIDATION_FAILED', message: expect.any(String) });
    expect(fieldPaths(body).sort()).toEqual([...paths].sort());
    expect(await fingerprint()).toBe(before);
  });

  it('answers 400 for a bad order id, a body that is not an object and JSON that does not parse', async () => {
    const before = await fingerprint();
    const badId = await put('1234567', anOrder());
    expect(badId.statusCode).toBe(400);
    expect(fieldPaths(badId.json())).toEqual(['orderId']);
    expect((await put('61000011', [anOrder()])).statusCode).toBe(400);
    const broken = await t.app.inject({
      method: 'PUT',
      url: '/api/integrations/orders/61000011',
      headers: { ...integrationAuth, 'content-type': 'application/json' },
      payload: '{"orderDate":',
    });
    expect(broken.statusCode).toBe(400);
    expect(await fingerprint()).toBe(before);
  });
});

describe('GET /api/integrations/orders/{orderId}', () => {
  it('answers what Boardwalk holds: the order, its tickets, registrations and shares', async () => {
    await put('62000001', {
      orderDate: '2026-11-20T18:15:00-08:00',
      purchaser: { firstName: 'Ana', lastName: 'Lopez', email: 'ana@example.com', phone: '3105550100' },
      tickets: [
        {
          barcode: '6200000000000018',
          product: '2027 Season Pass',
          price: 129.99,
          category: 'Season Pass',
          categoryId: '12',
          packId: '340',
          merchItemId: '9001',
          isPassholder: true,
          holder: { firstName: 'Ana', lastName: 'Lopez' },
          credits: 0,
          cash: 0,
          expires: '2027-12-31T23:59:59-08:00',
          redeemed: null,
          refunded: false,
          isPassActivated: false,
          iCloudBindingLink: null,
        },
        { barcode: '6200000000000025', product: 'Day Ticket' },
      ],
    });
    await upsertRegistration(t.database.db, {
      barcode: '6200000000000025',
      firstName: 'Ben',
      lastName: 'Lopez',
      email: 'ben@example.com',
      phone: '3105550101',
    });
    const res = await get('62000001');
    expect(res.statusCode).toBe(200);
    const held = res.json();
    expect(held).toMatchObject({
      orderId: '62000001',
      orderDate: '2026-11-21T02:15:00.000Z',
      purchaser: { firstName: 'Ana', lastName: 'Lopez', email: 'ana@example.com', phone: '3105550100' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(held.tickets).toHaveLength(2);
    expect(held.tickets[0]).toEqual({
      barcode: '6200000000000018',
      product: '2027 Season Pass',
      price: 129.99,
      category: 'Season Pass',
      categoryId: '12',
      packId: '340',
      merchItemId: '9001',
      isPassholder: true,
      holder: { firstName: 'Ana', lastName: 'Lopez', email: null, phone: null },
      credits: 0,
      cash: 0,
      expires: '2028-01-01T07:59:59.000Z',
      visitDate: null,
      redeemed: null,
      refunded: false,
      isPassActivated: false,
      iCloudBindingLink: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      registration: null,
      shares: [],
    });
    expect(held.tickets[1]).toMatchObject({
      barcode: '6200000000000025',
      price: null,
      category: null,
      holder: { firstName: null, lastName: null, email: null, phone: null },
      registration: {
        firstName: 'Ben',
        lastName: 'Lopez',
        email: 'ben@example.com',
        phone: '3105550101',
        optInEmailMarketing: false,
        optInSMSMarketing: false,
      },
    });
    expect(held.tickets[0]).not.toHaveProperty('hasPhoto');
  });

  it('answers 404 for an unknown order and 400 for a malformed id', async () => {
    const missing = await get('62999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ statusCode: 404, error: 'NOT_FOUND', message: expect.any(String) });
    expect((await get('abc')).statusCode).toBe(400);
  });
});

describe('OpenAPI document', () => {
  it('documents every integration route with its schemas, tag and security', async () => {
    const doc = (await t.app.inject('/docs/json')).json();
    const routes = [
      ['/api/integrations/orders/{orderId}', 'put'],
      ['/api/integrations/orders/{orderId}', 'get'],
      ['/api/integrations/usage', 'post'],
      ['/api/integrations/checks/{checkId}', 'put'],
      ['/api/integrations/reservations/{reservationNumber}', 'put'],
    ] as const;
    for (const [path, method] of routes) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.tags).toEqual(['integrations']);
      expect(op.security).toEqual([{ integrationKey: [] }]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401']));
      if (method !== 'get') expect(op.requestBody.content['application/json'].schema).toBeDefined();
    }
    const orderBody = doc.paths['/api/integrations/orders/{orderId}'].put.requestBody.content['application/json'].schema;
    expect(orderBody.additionalProperties).toBe(false);
    expect(orderBody.properties.tickets.items.additionalProperties).toBe(false);
    expect(Object.keys(doc.paths['/api/integrations/orders/{orderId}'].put.responses)).toEqual(expect.arrayContaining(['201', '409']));
    expect(doc.components.securitySchemes.integrationKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
