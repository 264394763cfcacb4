// The loyalty club's guest calls: verify, create, the three claims and what each answers.
import { eq, sql } from 'drizzle-orm';
import { loyaltyAccounts, loyaltyEmailCodes, loyaltyLedger, loyaltyLots, loyaltyOrders, outbox } from '@boardwalk/db/schema';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { createTestApp, integrationAuth, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';
import { LOYALTY_EMAIL_CODE, LOYALTY_EMAIL_PROOF, LOYALTY_WALLET_TOKEN, loyaltyEmailMessages } from '@boardwalk/contract/loyalty';
import { codeMailedTo, joinLoyalty, proveEmail } from '../../../test-support/loyalty.fixtures.ts';
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
  const res = await joinLoyalty(t, { email, firstName: 'Ana', lastName: 'Lopez' });
  expect(res.statusCode).toBe(200);
  return res.body;
}
/** A proof of the email as confirm answers it (signed for the email, lower case). */
const proofFor = (email: string) => t.app.keys.signToken(LOYALTY_EMAIL_PROOF.purpose, email.toLowerCase(), LOYALTY_EMAIL_PROOF.ttlSeconds);
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
  it('creates an account for a proven email (a secret claim token as its user id); its code later answers its plain id, whatever its case', async () => {
    const token = await newMember('Mia.Chen@Example.com');
    const id = accountOf(token);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(token).not.toContain(id);
    const proved = await proveEmail(t, 'mia.chen@example.COM');
    // The account's plain id, which claims nothing (see "capability" below).
    expect(proved).toEqual({ account: 'existing', userID: id });
    const [row] = await t.database.db.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.id, id));
    expect(row).toMatchObject({ firstName: 'Ana', lastName: 'Lopez', createdBy: 'guest', emailProvenBy: 'guest' });
    expect(row!.emailProvenAt).toBeInstanceOf(Date);
    expect(row!.memberNumber).toMatch(/^77\d{14}$/);
  });

  it('answers 409 for an email that has an account, even with a proof of it', async () => {
    await newMember('taken@example.com');
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/loyalty/create',
      payload: { email: 'TAKEN@example.com', firstName: 'X', lastName: 'Y', proof: proofFor('taken@example.com') },
    });
    expect(again.statusCode).toBe(409);
    expect(await t.database.db.$count(loyaltyAccounts, sql`lower(${loyaltyAccounts.email}) = 'taken@example.com'`)).toBe(1);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const before = await t.database.db.$count(loyaltyAccounts);
    const codes = await t.database.db.$count(loyaltyEmailCodes);
    for (const body of [{ email: 'not-an-email' }, { email: 'a@b.c' }, {}])
      expect((await post('/api/loyalty/verify', body)).statusCode).toBe(400);
    for (const body of [
      { email: 'ok@example.com', code: '12345' },
      { email: 'ok@example.com', code: 'abcdef' },
      { email: 'ok@example.com' },
    ])
      expect((await post('/api/loyalty/confirm', body)).statusCode).toBe(400);
    const proof = proofFor('ok@example.com');
    for (const body of [
      { email: 'ok@example.com', firstName: '', lastName: 'Y', proof },
      { email: 'ok@example.com', firstName: 'X', proof },
      { email: 'ok@example.com', firstName: 'X', lastName: 'Y', proof, extra: 1 },
      { email: 'ok@example.com', firstName: 'X', lastName: 'Y' },
    ]) {
      expect((await post('/api/loyalty/create', body)).statusCode).toBe(400);
    }
    expect(await t.database.db.$count(loyaltyAccounts)).toBe(before);
    expect(await t.database.db.$count(loyaltyEmailCodes)).toBe(codes);
  });

  it('makes at most LOYALTY_ACCOUNTS_PER_ADDRESS_PER_HOUR (20) accounts per address: the 21st answers 429 and makes nothing', async () => {
    const address = '10.98.0.1';
    const create = (i: number, from?: string) =>
      post(
        '/api/loyalty/create',
        { email: `many${i}@example.com`, firstName: 'Ana', lastName: 'Lopez', proof: proofFor(`many${i}@example.com`) },
        from,
      );
    for (let i = 0; i < 20; i++) {
      const res = await create(i, address);
      expect(res.statusCode, res.body).toBe(200);
    }
    const before = await t.database.db.$count(loyaltyAccounts);
    const limited = await create(20, address);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(15 * 60);
    expect(await t.database.db.$count(loyaltyAccounts)).toBe(before);
    // Verify is not limited by it, and another address still makes accounts.
    expect((await post('/api/loyalty/verify', { email: 'many0@example.com' }, address)).statusCode).toBe(202);
    expect((await create(20)).statusCode).toBe(200);
  });
});

