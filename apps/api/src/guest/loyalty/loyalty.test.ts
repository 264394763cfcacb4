// The loyalty club's guest calls: verify, create, the three claims and what each answers.
import { eq, sql } from 'drizzle-orm';
import { loyaltyAccounts, loyaltyLedger, loyaltyLots, loyaltyOrders } from '@boardwalk/db/schema';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { createTestApp, integrationAuth, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';
import { LOYALTY_WALLET_TOKEN } from '@boardwalk/contract/loyalty';
import { claimTickets } from '../../loyalty/loyalty-claims.service.ts';
import { loyaltyCoreOf } from '../../loyalty/loyalty.service.ts';
import { LOYALTY_CLAIM_TOKEN } from './loyalty.service.ts';

let t: TestApp;
let ip = 0;
/** Each call from its own address unless a test is about the throttle. */
const nextAddress = () => `10.9.${(++ip >> 8) & 255}.${ip & 255}`;
const post = (url: string, payload: object, remoteAddress = nextAddress()) => t.app.inject({ method: 'POST', url, payload, remoteAddress });

const now = Date.now();
const daysAgo = (days: number) => new Date(now - days * 24 * 60 * 60 * 1000).toISOString();

async function newMember(email: string) {
  const res = await post('/api/loyalty/create', { email, firstName: 'Ana', lastName: 'Lopez' });
  expect(res.statusCode).toBe(200);
  return res.body;
}
const putCheck = (checkId: string, body: object) =>
  t.app.inject({ method: 'PUT', url: `/api/integrations/checks/${checkId}`, headers: integrationAuth, payload: body });
const putReservation = (number: string, body: object) =>
  t.app.inject({ method: 'PUT', url: `/api/integrations/reservations/${number}`, headers: integrationAuth, payload: body });
/** The account a claim token (the user id create answers) names. */
function accountOf(userID: string): string {
  const check = t.app.keys.verifyToken(LOYALTY_CLAIM_TOKEN.purpose, userID);
  if (!check.ok) throw new Error(`not a claim token: ${check.reason}`);
  return check.subject;
}
const ledgerOf = (userID: string) =>
  t.database.db
    .select()
    .from(loyaltyLedger)
    .where(eq(loyaltyLedger.accountId, accountOf(userID)))
    .orderBy(loyaltyLedger.id);
const claimsOf = (userID: string) => t.database.db.$count(loyaltyOrders, eq(loyaltyOrders.accountId, accountOf(userID)));

/** The order's purchaser: the email that may claim it publicly. */
const boughtBy = (email: string) => ({ purchaser: { firstName: 'Ana', lastName: 'Lopez', email } });

beforeAll(async () => {
  t = await createTestApp();
  await putOrder(
    t.app,
    '70000001',
    anOrder(
      [
        { barcode: '7000000000000011', price: 59.99 },
        // A ticket holder of the order may claim it too.
        { barcode: '7000000000000028', price: 20.5, product: 'Parking', holder: { email: 'second.claimer@example.com' } },
      ],
      { orderDate: daysAgo(3), ...boughtBy('claim.tickets@example.com') },
    ),
  );
  await putOrder(
    t.app,
    '70000002',
    anOrder([{ barcode: '7000000000000035', price: 10 }], { orderDate: daysAgo(91), ...boughtBy('refusals@example.com') }),
  );
  await putOrder(
    t.app,
    '70000003',
    anOrder([{ barcode: '7000000000000042', price: 10, refunded: true }], { orderDate: daysAgo(1), ...boughtBy('refusals@example.com') }),
  );
  await putOrder(
    t.app,
    '70000004',
    anOrder([{ barcode: '700000000000004911', price: 35.75 }], { orderDate: daysAgo(1), ...boughtBy('scan.ticket@example.com') }),
  );
  await putOrder(
    t.app,
    '70000005',
    anOrder([{ barcode: '7000000000000059', price: 12 }], { orderDate: daysAgo(2), ...boughtBy('Refund.Me@example.com') }),
  );
  for (const [id, body] of Object.entries({
    'FB01-1': { checkNumber: '4012', orderDate: daysAgo(1), terminalId: 'FB-01', total: 23.5 },
    'FB02-1': { checkNumber: '4012', orderDate: daysAgo(2), terminalId: 'FB-02', total: 8.25 },
    'FB03-1': { checkNumber: '5001', orderDate: daysAgo(1), terminalId: 'FB-03', total: 14.99, receiptCode: '5001000000000017' },
  })) {
    expect((await putCheck(id, body)).statusCode).toBe(201);
  }
  const stay = { arrival: daysAgo(5).slice(0, 10), departure: daysAgo(3).slice(0, 10), total: 412.4 };
  expect((await putReservation('H1001', { ...stay, email: 'one.claim@example.com' })).statusCode).toBe(201);
  expect((await putReservation('H1002', { ...stay, email: 'refusals@example.com', cancelled: true })).statusCode).toBe(201);
  expect((await putReservation('H1003', { ...stay, email: 'hotel.cancel@example.com' })).statusCode).toBe(201);
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

describe('accounts', () => {
  it('creates an account (a secret claim token as its user id) and verifies it by email, whatever its case', async () => {
    const token = await newMember('Mia.Chen@Example.com');
    const id = accountOf(token);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(token).not.toContain(id);
    const verified = await post('/api/loyalty/verify', { email: 'mia.chen@example.COM' });
    expect(verified.statusCode).toBe(200);
    expect(verified.headers['content-type']).toMatch(/^text\/plain/);
    // verify answers the account's plain id, which claims nothing (see "capability" below).
    expect(verified.body).toBe(id);
    const [row] = await t.database.db.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.id, id));
    expect(row).toMatchObject({ firstName: 'Ana', lastName: 'Lopez', createdBy: 'guest' });
    expect(row!.memberNumber).toMatch(/^77\d{14}$/);
  });

  it('answers 404 for an unknown email and 409 for an email that has an account', async () => {
    expect((await post('/api/loyalty/verify', { email: 'nobody@example.com' })).statusCode).toBe(404);
    await newMember('taken@example.com');
    const again = await post('/api/loyalty/create', { email: 'TAKEN@example.com', firstName: 'X', lastName: 'Y' });
    expect(again.statusCode).toBe(409);
    expect(await t.database.db.$count(loyaltyAccounts, sql`lower(${loyaltyAccounts.email}) = 'taken@example.com'`)).toBe(1);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const before = await t.database.db.$count(loyaltyAccounts);
    for (const body of [{ email: 'not-an-email' }, { email: 'a@b.c' }, {}])
      expect((await post('/api/loyalty/verify', body)).statusCode).toBe(400);
    for (const body of [
      { email: 'ok@example.com', firstName: '', lastName: 'Y' },
      { email: 'ok@example.com', firstName: 'X' },
      { email: 'ok@example.com', firstName: 'X', lastName: 'Y', extra: 1 },
    ]) {
      expect((await post('/api/loyalty/create', body)).statusCode).toBe(400);
    }
    expect(await t.database.db.$count(loyaltyAccounts)).toBe(before);
  });

  it('throttles verify per client address: the 11th miss in 15 minutes answers 429 (a membership oracle)', async () => {
    const address = '10.99.0.1';
    for (let i = 0; i < 10; i++)
      expect((await post('/api/loyalty/verify', { email: `miss${i}@example.com` }, address)).statusCode).toBe(404);
    const limited = await post('/api/loyalty/verify', { email: 'taken@example.com' }, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await post('/api/loyalty/verify', { email: 'taken@example.com' })).statusCode).toBe(200);
  });
  it('makes at most LOYALTY_ACCOUNTS_PER_ADDRESS_PER_HOUR (20) accounts per address: the 21st answers 429 and makes nothing', async () => {
    const address = '10.98.0.1';
    for (let i = 0; i < 20; i++) {
      const res = await post('/api/loyalty/create', { email: `many${i}@example.com`, firstName: 'Ana', lastName: 'Lopez' }, address);
      expect(res.statusCode, res.body).toBe(200);
    }
    const before = await t.database.db.$count(loyaltyAccounts);
    const limited = await post('/api/loyalty/create', { email: 'many20@example.com', firstName: 'Ana', lastName: 'Lopez' }, address);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(15 * 60);
    expect(await t.database.db.$count(loyaltyAccounts)).toBe(before);
    // Verify is not limited by it, and another address still makes accounts.
    expect((await post('/api/loyalty/verify', { email: 'many0@example.com' }, address)).statusCode).toBe(200);
    expect((await post('/api/loyalty/create', { email: 'many20@example.com', firstName: 'Ana', lastName: 'Lopez' })).statusCode).toBe(200);
  });
});

