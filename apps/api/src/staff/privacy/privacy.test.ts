// The Privacy tab's export: everything held about a person, found by email, phone or barcode,
// and nothing of anyone else (a second guest on the same order); Privacy Export guards it, bad
// input is a 400 that writes nothing, and each export is audited under a keyed hash, never the
// address.
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOYALTY_WALLET_TOKEN } from '@boardwalk/contract/loyalty';
import { LOYALTY_STATEMENT_TOKEN } from '@boardwalk/contract/loyalty-statement';
import { statementMessages } from '@boardwalk/contract/loyalty-statement-messages';
import { PRIVACY_LINK_TOKEN, type PrivacyErasure, type PrivacyExport } from '@boardwalk/contract/privacy';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder, staff as fixtures } from '../../../test-support/fixtures.ts';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { MEMBER_CARD_VOIDED } from '../../wallet/member-cards.service.ts';
import { hashSecret } from '../../platform/secrets.ts';

let t: TestApp;
let officer: StaffLogin;
let ip = 0;
const url = '/api/admin/privacy/export';

const ANA = { firstName: 'Anabel', lastName: 'Quintero', email: 'Anabel.Q@example.com', phone: '3105550142' };
const BEN = { firstName: 'Benedikt', lastName: 'Sorensen', email: 'benedikt@example.com', phone: '3105550177' };
const CARL = { firstName: 'Carlotta', lastName: 'Frame', email: 'carlotta@example.com', phone: null };
const ORDER = '81000001';
const ANA_TICKET = '8100000100000001';
const BEN_TICKET = '8100000100000002';
const OTHER_ORDER = '81000002';
const SHARED_TO_ANA = '8100000200000001';
const PUSH_TOKEN = 'f'.repeat(64);
const DEVICE = 'device-library-identifier-0001';
const LINK_TO_ANA = randomBytes(64).toString('base64url');

const exportOf = async (query: object, as = officer) => {
  const res = await t.app.inject({ method: 'POST', url, headers: as.headers, payload: query });
  return res;
};
const documentOf = async (query: object) => {
  const res = await exportOf(query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PrivacyExport>();
};
const register = async (
  orderId: string,
  barcode: string,
  who: typeof ANA,
  consents: { optInEmailMarketing: boolean; optInSMSMarketing: boolean },
) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/register/',
    payload: { orderId, barcode, ...who, ...consents },
    remoteAddress: `10.9.0.${++ip}`,
  });
  expect(res.statusCode, res.body).toBe(200);
};

