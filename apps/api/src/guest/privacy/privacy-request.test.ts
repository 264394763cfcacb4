// A guest's own request: the same 202 whether or not anything is held (a mail with the link only
// when it is), throttled per address and per email; the link's token shows the staff export's
// document for its email and erases it once (audited with no staff member); a missing, forged,
// expired or spent link is a 401 that says what to do.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { guestPrivacyMessages, PRIVACY_LINK_TOKEN, type PrivacyErasure, type PrivacyExport } from '@boardwalk/contract/privacy';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { createTestApp, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';
import { revokeLinksOf } from './privacy-request.service.ts';

let t: TestApp;
let ip = 0;
const EMAIL = 'priya.request@example.com';

const ask = (email: string, address = `10.7.0.${++ip}`) =>
  t.app.inject({ method: 'POST', url: '/api/privacy/request', payload: { email }, remoteAddress: address });
const withToken = (token?: string) => (token === undefined ? {} : { authorization: `Bearer ${token}` });
const data = (token?: string) => t.app.inject({ method: 'GET', url: '/api/privacy/data', headers: withToken(token) });
// From a page in Spanish: the erasure's event names the guest's language.
const erase = (token?: string) =>
  t.app.inject({ method: 'POST', url: '/api/privacy/erase', headers: { ...withToken(token), 'accept-language': 'es-MX,es;q=0.9' } });
const mailsTo = (email: string) => t.database.db.select().from(schema.outbox).where(eq(schema.outbox.to, email));
const signed = (email: string, issuedAt = Date.now()) =>
  t.app.keys.signToken(PRIVACY_LINK_TOKEN.purpose, `${crypto.randomUUID()} ${email} ${issuedAt}`, PRIVACY_LINK_TOKEN.ttlSeconds);