describe('claims', () => {
  it('claims an order by its id: one loyalty order and one earn entry per ticket, points rounded down per USD', async () => {
    const email = 'claim.tickets@example.com';
    const userID = await newMember(email);
    const res = await post('/api/loyalty/tickets/', { orderId: '70000001', email, userID });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // 59.99 -> 59, 20.50 -> 20 (tickets earn 1 point per USD).
    expect(body).toMatchObject({ pointsEarned: 79, balance: 79, allowedChanges: 0 });
    // What the guest typed and earned; never the order's barcodes (with the order id, a ticket lookup's credentials).
    expect(body.loyaltyOrders).toEqual([
      { type: 'ticket', product: 'Day Ticket', purchasedAt: expect.any(String), points: 59 },
      { type: 'ticket', product: 'Parking', purchasedAt: expect.any(String), points: 20 },
    ]);
    expect(res.body).not.toMatch(/7000000000000011|7000000000000028/);
    const [rows] = [
      await t.database.db
        .select()
        .from(loyaltyOrders)
        .where(eq(loyaltyOrders.accountId, accountOf(userID))),
    ];
    expect(rows.map((o) => [o.reference, o.sourceId, o.amount])).toEqual([
      ['70000001', '7000000000000011', 59.99],
      ['70000001', '7000000000000028', 20.5],
    ]);
    const check = await t.app.keys.verifyToken(LOYALTY_WALLET_TOKEN.purpose, body.walletToken);
    expect(check).toEqual({ ok: true, subject: accountOf(userID) });
    const ledger = await ledgerOf(userID);
    expect(ledger.map((e) => [e.points, e.kind, e.reason, e.causedBy])).toEqual([
      [59, 'earn', 'claimed', 'guest'],
      [20, 'earn', 'claimed', 'guest'],
    ]);
  });

  it('claims an order with a free ticket: it is recorded with 0 points and no lot, the paid one earns', async () => {
    const email = 'free.ticket@example.com';
    await putOrder(
      t.app,
      '70000031',
      anOrder(
        [
          { barcode: '7000000000000318', price: 0, product: 'Child Day Ticket' },
          { barcode: '7000000000000325', price: 12.5, product: 'Parking' },
        ],
        { orderDate: daysAgo(1), ...boughtBy(email) },
      ),
    );
    const userID = await newMember(email);
    const res = await post('/api/loyalty/tickets/', { orderId: '70000031', email, userID });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ pointsEarned: 12, balance: 12 });
    expect((await ledgerOf(userID)).map((e) => e.points)).toEqual([0, 12]);
    const lots = await t.database.db
      .select()
      .from(loyaltyLots)
      .where(eq(loyaltyLots.accountId, accountOf(userID)));
    expect(lots.map((lot) => [lot.points, lot.remaining])).toEqual([[12, 12]]);
  });

  it('claims an order of 12 tickets in their order: each loyalty order, entry and lot belongs to its own ticket', async () => {
    const email = 'twelve.tickets@example.com';
    const barcodes = Array.from({ length: 12 }, (_, i) => `70000032000000${String(i).padStart(2, '0')}`);
    await putOrder(
      t.app,
      '70000032',
      anOrder(
        barcodes.map((barcode, i) => ({ barcode, price: i + 1, product: `Ticket ${i + 1}` })),
        { orderDate: daysAgo(1), ...boughtBy(email) },
      ),
    );
    const userID = await newMember(email);
    const outcome = await claimTickets(
      loyaltyCoreOf(t.app),
      { orderId: '70000032', email, accountId: accountOf(userID) },
      { kind: 'staff', username: 'gina' },
    );
    expect(outcome.loyaltyOrders.map((o) => [o.sourceId, o.points])).toEqual(barcodes.map((barcode, i) => [barcode, i + 1]));
    expect(outcome.balance).toBe(78);
    const orders = await t.database.db
      .select()
      .from(loyaltyOrders)
      .where(eq(loyaltyOrders.accountId, accountOf(userID)));
    const sourceOf = new Map(orders.map((o) => [o.id, o.sourceId]));
    for (const order of outcome.loyaltyOrders) expect(sourceOf.get(order.id)).toBe(order.sourceId);
    // The entries in the tickets' order, each on its ticket's loyalty order, with a lot of its points.
    const ledger = await ledgerOf(userID);
    expect(ledger.map((e) => [e.sourceId, e.points, sourceOf.get(e.loyaltyOrderId!)])).toEqual(
      barcodes.map((barcode, i) => [barcode, i + 1, barcode]),
    );
    const lots = await t.database.db
      .select()
      .from(loyaltyLots)
      .where(eq(loyaltyLots.accountId, accountOf(userID)));
    const entryOf = new Map(ledger.map((e) => [e.id, e]));
    for (const lot of lots)
      expect([lot.points, lot.loyaltyOrderId]).toEqual([entryOf.get(lot.entryId)!.points, entryOf.get(lot.entryId)!.loyaltyOrderId]);
    expect(lots).toHaveLength(12);
  });

  it('claims an order by a scanned ticket barcode (18 characters)', async () => {
    const email = 'scan.ticket@example.com';
    const userID = await newMember(email);
    const res = await post('/api/loyalty/tickets/', { orderId: '700000000000004911', email, userID });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ pointsEarned: 35, loyaltyOrders: [{ type: 'ticket', product: 'Day Ticket', points: 35 }] });
    // Claimed by a barcode (which a shared guest sees), it never names the owner's order id.
    expect(res.body).not.toContain('70000004');
  });

  it('refuses a purchase claimed before, by anyone, with a plain reason', async () => {
    // A ticket holder of the order, after the purchaser claimed it.
    const email = 'second.claimer@example.com';
    const userID = await newMember(email);
    const res = await post('/api/loyalty/tickets/', { orderId: '70000001', email, userID });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This purchase has already been claimed.');
    expect(await claimsOf(userID)).toBe(0);
  });

  it('refuses unknown, refunded and too old purchases (older than LOYALTY_CLAIM_DAYS)', async () => {
    const email = 'refusals@example.com';
    const userID = await newMember(email);
    const cases: [string, object, string][] = [
      ['/api/loyalty/tickets/', { orderId: '79999999' }, 'We could not find that order.'],
      ['/api/loyalty/tickets/', { orderId: '70000003' }, 'This purchase was refunded and cannot earn points.'],
      ['/api/loyalty/tickets/', { orderId: '70000002' }, 'This purchase is more than 90 days old and can no longer earn points.'],
      ['/api/loyalty/purchase/', { checkNumber: '9999' }, 'We could not find that check.'],
      ['/api/loyalty/hotels/', { reservationNumber: 'H9999' }, 'We could not find that reservation.'],
      ['/api/loyalty/hotels/', { reservationNumber: 'H1002' }, 'This reservation was cancelled and cannot earn points.'],
    ];
    for (const [url, fields, message] of cases) {
      const res = await post(url, { ...fields, email, userID });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await claimsOf(userID)).toBe(0);
  });

  it('takes the age limit from the clock: a purchase 89 days old becomes unclaimable 2 days later', async () => {
    await putOrder(
      t.app,
      '70000009',
      anOrder([{ barcode: '7000000000000097', price: 5 }], { orderDate: daysAgo(89), ...boughtBy('clock@example.com') }),
    );
    vi.useFakeTimers({ toFake: ['Date'], now: now + 2 * 24 * 60 * 60 * 1000 });
    const email = 'clock@example.com';
    const userID = await newMember(email);
    const res = await post('/api/loyalty/tickets/', { orderId: '70000009', email, userID });
    expect(res.json().message).toBe('This purchase is more than 90 days old and can no longer earn points.');
  });

  it('enforces allowedChanges: one public claim per account, within an hour of its public creation', async () => {
    const email = 'one.claim@example.com';
    const userID = await newMember(email);
    expect((await post('/api/loyalty/hotels/', { reservationNumber: 'H1001', email, userID })).json()).toMatchObject({ pointsEarned: 824 });
    const second = await post('/api/loyalty/tickets/', { orderId: '70000005', email, userID });
    expect(second.statusCode).toBe(400);
    expect(second.json().message).toMatch(/^This account has already added a purchase online\. Please email guestservices@example\.com/);

    const late = 'late@example.com';
    const lateId = await newMember(late);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61 * 60 * 1000 });
    const tooLate = await post('/api/loyalty/tickets/', { orderId: '70000005', email: late, userID: lateId });
    expect(tooLate.statusCode).toBe(400);
    expect(tooLate.json().message).toMatch(/^This account can no longer add purchases online/);
  });

  it('refuses a claim whose email is not the account holder’s, or an unknown account', async () => {
    const userID = await newMember('owner@example.com');
    const wrong = await post('/api/loyalty/tickets/', { orderId: '70000005', email: 'other@example.com', userID });
    expect(wrong.json().message).toBe('That email does not match this loyalty account. Please start over.');
    const forged = await post('/api/loyalty/tickets/', {
      orderId: '70000005',
      email: 'owner@example.com',
      userID: `${userID.slice(0, -4)}AAAA`,
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe('We could not find that loyalty account. Please start over.');
  });

  it('answers the candidates when several checks share the number, claims nothing, then claims the chosen one', async () => {
    const email = 'checks@example.com';
    const userID = await newMember(email);
    const list = await post('/api/loyalty/purchase/', { checkNumber: '4012', email, userID });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      { checkID: 'FB02-1', ORDER_DATE: expect.any(String), TERMINAL_ID: 'FB-02', IN_LOYALTY_ORDERS: false },
      { checkID: 'FB01-1', ORDER_DATE: expect.any(String), TERMINAL_ID: 'FB-01', IN_LOYALTY_ORDERS: false },
    ]);
    expect(await claimsOf(userID)).toBe(0);
    const chosen = await post('/api/loyalty/purchase/', { checkNumber: '4012', checkID: 'FB01-1', email, userID });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toMatchObject({
      pointsEarned: 23,
      loyaltyOrders: [{ type: 'food-and-beverage', product: 'Food & Beverage (FB-01)' }],
    });
  });

  it('claims a check by its receipt code (the scanned 16 characters)', async () => {
    const email = 'receipt@example.com';
    const userID = await newMember(email);
    const res = await post('/api/loyalty/purchase/', { checkNumber: '5001000000000017', email, userID });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      pointsEarned: 14,
      loyaltyOrders: [{ type: 'food-and-beverage', product: 'Food & Beverage (FB-03)' }],
    });
    expect(res.body).not.toContain('FB03-1');
  });
});