beforeAll(async () => {
  t = await createTestApp();
  officer = await loginAs(t.app, { accessLevel: 100 });
  const db = t.database.db;
  // Anabel bought the order (her email in other letters, her phone with +1): her own ticket and Ben's.
  await putOrder(
    t.app,
    ORDER,
    anOrder(
      [
        { barcode: ANA_TICKET, product: 'Season Pass', credits: 10, holder: ANA },
        { barcode: BEN_TICKET, product: 'Day Ticket', holder: BEN },
      ],
      { purchaser: { ...ANA, email: 'anabel.q@EXAMPLE.com', phone: '13105550142' } },
    ),
  );
  await putOrder(t.app, OTHER_ORDER, anOrder([{ barcode: SHARED_TO_ANA, credits: 5, holder: BEN }], { purchaser: BEN }));
  // She consented to SMS and withdrew; Ben registered his own with every consent.
  await register(ORDER, ANA_TICKET, ANA, { optInEmailMarketing: true, optInSMSMarketing: true });
  await register(ORDER, ANA_TICKET, ANA, { optInEmailMarketing: true, optInSMSMarketing: false });
  await register(ORDER, BEN_TICKET, BEN, { optInEmailMarketing: true, optInSMSMarketing: true });
  // She shared her pass with Carlotta; Ben shared his with her.
  await fixtures.share(db, { barcode: ANA_TICKET, hashUrlHash: randomBytes(16).toString('hex'), ...CARL });
  await fixtures.share(db, { barcode: SHARED_TO_ANA, hashUrlHash: hashSecret(LINK_TO_ANA), ...ANA, salesforceId: 'CRM-42' });
  // Photos of both passes; a band on hers; Ben's photo is his.
  const png = Buffer.from('89504e470d0a1a0a', 'hex');
  await db.insert(schema.photos).values([
    { uid: 'photo-ana', barcode: ANA_TICKET, bmp: png, png, width: 480, height: 360 },
    { uid: 'photo-ben', barcode: BEN_TICKET, bmp: png, png: Buffer.from('ben'), width: 480, height: 360 },
  ]);
  await db.insert(schema.wristbandBindings).values({ wristbandBarcode: 'WB-ANA-1', barcode: ANA_TICKET, orderId: ORDER });
  await db.insert(schema.wristbandBindings).values({ wristbandBarcode: 'WB-BEN-1', barcode: BEN_TICKET, orderId: ORDER });
  const [visitWindow] = await db
    .insert(schema.visitWindows)
    .values({ startsAt: new Date('2027-05-01T17:00:00Z'), endsAt: new Date('2027-05-01T19:00:00Z'), capacity: 10 })
    .returning();
  await db.insert(schema.visitReservations).values([
    { windowId: visitWindow!.id, barcode: ANA_TICKET, orderId: ORDER, day: '2027-05-01', status: 'booked' },
    { windowId: visitWindow!.id, barcode: BEN_TICKET, orderId: ORDER, day: '2027-05-01', status: 'waitlisted' },
  ]);
  // Her pass in Apple Wallet on one device; a hotel stay; a mail.
  const [pass] = await db.insert(schema.walletPasses).values({ barcode: ANA_TICKET }).returning();
  await db
    .insert(schema.appleDeviceRegistrations)
    .values({ deviceLibraryIdentifier: DEVICE, serialNumber: pass!.serialNumber, pushToken: PUSH_TOKEN });
  await db.insert(schema.reservations).values({
    reservationNumber: 'H-9001',
    ...ANA,
    email: 'anabel.q@example.com',
    arrival: '2026-07-01',
    departure: '2026-07-03',
    total: 420,
  });
  await db.insert(schema.outbox).values({ to: ANA.email, subject: 'Your shared pass', text: 'sealed-body-with-a-link', bodySealed: true });
  // She joined the club and was given points.
  const loyalty = await loginAs(t.app, { accessLevel: 100, permissions: ['Loyalty Manage'] });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/admin/loyalty/create',
    headers: loyalty.headers,
    payload: { email: ANA.email, firstName: ANA.firstName, lastName: ANA.lastName },
  });
  expect(created.statusCode, created.body).toBe(200);
  const [account] = await db.select().from(schema.loyaltyAccounts).where(eq(schema.loyaltyAccounts.email, ANA.email));
  const adjust = await t.app.inject({
    method: 'POST',
    url: '/api/admin/loyalty/adjust/',
    headers: loyalty.headers,
    payload: { userID: account!.id, points: 250, reason: 'Welcome gift' },
  });
  expect(adjust.statusCode, adjust.body).toBe(200);
  // Her member card.
  await db.insert(schema.walletPasses).values({ loyaltyAccountId: account!.id });
});
afterAll(() => t.close());