beforeAll(async () => {
  t = await createTestApp();
  const guest = { firstName: 'Priya', lastName: 'Raman', email: EMAIL, phone: '6505550123' };
  await putOrder(t.app, '82000001', anOrder([{ barcode: '8200000100000001', holder: guest }], { purchaser: guest }));
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

describe('POST /api/privacy/request', () => {
  it('answers 202 alike for a guest held and a stranger, and mails only the one held, a link valid 24 hours', async () => {
    const held = await ask(EMAIL);
    const stranger = await ask('nobody.here@example.com');
    expect(held.statusCode).toBe(202);
    expect(stranger.statusCode).toBe(202);
    expect(held.json()).toEqual({ email: EMAIL, validHours: 24 });
    expect(stranger.json()).toEqual({ email: 'nobody.here@example.com', validHours: 24 });
    // The search and the mail run after the answer, in a job.
    await settleDeliveries(t.app);
    const [mail] = await mailsTo(EMAIL);
    expect(mail).toBeDefined();
    expect(await mailsTo('nobody.here@example.com')).toEqual([]);
    const body = t.app.mailer.readBody(mail!)!;
    const link = /\/privacy\/manage\?lang=en#([A-Za-z0-9_.-]+)/.exec(body);
    expect(link, body).not.toBeNull();
    expect((await data(link![1])).statusCode).toBe(200);
  });

  it('refuses a malformed email with 400, and the 6th request for one email in 15 minutes with 429', async () => {
    expect((await ask('not an email')).statusCode).toBe(400);
    const email = 'throttled.guest@example.com';
    for (let i = 0; i < 5; i++) expect((await ask(email)).statusCode).toBe(202);
    expect((await ask(email)).statusCode).toBe(429);
  });
});

describe("the link's data and erasure", () => {
  it('shows the document of its email, and refuses a missing, forged or expired link saying what to do', async () => {
    const token = signed(EMAIL);
    const res = await data(token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const doc = res.json<PrivacyExport>();
    expect(doc.query).toEqual({ email: EMAIL });
    expect(doc.tickets.map((ticket) => [ticket.barcode, ticket.roles])).toEqual([['8200000100000001', ['purchaser', 'holder']]]);
    expect((await data()).json()).toMatchObject({ message: guestPrivacyMessages.tokenRequired, reason: 'PRIVACY_LINK_MISSING' });
    const [head, , signature] = token.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ sub: 'x other@example.com', aud: 'privacy-link', exp: 9e9 })).toString('base64url')}.${signature}`;
    expect((await data(forged)).json()).toMatchObject({
      statusCode: 401,
      message: guestPrivacyMessages.invalid,
      reason: 'PRIVACY_LINK_INVALID',
    });
    vi.useFakeTimers({ now: Date.now() + 24 * 3600 * 1000 + 1000, toFake: ['Date'] });
    expect((await data(token)).json()).toMatchObject({
      statusCode: 401,
      message: guestPrivacyMessages.expired,
      reason: 'PRIVACY_LINK_EXPIRED',
    });
  });

  it('erases once: two erasures with one link at once delete once; the link is then spent; audited with no staff member', async () => {
    const token = signed(EMAIL);
    const [a, b] = await Promise.all([erase(token), erase(token)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 401]);
    const done = (a.statusCode === 200 ? a : b).json<PrivacyErasure>();
    expect(done).toMatchObject({ held: true, orderIds: ['82000001'], erased: { 'orders and tickets': 2 } });
    expect((await data(token)).json()).toMatchObject({
      statusCode: 401,
      message: guestPrivacyMessages.spent,
      reason: 'PRIVACY_LINK_SPENT',
    });
    expect((await erase(token)).statusCode).toBe(401);
    // A new link finds nothing held any more.
    const again = await data(signed(EMAIL));
    expect(again.json<PrivacyExport>().tickets).toEqual([]);
    const entries = await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.action, 'erase'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ teamMemberGuid: null, username: null, resource: 'privacy', after: { by: 'guest' } });
    expect(JSON.stringify(entries)).not.toContain(EMAIL);
    const [event] = await t.database.db.select().from(schema.integrationEvents).where(eq(schema.integrationEvents.type, 'guest.erased'));
    expect(event!.data).toEqual({ orderIds: ['82000001'], barcodes: expect.any(Array), language: 'es' });
  });

  it("revokes the email's other links: one mailed before the erasure opens nothing after it, one asked for after works", async () => {
    const email = 'revoked.links@example.com';
    const guest = { firstName: 'Rita', lastName: 'Vale', email };
    await putOrder(t.app, '82000002', anOrder([{ barcode: '8200000200000001', holder: guest }], { purchaser: guest }));
    const mailedBefore = signed(email, Date.now() - 60_000);
    const erasing = signed(email, Date.now() - 30_000);
    expect((await data(mailedBefore)).statusCode).toBe(200);
    expect((await erase(erasing)).statusCode).toBe(200);
    const refused = await data(mailedBefore);
    expect(refused.json()).toMatchObject({ statusCode: 401, message: guestPrivacyMessages.spent, reason: 'PRIVACY_LINK_SPENT' });
    expect((await erase(mailedBefore)).statusCode).toBe(401);
    // The revocation names nobody (a keyed hash), and a link issued after it works.
    const revoked = await t.database.db.select().from(schema.revokedPrivacyLinks);
    expect(JSON.stringify(revoked)).not.toContain(email);
    expect((await data(signed(email, Date.now() + 1))).statusCode).toBe(200);
  });

  it('revokes the links of a person a staff member erased', async () => {
    const email = 'staff.erased.links@example.com';
    const guest = { firstName: 'Sam', lastName: 'Ode', email };
    await putOrder(t.app, '82000003', anOrder([{ barcode: '8200000300000001', holder: guest }], { purchaser: guest }));
    const mailed = signed(email, Date.now() - 60_000);
    expect((await data(mailed)).statusCode).toBe(200);
    await t.app.privacy.erase({ email }, (tx, result) => revokeLinksOf(tx, t.app.keys, result.person.email));
    expect((await data(mailed)).json()).toMatchObject({
      statusCode: 401,
      message: guestPrivacyMessages.spent,
      reason: 'PRIVACY_LINK_SPENT',
    });
  });
});