describe('proof of ownership and the claim capability', () => {
  const notYours = 'This purchase is not under your email address. Guest Services can add it for you.';

  it("refuses another guest's order, by its id or a barcode, whatever the state of the order, and writes nothing", async () => {
    const email = 'stranger@example.com';
    const userID = await newMember(email);
    // 70000001 is claimed, 70000003 refunded, 70000002 too old: a stranger learns none of it.
    for (const orderId of ['70000005', '7000000000000059', '70000001', '70000003', '70000002']) {
      const res = await post('/api/loyalty/tickets/', { orderId, email, userID });
      expect(res.statusCode, orderId).toBe(400);
      expect(res.json().message).toBe(notYours);
    }
    expect(await claimsOf(userID)).toBe(0);
    expect(await ledgerOf(userID)).toEqual([]);
  });

  it("accepts the email of a guest registration of the order's ticket", async () => {
    await putOrder(t.app, '70000011', anOrder([{ barcode: '7000000000000110', price: 18 }], { orderDate: daysAgo(1) }));
    const email = 'registered.guest@example.com';
    const userID = await newMember(email);
    expect((await post('/api/loyalty/tickets/', { orderId: '70000011', email, userID })).json().message).toBe(notYours);
    const registration = await t.app.inject({
      method: 'POST',
      url: '/api/register/',
      remoteAddress: nextAddress(),
      payload: {
        orderId: '70000011',
        barcode: '7000000000000110',
        firstName: 'Reg',
        lastName: 'Guest',
        email: 'Registered.Guest@example.com',
        phone: '3105550111',
        optInEmailMarketing: false,
        optInSMSMarketing: false,
      },
    });
    expect(registration.statusCode).toBe(200);
    const res = await post('/api/loyalty/tickets/', { orderId: '70000011', email, userID });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ pointsEarned: 18 });
  });

  it('refuses a reservation under another email or none; staff may add it for the member', async () => {
    const stay = { arrival: daysAgo(4).slice(0, 10), departure: daysAgo(2).slice(0, 10), total: 100 };
    expect((await putReservation('H2001', { ...stay, email: 'someone.else@example.com' })).statusCode).toBe(201);
    expect((await putReservation('H2002', stay)).statusCode).toBe(201);
    const email = 'hotel.stranger@example.com';
    const userID = await newMember(email);
    for (const reservationNumber of ['H2001', 'H2002']) {
      const res = await post('/api/loyalty/hotels/', { reservationNumber, email, userID });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(notYours);
    }
    expect(await claimsOf(userID)).toBe(0);
  });

  it('claims a check that has a receipt code only by the scanned code: its typed number asks for the scan', async () => {
    const email = 'typed.number@example.com';
    const userID = await newMember(email);
    const typed = await post('/api/loyalty/purchase/', { checkNumber: '5001', email, userID });
    expect(typed.statusCode).toBe(400);
    expect(typed.json().message).toBe('Scan the barcode on your receipt.');
    // Nor may a guest pick it by its check id among the candidates.
    const picked = await post('/api/loyalty/purchase/', { checkNumber: '5001', checkID: 'FB03-1', email, userID });
    expect(picked.statusCode).toBe(400);
    expect(await claimsOf(userID)).toBe(0);
  });

  it('lets only the user id create answered claim: the id verify answers for the email claims nothing and gets no card', async () => {
    const email = 'capability@example.com';
    await putOrder(t.app, '70000012', anOrder([{ barcode: '7000000000000127', price: 30 }], { orderDate: daysAgo(1), ...boughtBy(email) }));
    const token = await newMember(email);
    const verifiedId = (await post('/api/loyalty/verify', { email })).body;
    const withVerifiedId = await post('/api/loyalty/tickets/', { orderId: '70000012', email, userID: verifiedId });
    expect(withVerifiedId.statusCode).toBe(400);
    expect(withVerifiedId.json().message).toMatch(/^This account can no longer add purchases online/);
    expect(withVerifiedId.body).not.toContain('walletToken');
    // Nor is the plain id a wallet token for the member's card.
    const card = await t.app.inject({ method: 'POST', url: '/api/apple-wallet/', payload: { email, walletToken: verifiedId } });
    expect(card.statusCode).toBe(401);
    // A claim token is for its account only: another member's email with it is refused.
    const other = await post('/api/loyalty/tickets/', { orderId: '70000012', email: 'capability.other@example.com', userID: token });
    expect(other.json().message).toBe('That email does not match this loyalty account. Please start over.');
    expect(await claimsOf(token)).toBe(0);
    const res = await post('/api/loyalty/tickets/', { orderId: '70000012', email, userID: token });
    expect(res.statusCode).toBe(200);
    expect(res.json().walletToken).toEqual(expect.any(String));
  });
});