describe('POST /api/admin/privacy/export', () => {
  it('finds everything held about a person by email, and nothing of the other guest on her order', async () => {
    const doc = await documentOf({ email: 'ANABEL.q@example.com' });
    expect(doc.tickets.map((ticket) => [ticket.barcode, ticket.roles])).toEqual([
      [ANA_TICKET, ['purchaser', 'holder', 'registrant']],
      [BEN_TICKET, ['purchaser']],
    ]);
    expect(doc.tickets[0]!.registration).toMatchObject({ ...ANA });
    expect(doc.tickets[1]).toMatchObject({ holder: null, registration: null, purchaser: { firstName: 'Anabel' } });
    // The consents as they stand, each with its history and the wording shown.
    const entry = (given: boolean) => ({
      given,
      at: expect.any(String),
      source: 'registration form',
      wording: expect.stringContaining('Yes, '),
    });
    expect(doc.consents).toEqual([
      { barcode: ANA_TICKET, channel: 'email', given: true, at: expect.any(String), history: [entry(true)] },
      { barcode: ANA_TICKET, channel: 'sms', given: false, at: expect.any(String), history: [entry(true), entry(false)] },
    ]);
    expect(doc.consents[1]!.history[0]!.wording).toContain('text me news and offers');
    expect(doc.sharesMade).toEqual([expect.objectContaining({ barcode: ANA_TICKET, sharedWith: { ...CARL }, stoppedAt: null })]);
    expect(doc.sharesReceived).toEqual([expect.objectContaining({ barcode: SHARED_TO_ANA, crmId: 'CRM-42', person: { ...ANA } })]);
    expect(doc.photos).toEqual([{ barcode: ANA_TICKET, width: 480, height: 360, uploadedAt: expect.any(String), png: 'iVBORw0KGgo=' }]);
    expect(doc.wristbands.map((w) => w.wristbandBarcode)).toEqual(['WB-ANA-1']);
    // Her own pass's visit reservation; Ben's (the order's other ticket) is his.
    expect(doc.visitReservations).toEqual([
      {
        barcode: ANA_TICKET,
        startsAt: '2027-05-01T17:00:00.000Z',
        endsAt: '2027-05-01T19:00:00.000Z',
        status: 'booked',
        madeAt: expect.any(String),
      },
    ]);
    expect(doc.loyalty).toHaveLength(1);
    expect(doc.loyalty[0]).toMatchObject({
      email: ANA.email,
      balance: 250,
      ledger: [{ points: 250, kind: 'adjustment', reason: 'Welcome gift' }],
    });
    expect(doc.hotelReservations.map((r) => r.reservationNumber)).toEqual(['H-9001']);
    expect(doc.mails).toEqual([{ to: ANA.email, subject: 'Your shared pass', createdAt: expect.any(String), sentAt: null }]);
    expect(doc.wallet).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pass: 'ticket', barcode: ANA_TICKET, appleDevices: 1, firstAddedAt: expect.any(String) }),
        expect.objectContaining({ pass: 'member', barcode: null, appleDevices: 0 }),
      ]),
    );
    expect(doc.wallet).toHaveLength(2);
    // Nothing of Ben (his name, email, phone, photo, band), no secret, no mail body.
    const text = JSON.stringify(doc);
    for (const foreign of [BEN.firstName, BEN.email, BEN.phone, 'WB-BEN', PUSH_TOKEN, DEVICE, 'sealed-body'])
      expect(text).not.toContain(foreign);
  });

  it('finds the same person by her phone in any formatting, and by the barcode of her ticket', async () => {
    const byEmail = await documentOf({ email: ANA.email });
    const byPhone = await documentOf({ phone: '+1 (310) 555-0142' });
    expect(byPhone.tickets).toEqual(byEmail.tickets);
    expect(byPhone.loyalty.map((a) => a.memberNumber)).toEqual([]);
    const byBarcode = await documentOf({ barcode: ANA_TICKET });
    expect(byBarcode.tickets).toEqual(byEmail.tickets);
    expect(byBarcode.photos).toEqual(byEmail.photos);
  });

  it("finds the other guest by his own ticket's barcode: his registration, photo and band, none of hers", async () => {
    const doc = await documentOf({ barcode: BEN_TICKET });
    expect(doc.tickets.map((ticket) => [ticket.barcode, ticket.roles])).toEqual([
      [BEN_TICKET, ['holder', 'registrant']],
      [SHARED_TO_ANA, ['purchaser', 'holder']],
    ]);
    expect(doc.consents.map((c) => c.given)).toEqual([true, true]);
    expect(doc.wristbands.map((w) => w.wristbandBarcode)).toEqual(['WB-BEN-1']);
    expect(doc.visitReservations.map((v) => [v.barcode, v.status])).toEqual([[BEN_TICKET, 'waitlisted']]);
    expect(doc.sharesMade.map((s) => s.barcode)).toEqual([SHARED_TO_ANA]);
    const text = JSON.stringify(doc.tickets) + JSON.stringify(doc.consents) + JSON.stringify(doc.photos);
    expect(text).not.toContain(ANA.firstName);
    expect(text).not.toContain(ANA.phone);
  });

  it('answers an empty document for a person nobody holds', async () => {
    const doc = await documentOf({ email: 'nobody@example.com' });
    const { exportedAt: _at, query, ...sections } = doc;
    expect(query).toEqual({ email: 'nobody@example.com' });
    expect(Object.values(sections).every((section) => section.length === 0)).toBe(true);
  });

  it('audits each export under a keyed hash of what was asked, never the address', async () => {
    const before = await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.action, 'export'));
    await documentOf({ email: ANA.email });
    await documentOf({ email: ANA.email.toUpperCase() });
    const entries = (await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.action, 'export'))).slice(before.length);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      username: officer.username,
      resource: 'privacy',
      after: { asked: 'email', found: expect.objectContaining({ tickets: 2, photos: 1 }) },
    });
    // The same person asked for twice: the same hash; the address is nowhere in the entry.
    expect(entries[1]!.recordId).toBe(entries[0]!.recordId);
    expect(JSON.stringify(entries).toLowerCase()).not.toContain(ANA.email.toLowerCase());
  });

  it('refuses bad input with a 400 that writes nothing', async () => {
    const audit = async () => (await t.database.db.select().from(schema.auditLog)).length;
    const before = await audit();
    for (const body of [
      {},
      { email: 'not-an-email' },
      { email: ANA.email, phone: ANA.phone },
      { phone: '12' },
      { barcode: 'abc' },
      { name: 'Anabel' },
    ]) {
      const res = await exportOf(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    expect((await exportOf({ email: 'not-an-email' })).json().message).toContain('Email is not valid');
    expect((await exportOf({})).json().message).toContain('Enter one of an email, a phone or a barcode');
    expect(await audit()).toBe(before);
  });

  it('is for members holding Privacy Export: 403 without it, 401 without a session', async () => {
    const clerk = await loginAs(t.app, { accessLevel: 10 });
    expect((await exportOf({ email: ANA.email }, clerk)).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'POST', url, payload: { email: ANA.email } });
    expect(anonymous.statusCode).toBe(401);
  });
});

