import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret, newSecret } from '../../platform/secrets.ts';
import { anOrder, putOrder, snapshotGuestTables, staff } from '../../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';

let t: TestApp;
let ipSeq = 0;
/** Each test gets its own client address so the per-address throttle never crosses tests. */
const nextIp = () => `10.1.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

function login(body: Record<string, unknown>, remoteAddress = nextIp(), headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/api/login/', payload: body, remoteAddress, headers });
}
function register(body: Record<string, unknown>, remoteAddress = nextIp()) {
  return t.app.inject({ method: 'POST', url: '/api/register/', payload: body, remoteAddress });
}

beforeAll(async () => {
  t = await createTestApp({ env: { PASS_BACKGROUND_COLOR: '112233', PASS_FOREGROUND_COLOR: 'fefefe' } });
  const db = t.database.db;
  await putOrder(
    t.app,
    '20000001',
    anOrder(
      [
        {
          barcode: '2000000000000011',
          product: '2027 Season Pass',
          category: 'Season Pass',
          categoryId: '12',
          packId: '340',
          merchItemId: '9001',
          isPassholder: true,
          holder: { firstName: 'Ana', lastName: 'Lopez', email: 'ana@example.com' },
        },
        { barcode: '2000000000000028', product: 'Day Ticket', categoryId: '20', holder: { firstName: 'Ben', lastName: 'Lopez' } },
      ],
      { purchaser: { firstName: 'Ana', lastName: 'Lopez' } },
    ),
  );
  await putOrder(
    t.app,
    '20000002',
    anOrder([{ barcode: '2000000000000035', category: 'Stored Value Card', credits: 25, cash: 12.5, holder: {} }], {
      purchaser: { firstName: 'Carl', lastName: 'Diaz' },
    }),
  );
  await putOrder(t.app, '20000003', anOrder([{ barcode: '2000000000000042', merchItemId: '7777', packId: '71', categoryId: '99' }]));
  await putOrder(
    t.app,
    '20000004',
    anOrder([{ barcode: '2000000000000059', packId: '555', redeemed: '2026-11-01T10:00:00-08:00', refunded: true }]),
  );
  await putOrder(t.app, '20000005', anOrder([{ barcode: '3400000000000017', merchItemId: '8888' }]));
  await putOrder(t.app, '20000006', anOrder([{ barcode: '2000000000000066', holder: { email: 'x@example.com' } }]));

  await staff.customization(db, 'Season Pass', '0a0b0c', 'f0f0f0');
  await staff.customization(db, 'Pack', 'aa0000', '00aa00');
  await staff.customization(db, 'Single', '0000aa', 'ffffff');
  await staff.customization(db, 'Day Ticket', '7b2cbf', 'ffd60a');
  await staff.mapping(db, { categoryId: '12', customizationName: 'Season Pass' });
  await staff.mapping(db, { packId: '340', customizationName: 'Pack' });
  await staff.mapping(db, { barcode: '2000000000000011', customizationName: 'Single', active: false });
  await staff.mapping(db, { categoryId: '20', customizationName: 'Day Ticket' });
  await staff.walletException(db, { orderNumber: '20000002', skipRegistration: true, skipImage: true });
  await staff.exclusion(db, { merchItemId: '7777', customError: 'Show your printed ticket at the gate.' });
  await staff.exclusion(db, { merchItemId: '9001', customError: 'Expired rule', validTo: new Date('2020-01-01') });
  await staff.exclusion(db, { merchItemId: '9001', customError: 'Inactive rule', active: false });
  await staff.exclusion(db, { merchItemId: '8888', excludeNfc: true, customError: 'No NFC' });
  await staff.wristbandPack(db, { merchItemId: '555' });
  await staff.wristbandPack(db, { merchItemId: '340', validFrom: new Date('2099-01-01') });
  await staff.testPass(db, {
    barcode: '99000001',
    description: 'Gate test',
    data: JSON.stringify({ firstName: 'Tess', product: 'Test Product', credits: 5 }),
  });
});
afterAll(() => t.close());

describe('POST /api/login/', () => {
  it('answers the order object of one ticket, holder and purchaser from the feed', async () => {
    const res = await login({ orderId: '20000001', barcode: '2000000000000028' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({
      orderId: '20000001',
      barcode: '2000000000000028',
      firstName: 'Ben',
      lastName: 'Lopez',
      purchaserFirstName: 'Ana',
      purchaserLastName: 'Lopez',
      product: 'Day Ticket',
      orderDate: '2026-11-20T18:15:00.000Z',
      expires: '2031-01-01T07:59:59.000Z',
      isPassholder: false,
      isRedeemed: false,
      refunded: false,
      excluded: null,
      shareId: '',
      sharedWith: null,
      ticketShares: [],
    });
  });

  it('marks a season pass ticket as passholder', async () => {
    expect((await login({ orderId: '20000001', barcode: '2000000000000011' })).json().isPassholder).toBe(true);
  });

  it('takes colours from the customization: barcode > pack id > category id, active mappings only', async () => {
    // The barcode mapping is inactive, so the pack id mapping wins over the category id one.
    const season = (await login({ orderId: '20000001', barcode: '2000000000000011' })).json();
    expect([season.backgroundColor, season.foregroundColor]).toEqual(['#aa0000', '#00aa00']);
    await staff.mapping(t.database.db, { barcode: '2000000000000011', customizationName: 'Single' });
    const single = (await login({ orderId: '20000001', barcode: '2000000000000011' })).json();
    expect([single.backgroundColor, single.foregroundColor]).toEqual(['#0000aa', '#ffffff']);
    const day = (await login({ orderId: '20000001', barcode: '2000000000000028' })).json();
    expect([day.backgroundColor, day.foregroundColor]).toEqual(['#7b2cbf', '#ffd60a']);
  });

  it('falls back to the configured default colours', async () => {
    const res = (await login({ orderId: '20000003', barcode: '2000000000000042' })).json();
    expect([res.backgroundColor, res.foregroundColor]).toEqual(['#112233', '#fefefe']);
  });

  it('sets skipRegistration and skipImage from a wallet exception on the order number', async () => {
    const sv = (await login({ orderId: '20000002', barcode: '2000000000000035' })).json();
    expect(sv).toMatchObject({
      skipRegistration: true,
      skipImage: true,
      firstName: null,
      category: 'Stored Value Card',
      credits: 25,
      cash: 12.5,
    });
    const other = (await login({ orderId: '20000001', barcode: '2000000000000028' })).json();
    expect(other).toMatchObject({ skipRegistration: false, skipImage: false });
  });

  it('shows an active exclusion within its validity with its message; expired, inactive and NFC-only ones do not exclude', async () => {
    expect((await login({ orderId: '20000003', barcode: '2000000000000042' })).json().excluded).toBe(
      'Show your printed ticket at the gate.',
    );
    expect((await login({ orderId: '20000001', barcode: '2000000000000011' })).json().excluded).toBeNull();
    expect((await login({ orderId: '20000005', barcode: '3400000000000017' })).json().excluded).toBeNull();
  });

  it('uses a default exclusion message when staff left it empty', async () => {
    await putOrder(t.app, '20000007', anOrder([{ barcode: '2000000000000073', packId: '4242' }]));
    await staff.exclusion(t.database.db, { merchPackId: '4242' });
    expect((await login({ orderId: '20000007', barcode: '2000000000000073' })).json().excluded).toBe(
      'This item cannot be added to a digital wallet. Please visit guest services for assistance.',
    );
  });

  it("words an exclusion in the call's language: staff's Spanish text, else their English one, else the catalogue's Spanish", async () => {
    const spanish = { 'accept-language': 'es-MX,es;q=0.9' };
    const excluded = async (orderId: string, barcode: string) => (await login({ orderId, barcode }, nextIp(), spanish)).json().excluded;
    // 20000003's exclusion has English only; 20000007's none.
    expect(await excluded('20000003', '2000000000000042')).toBe('Show your printed ticket at the gate.');
    await staff.exclusion(t.database.db, { merchPackId: '4242' });
    expect(await excluded('20000007', '2000000000000073')).toBe(
      'Este artículo no se puede agregar a una billetera digital. Visite Atención al Visitante para recibir ayuda.',
    );
    await putOrder(t.app, '20000008', anOrder([{ barcode: '2000000000000080', packId: '4343' }]));
    await staff.exclusion(t.database.db, {
      merchPackId: '4343',
      customError: 'Bring your printed voucher.',
      customErrorEs: 'Traiga su comprobante impreso.',
    });
    expect(await excluded('20000008', '2000000000000080')).toBe('Traiga su comprobante impreso.');
    expect((await login({ orderId: '20000008', barcode: '2000000000000080' })).json().excluded).toBe('Bring your printed voucher.');
  });

  it('flags wristband tickets by an active, valid wristband merch pack id', async () => {
    const band = (await login({ orderId: '20000004', barcode: '2000000000000059' })).json();
    expect(band).toMatchObject({ isWristband: true, isRedeemed: true, refunded: true, redeemed: '2026-11-01T18:00:00.000Z' });
    // pack 340 is listed but not valid until 2099.
    expect((await login({ orderId: '20000001', barcode: '2000000000000011' })).json().isWristband).toBe(false);
  });

  it('answers a test pass for order id 0 from its JSON data', async () => {
    const res = await login({ orderId: '0', barcode: '99000001' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      orderId: '0',
      barcode: '99000001',
      firstName: 'Tess',
      product: 'Test Product',
      credits: 5,
      skipRegistration: true,
    });
    expect((await login({ orderId: '0', barcode: '99000002' })).statusCode).toBe(404);
  });

  it('answers an unknown order and a wrong barcode identically', async () => {
    const unknown = await login({ orderId: '29999999', barcode: '2000000000000011' });
    const wrong = await login({ orderId: '20000001', barcode: '2000000000009999' });
    const otherOrders = await login({ orderId: '20000002', barcode: '2000000000000011' });
    for (const res of [unknown, wrong, otherOrders]) {
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(unknown.body);
      expect(res.headers['content-type']).toBe(unknown.headers['content-type']);
      expect(res.headers['content-length']).toBe(unknown.headers['content-length']);
    }
    expect(unknown.json()).toEqual({ statusCode: 404, error: 'ORDER_NOT_FOUND', message: 'Unable to locate order' });
  });

  it('rejects malformed bodies with 400 naming the field', async () => {
    const res = await login({ orderId: '123', barcode: '2000000000000011' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('VALIDATION_FAILED');
    expect((await login({ orderId: '20000001', barcode: '2000000000000011', extra: 1 })).statusCode).toBe(400);
    expect((await login({ orderId: '20000001' })).statusCode).toBe(400);
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/login/',
      payload: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.statusCode).toBe(400);
  });
});

describe('shares and hashUrl', () => {
  const activeHashUrl = newSecret();
  const stoppedHashUrl = newSecret();
  let shareId = '';
  beforeAll(async () => {
    const db = t.database.db;
    shareId = (
      await staff.share(db, {
        barcode: '2000000000000035',
        hashUrlHash: hashSecret(activeHashUrl),
        firstName: 'Dee',
        lastName: 'Friend',
        email: 'dee@example.com',
      })
    ).shareId;
    await staff.share(db, {
      barcode: '2000000000000035',
      hashUrlHash: hashSecret(stoppedHashUrl),
      firstName: 'Old',
      lastName: 'Friend',
      email: 'old@example.com',
      removedAt: new Date(),
    });
  });

  it('lists active shares to the primary guest', async () => {
    const res = (await login({ orderId: '20000002', barcode: '2000000000000035' })).json();
    expect(res.ticketShares).toEqual([
      { id: shareId, firstName: 'Dee', lastName: 'Friend', email: 'dee@example.com', phone: null, salesforceId: null, directLink: null },
    ]);
  });

  it('shows the shared view through a hashUrl, without the order id', async () => {
    expect(activeHashUrl.length).toBeGreaterThan(80);
    const res = await login({ hashUrl: activeHashUrl });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      orderId: '',
      barcode: '2000000000000035',
      shareId,
      sharedWith: { firstName: 'Dee' },
      ticketShares: [],
    });
  });

  it('keeps a valid shareId and clears one that is no longer shared', async () => {
    const kept = (await login({ orderId: '20000002', barcode: '2000000000000035', shareId })).json();
    expect(kept).toMatchObject({ shareId, sharedWith: { lastName: 'Friend' } });
    const cleared = (
      await login({ orderId: '20000002', barcode: '2000000000000035', shareId: '00000000-0000-4000-8000-000000000000' })
    ).json();
    expect(cleared).toMatchObject({ shareId: '', sharedWith: null, orderId: '20000002' });
  });

  it('answers 410 "Pass No Longer Shared" for a stopped share, 404 for an unknown link', async () => {
    const stopped = await login({ hashUrl: stoppedHashUrl });
    expect(stopped.statusCode).toBe(410);
    expect(stopped.json().message).toBe('Pass No Longer Shared');
    expect((await login({ hashUrl: newSecret() })).statusCode).toBe(404);
  });
});

describe('POST /api/register/', () => {
  const valid = {
    orderId: '20000006',
    barcode: '2000000000000066',
    firstName: ' Rita ',
    lastName: 'Moreno',
    email: 'rita@example.com',
    phone: '(310) 555-0199',
    optInEmailMarketing: true,
    optInSMSMarketing: false,
  };

  it.each([
    ['firstName', { firstName: '  ' }],
    ['lastName', { lastName: '' }],
    ['email', { email: 'rita@example' }],
    ['email', { email: 'rita@example.c' }],
    ['phone', { phone: '(310) 555-01' }],
    ['firstName', { firstName: 'Ri\u0000ta' }],
    ['lastName', { lastName: 'Mo\ud800reno' }],
    ['email', { email: 'ri\u0000ta@example.com' }],
    ['orderId', { orderId: '2000000' }],
  ])('refuses a bad %s with 400 and writes nothing', async (field, change) => {
    const before = await snapshotGuestTables(t.database.db);
    const res = await register({ ...valid, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.map((f: { path: string }) => f.path)).toContain(field);
    expect(await snapshotGuestTables(t.database.db)).toBe(before);
  });

  it('refuses a wrong barcode like login does, writing nothing', async () => {
    const before = await snapshotGuestTables(t.database.db);
    const res = await register({ ...valid, barcode: '2000000000000011' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Unable to locate order');
    expect(await snapshotGuestTables(t.database.db)).toBe(before);
  });

  it('saves the registration (phone as digits) and answers the updated order', async () => {
    const res = await register(valid);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: 'Rita',
      lastName: 'Moreno',
      email: 'rita@example.com',
      phone: '3105550199',
      optInEmailMarketing: true,
      optInSMSMarketing: false,
    });
  });

  it('keeps what the guest entered when the feed later resends the order', async () => {
    await putOrder(t.app, '20000006', anOrder([{ barcode: '2000000000000066', holder: {}, credits: 3 }]));
    const res = (await login({ orderId: '20000006', barcode: '2000000000000066' })).json();
    expect(res).toMatchObject({ firstName: 'Rita', lastName: 'Moreno', phone: '3105550199', credits: 3 });
  });

  it('lets the guest edit the registration again', async () => {
    const res = await register({ ...valid, firstName: 'Rosa', optInSMSMarketing: true });
    expect(res.json()).toMatchObject({ firstName: 'Rosa', optInSMSMarketing: true });
  });
});