describe('reversals', () => {
  it('writes one reversal when the feed refunds a claimed ticket, never two', async () => {
    const email = 'refund.me@example.com';
    const userID = await newMember(email);
    expect((await post('/api/loyalty/tickets/', { orderId: '70000005', email, userID })).json()).toMatchObject({ balance: 12 });
    const refunded = anOrder([{ barcode: '7000000000000059', price: 12, refunded: true }], { orderDate: daysAgo(2), ...boughtBy(email) });
    await putOrder(t.app, '70000005', refunded);
    await settleDeliveries(t.app);
    // Resent (unchanged) and resent with another change: still one reversal.
    await putOrder(t.app, '70000005', refunded);
    await putOrder(t.app, '70000005', { ...refunded, purchaser: { firstName: 'Ana' } });
    await settleDeliveries(t.app);
    const ledger = await ledgerOf(userID);
    expect(ledger.map((e) => [e.points, e.kind, e.reason, e.causedBy])).toEqual([
      [12, 'earn', 'claimed', 'guest'],
      [-12, 'reversal', 'refunded', 'system'],
    ]);
    const [order] = await t.database.db
      .select()
      .from(loyaltyOrders)
      .where(eq(loyaltyOrders.accountId, accountOf(userID)));
    expect(order!.reversedAt).toBeInstanceOf(Date);
  });

  it('reverses a claimed check when it is refunded and a claimed reservation when it is cancelled', async () => {
    const checkEmail = 'check.refund@example.com';
    const checkUser = await newMember(checkEmail);
    await putCheck('FB09-1', { checkNumber: '7777', orderDate: daysAgo(1), terminalId: 'FB-09', total: 40 });
    expect((await post('/api/loyalty/purchase/', { checkNumber: '7777', email: checkEmail, userID: checkUser })).statusCode).toBe(200);
    await putCheck('FB09-1', { checkNumber: '7777', orderDate: daysAgo(1), terminalId: 'FB-09', total: 40, refunded: true });

    const hotelEmail = 'hotel.cancel@example.com';
    const hotelUser = await newMember(hotelEmail);
    expect((await post('/api/loyalty/hotels/', { reservationNumber: 'H1003', email: hotelEmail, userID: hotelUser })).statusCode).toBe(200);
    const stay = { arrival: daysAgo(5).slice(0, 10), departure: daysAgo(3).slice(0, 10), total: 412.4 };
    await putReservation('H1003', { ...stay, email: hotelEmail, cancelled: true });
    await settleDeliveries(t.app);

    expect((await ledgerOf(checkUser)).map((e) => [e.points, e.reason])).toEqual([
      [40, 'claimed'],
      [-40, 'refunded'],
    ]);
    expect((await ledgerOf(hotelUser)).map((e) => [e.points, e.reason])).toEqual([
      [824, 'claimed'],
      [-824, 'cancelled'],
    ]);
  });

  it('keeps the ledger append-only: an entry cannot be changed', async () => {
    await expect(t.database.db.update(loyaltyLedger).set({ points: 1_000_000 })).rejects.toThrow();
  });
});