/** Every row of every table (the app's and the job queue's) as text, lower case. */
async function everyRow(): Promise<string[]> {
  const tables = await t.database.executeSql(
    `select table_schema as s, table_name as n from information_schema.tables
     where table_schema in ('public', 'pgboss') and table_type = 'BASE TABLE'`,
  );
  const texts: string[] = [];
  for (const { s: schemaName, n } of tables.rows as { s: string; n: string }[]) {
    const { rows } = await t.database.executeSql(`select t::text as row from "${schemaName}"."${n}" t`);
    texts.push(...rows.map((r) => `${schemaName}.${n}: ${String(r.row).toLowerCase()}`));
  }
  return texts;
}

describe('POST /api/admin/privacy/erase', () => {
  const erase = (query: object, as = officer) =>
    t.app.inject({ method: 'POST', url: '/api/admin/privacy/erase', headers: as.headers, payload: query });
  const login = (payload: object) => t.app.inject({ method: 'POST', url: '/api/login/', payload, remoteAddress: `10.9.1.${++ip}` });
  const ledgerSum = async () =>
    (await t.database.executeSql(`select coalesce(sum(points), 0)::int as sum from loyalty_ledger`)).rows[0]!.sum as number;

  it('refuses bad input with a 400 and a member without Privacy Erase with a 403, erasing nothing', async () => {
    const before = await documentOf({ email: ANA.email });
    expect((await erase({ email: 'nope' })).statusCode).toBe(400);
    expect((await erase({})).statusCode).toBe(400);
    const exporter = await loginAs(t.app, { accessLevel: 50, permissions: ['Privacy Export'] });
    expect((await erase({ email: ANA.email }, exporter)).statusCode).toBe(403);
    const after = await documentOf({ email: ANA.email });
    expect({ ...after, exportedAt: '' }).toEqual({ ...before, exportedAt: '' });
  });

  it('erases everything held about her: no row of any table holds her email, phone or name; the books stay', async () => {
    const sumBefore = await ledgerSum();
    expect((await login({ hashUrl: LINK_TO_ANA })).statusCode).toBe(200);
    const res = await erase({ email: ANA.email });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<PrivacyErasure>();
    expect(answer).toMatchObject({
      held: true,
      orderIds: [ORDER],
      erased: { 'member cards': 1, 'loyalty accounts': 1, registrations: 1, shares: 1, photos: 1, 'hotel reservations': 1, mails: 1 },
    });
    expect(answer.erased['audit entries']).toBeGreaterThan(0);
    // Searched as text in every row of every table, the job queue's included.
    const needles = [ANA.email.toLowerCase(), ANA.phone, ANA.firstName.toLowerCase(), ANA.lastName.toLowerCase()];
    expect((await everyRow()).filter((row) => needles.some((needle) => row.includes(needle)))).toEqual([]);
    // The books: the points liability is unchanged, under the member number.
    expect(await ledgerSum()).toBe(sumBefore);
    const [account] = await t.database.db
      .select()
      .from(schema.loyaltyAccounts)
      .where(sql`${schema.loyaltyAccounts.email} like 'erased-%'`);
    expect(account).toMatchObject({ firstName: 'Erased', lastName: 'Member', phone: null, seasonPassId: null });
    // Her member card is voided and published for the wallets.
    const cards = await t.database.db
      .select()
      .from(schema.walletPasses)
      .where(sql`${schema.walletPasses.voidedAt} is not null`);
    expect(cards).toHaveLength(1);
    const jobs = await t.database.executeSql(`select data::text as data from pgboss.job`);
    expect(jobs.rows.map((r) => String(r.data)).some((data) => data.includes(cards[0]!.serialNumber))).toBe(true);
    expect(MEMBER_CARD_VOIDED).toBeTruthy();
    // Her valid ticket still opens, without her name or photo; the share made to her does not.
    const ticket = await login({ orderId: ORDER, barcode: ANA_TICKET });
    expect(ticket.statusCode, ticket.body).toBe(200);
    expect(ticket.body).not.toContain(ANA.firstName);
    expect(ticket.json()).toMatchObject({ photoUid: null });
    expect((await login({ hashUrl: LINK_TO_ANA })).statusCode).toBe(410);
    // Her pass's visit reservation stays with the pass (still valid), as the personal-data map
    // keeps it: ids and times only (no row names her, above), and nothing leads to it from her email.
    const visits = await t.database.db.select().from(schema.visitReservations).where(eq(schema.visitReservations.barcode, ANA_TICKET));
    expect(visits.map((v) => [v.orderId, v.status])).toEqual([[ORDER, 'booked']]);
    expect((await documentOf({ email: ANA.email })).visitReservations).toEqual([]);
    // Ben's ticket on her order, his registration, photo and visit reservation stay his.
    const ben = await documentOf({ email: BEN.email });
    expect(ben.tickets.find((x) => x.barcode === BEN_TICKET)?.registration).toMatchObject({ firstName: BEN.firstName });
    expect(ben.photos.map((p) => p.barcode)).toEqual([BEN_TICKET]);
    expect(ben.visitReservations.map((v) => [v.barcode, v.status])).toEqual([[BEN_TICKET, 'waitlisted']]);
  });

  it('answers that nothing is held on a second erasure, and audits both under the keyed hash', async () => {
    const res = await erase({ email: ANA.email });
    expect(res.statusCode).toBe(200);
    const answer = res.json<PrivacyErasure>();
    expect(answer.held).toBe(false);
    expect(Object.values(answer.erased).every((n) => n === 0)).toBe(true);
    expect((await documentOf({ email: ANA.email })).tickets).toEqual([]);
    const entries = await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.action, 'erase'));
    expect(entries).toHaveLength(2);
    expect(entries[0]!.recordId).toBe(entries[1]!.recordId);
    expect(entries[0]).toMatchObject({ resource: 'privacy', username: officer.username, after: { asked: 'email', orders: 1 } });
  });
});