describe('proof of the email', () => {
  const emailCodes = () => t.database.db.select().from(loyaltyEmailCodes);
  const mailsTo = (email: string) => t.database.db.select().from(outbox).where(eq(outbox.to, email));
  const confirm = (email: string, code: string, from?: string) => post('/api/loyalty/confirm', { email, code }, from);
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('answers verify the same for a member and a stranger: 202, one mail with a code and no name, the code kept hashed', async () => {
    await newMember('proof.member@example.com');
    const member = await post('/api/loyalty/verify', { email: 'proof.member@example.com' });
    const stranger = await post('/api/loyalty/verify', { email: 'proof.stranger@example.com' });
    expect(member.statusCode).toBe(202);
    expect(stranger.statusCode).toBe(202);
    expect(member.json()).toEqual({ email: 'proof.member@example.com', validMinutes: 60 });
    expect(stranger.json()).toEqual({ email: 'proof.stranger@example.com', validMinutes: 60 });
    const [memberMail] = await mailsTo('proof.member@example.com').then((rows) => rows.slice(-1));
    const [strangerMail] = await mailsTo('proof.stranger@example.com');
    expect(memberMail!.subject).toBe(strangerMail!.subject);
    const memberBody = t.app.mailer.readBody(memberMail!)!;
    const code = await codeMailedTo(t, 'proof.member@example.com');
    // The mails differ in their code only, and name nobody.
    expect(memberBody.replace(code, 'CODE')).toBe(
      t.app.mailer
        .readBody(strangerMail!)!
        .replace(/^\d{6}$/m, 'CODE')
        .replace('proof.stranger', 'proof.member'),
    );
    expect(memberBody).not.toContain('Ana');
    const stored = JSON.stringify(await emailCodes());
    expect(stored).not.toContain(code);
    expect(stored).not.toContain('proof.member');
  });

  it('leads a proven member to their account and a proven stranger to the proof create takes (valid for that email only)', async () => {
    const token = await newMember('proof.lead@example.com');
    expect(await proveEmail(t, 'proof.lead@example.com')).toEqual({ account: 'existing', userID: accountOf(token) });
    const stranger = await proveEmail(t, 'proof.new@example.com');
    expect(stranger).toEqual({ account: 'new', proof: expect.any(String) });
    if (stranger.account !== 'new') throw new Error('expected a proof');
    // Its proof does not create another email's account.
    const other = await post('/api/loyalty/create', {
      email: 'proof.other@example.com',
      firstName: 'A',
      lastName: 'B',
      proof: stranger.proof,
    });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ message: loyaltyEmailMessages.proofRequired, reason: 'CODE_PROOF_REQUIRED' });
    const created = await post('/api/loyalty/create', {
      email: 'proof.new@example.com',
      firstName: 'A',
      lastName: 'B',
      proof: stranger.proof,
    });
    expect(created.statusCode, created.body).toBe(200);
  });

  it('refuses create without a proof of the email, or with an expired one (60 minutes): no account is made', async () => {
    const before = await t.database.db.$count(loyaltyAccounts);
    const names = { email: 'proof.none@example.com', firstName: 'Eve', lastName: 'Stranger' };
    const forged = await post('/api/loyalty/create', { ...names, proof: 'not.a.proof' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe(loyaltyEmailMessages.proofRequired);
    const proof = proofFor(names.email);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + LOYALTY_EMAIL_PROOF.ttlSeconds * 1000 + 1000 });
    expect((await post('/api/loyalty/create', { ...names, proof })).statusCode).toBe(400);
    expect(await t.database.db.$count(loyaltyAccounts)).toBe(before);
  });

  it('refuses a wrong code, then takes the right one once; a new code replaces the old one', async () => {
    const email = 'proof.wrong@example.com';
    await post('/api/loyalty/verify', { email });
    const first = await codeMailedTo(t, email);
    const refused = await confirm(email, wrong(first));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: loyaltyEmailMessages.wrongCode, reason: 'CODE_WRONG' });
    await post('/api/loyalty/verify', { email });
    const second = await codeMailedTo(t, email);
    if (second !== first) expect((await confirm(email, first)).json().message).toBe(loyaltyEmailMessages.wrongCode);
    expect((await confirm(email, second)).statusCode).toBe(200);
    // Spent: the same code again proves nothing.
    const again = await confirm(email, second);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: loyaltyEmailMessages.expired, reason: 'CODE_EXPIRED' });
  });

  it('lets a code work 60 minutes at most', async () => {
    const email = 'proof.expired@example.com';
    await post('/api/loyalty/verify', { email });
    const code = await codeMailedTo(t, email);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + LOYALTY_EMAIL_CODE.ttlSeconds * 1000 + 1000 });
    const late = await confirm(email, code);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(loyaltyEmailMessages.expired);
  });

  it('lets a code be tried 10 times at most: the right code on the 11th try is refused', async () => {
    const email = 'proof.tries@example.com';
    await post('/api/loyalty/verify', { email });
    const code = await codeMailedTo(t, email);
    // From several addresses (each under its own limit), as an attacker would.
    for (let i = 0; i < 10; i++) expect((await confirm(email, wrong(code))).statusCode).toBe(400);
    const last = await confirm(email, code);
    expect(last.statusCode).toBe(400);
    expect(last.json().message).toBe(loyaltyEmailMessages.expired);
  });

  it('counts ten tries even when they arrive together: at most one of 20 concurrent confirms of the right code proves it', async () => {
    const email = 'proof.race@example.com';
    await post('/api/loyalty/verify', { email });
    const code = await codeMailedTo(t, email);
    const answers = await Promise.all(Array.from({ length: 20 }, () => confirm(email, code)));
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(1);
  });

  it('throttles codes per email (5 in an hour) and per address (10 in 15 minutes): 429, no mail', async () => {
    const email = 'proof.throttle@example.com';
    for (let i = 0; i < 5; i++) expect((await post('/api/loyalty/verify', { email })).statusCode).toBe(202);
    const mails = (await mailsTo(email)).length;
    const limited = await post('/api/loyalty/verify', { email });
    expect(limited.statusCode).toBe(429);
    expect((await mailsTo(email)).length).toBe(mails);
    const address = '10.97.0.1';
    for (let i = 0; i < 10; i++)
      expect((await post('/api/loyalty/verify', { email: `proof.addr${i}@example.com` }, address)).statusCode).toBe(202);
    expect((await post('/api/loyalty/verify', { email: 'proof.addr10@example.com' }, address)).statusCode).toBe(429);
  });

  it('throttles wrong codes per email whatever the address (20 in an hour) and per address (10 in 15 minutes)', async () => {
    const email = 'proof.guess@example.com';
    for (let round = 0; round < 2; round++) {
      await post('/api/loyalty/verify', { email });
      const code = await codeMailedTo(t, email);
      for (let i = 0; i < 10; i++) expect((await confirm(email, wrong(code))).statusCode).toBe(400);
    }
    await post('/api/loyalty/verify', { email });
    expect((await confirm(email, await codeMailedTo(t, email))).statusCode).toBe(429);
    const address = '10.96.0.1';
    for (let i = 0; i < 10; i++) expect((await confirm(`proof.g${i}@example.com`, '000000', address)).statusCode).toBe(400);
    expect((await confirm('proof.g10@example.com', '000000', address)).statusCode).toBe(429);
  });

  it('proves an existing member at their next visit: an account from before has no proof until its code', async () => {
    const token = await newMember('proof.old@example.com');
    const id = accountOf(token);
    await t.database.db.update(loyaltyAccounts).set({ emailProvenAt: null, emailProvenBy: null }).where(eq(loyaltyAccounts.id, id));
    expect(await proveEmail(t, 'proof.old@example.com')).toEqual({ account: 'existing', userID: id });
    const [row] = await t.database.db.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.id, id));
    expect(row).toMatchObject({ emailProvenBy: 'guest', emailProvenAt: expect.any(Date) });
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
    expect(res.json()).toMatchObject({ message: 'This purchase has already been claimed.', reason: 'CLAIM_CLAIMED' });
    expect(await claimsOf(userID)).toBe(0);
  });

  it('refuses unknown, refunded and too old purchases (older than LOYALTY_CLAIM_DAYS)', async () => {
    const email = 'refusals@example.com';
    const userID = await newMember(email);
    // The English message, and the reason (with its values) the guest page words.
    const cases: [string, object, string, object][] = [
      ['/api/loyalty/tickets/', { orderId: '79999999' }, 'We could not find that order.', { reason: 'CLAIM_UNKNOWN_ORDER' }],
      [
        '/api/loyalty/tickets/',
        { orderId: '70000003' },
        'This purchase was refunded and cannot earn points.',
        { reason: 'CLAIM_REFUNDED' },
      ],
      [
        '/api/loyalty/tickets/',
        { orderId: '70000002' },
        'This purchase is more than 90 days old and can no longer earn points.',
        { reason: 'CLAIM_TOO_OLD', params: { days: 90 } },
      ],
      ['/api/loyalty/purchase/', { checkNumber: '9999' }, 'We could not find that check.', { reason: 'CLAIM_UNKNOWN_CHECK' }],
      [
        '/api/loyalty/hotels/',
        { reservationNumber: 'H9999' },
        'We could not find that reservation.',
        { reason: 'CLAIM_UNKNOWN_RESERVATION' },
      ],
      [
        '/api/loyalty/hotels/',
        { reservationNumber: 'H1002' },
        'This reservation was cancelled and cannot earn points.',
        { reason: 'CLAIM_CANCELLED' },
      ],
    ];
    for (const [url, fields, message, reason] of cases) {
      const res = await post(url, { ...fields, email, userID });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ message, ...reason });
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

  it('lets only the user id create answered claim: the id the proven code answers for the email claims nothing and gets no card', async () => {
    const email = 'capability@example.com';
    await putOrder(t.app, '70000012', anOrder([{ barcode: '7000000000000127', price: 30 }], { orderDate: daysAgo(1), ...boughtBy(email) }));
    const token = await newMember(email);
    const proved = await proveEmail(t, email);
    const verifiedId = proved.account === 'existing' ? proved.userID : '';
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