describe('erasure revokes', () => {
  it('revokes every link and token issued to her: statement, wallet and privacy links mailed before open nothing, no new card', async () => {
    const email = 'revoked.member@example.com';
    const loyalty = await loginAs(t.app, { accessLevel: 100, permissions: ['Loyalty Manage'] });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/loyalty/create',
      headers: loyalty.headers,
      payload: { email, firstName: 'Rev', lastName: 'Oked' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const accountId = created.body;
    const statementToken = t.app.keys.signToken(LOYALTY_STATEMENT_TOKEN.purpose, accountId, LOYALTY_STATEMENT_TOKEN.ttlSeconds);
    const walletToken = t.app.keys.signToken(LOYALTY_WALLET_TOKEN.purpose, accountId, LOYALTY_WALLET_TOKEN.ttlSeconds);
    const privacyToken = t.app.keys.signToken(
      PRIVACY_LINK_TOKEN.purpose,
      `${crypto.randomUUID()} ${email} ${Date.now() - 1000}`,
      PRIVACY_LINK_TOKEN.ttlSeconds,
    );
    const statement = () =>
      t.app.inject({ method: 'GET', url: '/api/loyalty/statement', headers: { authorization: `Bearer ${statementToken}` } });
    const privacyData = () =>
      t.app.inject({ method: 'GET', url: '/api/privacy/data', headers: { authorization: `Bearer ${privacyToken}` } });
    expect((await statement()).statusCode).toBe(200);
    expect((await privacyData()).statusCode).toBe(200);

    expect(
      (await t.app.inject({ method: 'POST', url: '/api/admin/privacy/erase', headers: officer.headers, payload: { email } })).statusCode,
    ).toBe(200);
    const afterStatement = await statement();
    expect(afterStatement.statusCode).toBe(401);
    expect(afterStatement.json().message).toBe(statementMessages.invalid);
    expect(afterStatement.body).not.toContain('walletToken');
    expect((await privacyData()).statusCode).toBe(401);
    // The erased account's own (pseudonymous) email with an old wallet token makes no card.
    const erasedEmail = `erased-${accountId}@erased.invalid`;
    for (const url of ['/api/apple-wallet/', '/api/google-wallet/']) {
      const card = await t.app.inject({ method: 'POST', url, payload: { email: erasedEmail, walletToken } });
      expect(card.statusCode, `${url} ${card.body}`).toBe(401);
    }
    // Nor does staff mail her a new pass link.
    const passLink = await t.app.inject({
      method: 'POST',
      url: '/api/admin/loyalty/pass-link/',
      headers: loyalty.headers,
      payload: { userID: accountId },
    });
    expect(passLink.statusCode).toBe(404);
  });
});
