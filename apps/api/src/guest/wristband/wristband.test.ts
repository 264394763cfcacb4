// Wristband activation (the answers and texts, the token's 15 minutes, one binding ever), the gate
// system's lookup of a band and the staff Deactivate of a lost band, on a fresh database.
import { eventsOfType } from '../../../test-support/events.ts';
import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { wristbandTexts } from '@boardwalk/contract/wristband';
import { WRISTBAND_DEACTIVATE_PERMISSION, wristbandBindings } from '@boardwalk/contract/staff-wristband-tabs';
import type { OrderFeed } from '@boardwalk/contract/integrations';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder, staff } from '../../../test-support/fixtures.ts';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../../test-support/test-app.ts';
import { hashSecret } from '../../platform/secrets.ts';
import { TICKET_TOKENS } from '../ticket/ticket-tokens.service.ts';

let t: TestApp;
let ipSeq = 0;
/** Each lookup its own client address: the lookup throttle never crosses tests. */
const nextIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

type TicketOverrides = Partial<OrderFeed['tickets'][number]>;

const PACK = '770';
/** 2030-12-31 at 23:59 in Los Angeles is already 2031-01-01 in UTC: the park's date counts. */
const EXPIRES = '2030-12-31T23:59:59-08:00';
const VALID = 'Valid through 12/31/30';
let orderSeq = 0;

interface Ticket {
  orderId: string;
  barcode: string;
}

/** A new order with one ticket (a wristband ticket unless the overrides say otherwise). */
async function aTicket(overrides: TicketOverrides = {}): Promise<Ticket> {
  const n = ++orderSeq;
  const orderId = String(50_000_000 + n);
  const barcode = `5${String(n).padStart(15, '0')}`;
  await putOrder(t.app, orderId, anOrder([{ barcode, packId: PACK, expires: EXPIRES, ...overrides }]));
  return { orderId, barcode };
}

let bandSeq = 0;
/** A new 16-character band code. */
const aBand = () => `WB${String(++bandSeq).padStart(14, '0')}`;

async function login(ticket: Ticket) {
  const res = await t.app.inject({ method: 'POST', url: '/api/login/', payload: ticket, remoteAddress: nextIp() });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ isPassActivated: boolean; isWristband: boolean; wristbandActivateToken: string | null }>();
}

const activate = (body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/wristband/activate/', payload: body });

/** Logs in as the guest would and activates the band with the order object's token. */
async function activateBand(ticket: Ticket, wristbandBarcode: string) {
  const { wristbandActivateToken } = await login(ticket);
  return activate({ barcode: ticket.barcode, wristbandBarcode, wristbandActivateToken });
}

/** A token signed by the server for any ticket, as login would sign it for a wristband ticket. */
const tokenFor = (barcode: string) => t.app.keys.signToken(TICKET_TOKENS.wristband.purpose, barcode, TICKET_TOKENS.wristband.ttlSeconds);

const gate = (code: string, headers: Record<string, string> = integrationAuth) =>
  t.app.inject({ method: 'GET', url: `/api/integrations/wristbands/${code}`, headers });

async function bindingCount() {
  const [row] = await t.database.db.select({ n: count() }).from(schema.wristbandBindings);
  return row!.n;
}

let admin: StaffLogin;
beforeAll(async () => {
  t = await createTestApp();
  await staff.wristbandPack(t.database.db, { merchItemId: PACK });
  admin = await loginAs(t.app, { accessLevel: 1000 });
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

describe('the order object of a shared view', () => {
  it('carries no wristbandActivateToken (a share link or a share id); only the ticket’s own guest gets one', async () => {
    const ticket = await aTicket();
    const hashUrl = randomBytes(66).toString('base64url');
    const [share] = await t.database.db
      .insert(schema.ticketShares)
      .values({ barcode: ticket.barcode, hashUrlHash: hashSecret(hashUrl), firstName: 'Ana', lastName: 'Lee', email: 'ana@example.com' })
      .returning();
    const viewOf = async (payload: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/login/', payload, remoteAddress: nextIp() });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ shareId: string; isWristband: boolean; wristbandActivateToken: string | null }>();
    };
    for (const shared of [await viewOf({ hashUrl }), await viewOf({ ...ticket, shareId: share!.shareId })]) {
      expect(shared).toMatchObject({ shareId: share!.shareId, isWristband: true, wristbandActivateToken: null });
    }
    expect((await login(ticket)).wristbandActivateToken).toEqual(expect.any(String));
  });
});

describe('POST /api/wristband/activate/', () => {
  it('binds the band and answers the validity text (text/plain), after which the pass is activated', async () => {
    const ticket = await aTicket();
    const before = await login(ticket);
    expect(before).toMatchObject({ isWristband: true, isPassActivated: false });
    expect(before.wristbandActivateToken).toEqual(expect.any(String));

    const band = aBand();
    const res = await activate({ barcode: ticket.barcode, wristbandBarcode: band, wristbandActivateToken: before.wristbandActivateToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe(VALID);
    expect((await login(ticket)).isPassActivated).toBe(true);
    const [row] = await t.database.db.select().from(schema.wristbandBindings);
    expect(row).toMatchObject({ wristbandBarcode: band, barcode: ticket.barcode, orderId: ticket.orderId, deactivatedAt: null });
    expect(await eventsOfType(t.app, 'wristband.activated')).toEqual([
      { orderId: ticket.orderId, barcode: ticket.barcode, wristbandBarcode: band },
    ]);
  });

  it('takes the code in any case and with surrounding spaces, and stores it upper case', async () => {
    const ticket = await aTicket();
    const res = await activateBand(ticket, '  abcdef0123456789 ');
    expect(res.statusCode, res.body).toBe(200);
    expect((await gate('ABCDEF0123456789')).json()).toMatchObject({ barcode: ticket.barcode });
    // The same band typed in another case is the same band.
    const other = await aTicket();
    expect((await activateBand(other, 'ABCDEF0123456789')).statusCode).toBe(403);
  });

  it('says "Valid with no end date" for a ticket without expiry, and the park date of the expiry otherwise', async () => {
    expect((await activateBand(await aTicket({ expires: null }), aBand())).body).toBe('Valid with no end date');
    // 05:00 UTC on January 1st is still December 31st in Los Angeles.
    expect((await activateBand(await aTicket({ expires: '2031-01-01T05:00:00Z' }), aBand())).body).toBe('Valid through 12/31/30');
  });

  it('answers 408 with the spec text once the token is older than 15 minutes, and binds nothing', async () => {
    const ticket = await aTicket();
    const { wristbandActivateToken } = await login(ticket);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 15 * 60 * 1000 + 1000);
    const before = await bindingCount();
    const res = await activate({ barcode: ticket.barcode, wristbandBarcode: aBand(), wristbandActivateToken });
    expect(res.statusCode).toBe(408);
    expect(res.json()).toMatchObject({ error: 'TOKEN_EXPIRED', message: wristbandTexts.expired });
    expect(await bindingCount()).toBe(before);
  });

  it('still accepts the token just before 15 minutes', async () => {
    const ticket = await aTicket();
    const { wristbandActivateToken } = await login(ticket);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 14 * 60 * 1000);
    const res = await activate({ barcode: ticket.barcode, wristbandBarcode: aBand(), wristbandActivateToken });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('answers 401 to the token of another ticket, a tampered token and a token of another purpose', async () => {
    const mine = await aTicket();
    const other = await aTicket();
    const { wristbandActivateToken } = await login(other);
    const before = await bindingCount();
    for (const token of [
      wristbandActivateToken!,
      `${wristbandActivateToken!.slice(0, -2)}xx`,
      await t.app.keys.signToken(TICKET_TOKENS.share.purpose, mine.barcode, 600),
    ]) {
      const res = await activate({ barcode: mine.barcode, wristbandBarcode: aBand(), wristbandActivateToken: token });
      expect(res.statusCode).toBe(401);
    }
    expect(await bindingCount()).toBe(before);
    expect((await login(mine)).isPassActivated).toBe(false);
  });

  it.each<[string, TicketOverrides]>([
    ['a ticket that is not a wristband ticket', { packId: '999' }],
    ['a refunded ticket', { refunded: true }],
    ['an expired ticket', { expires: '2020-01-01T00:00:00Z' }],
    ['a redeemed ticket', { redeemed: '2026-11-20T10:00:00-08:00' }],
  ])('answers 401 with the spec text for %s, binding nothing', async (_name, overrides) => {
    const ticket = await aTicket(overrides);
    const before = await bindingCount();
    const res = await activate({
      barcode: ticket.barcode,
      wristbandBarcode: aBand(),
      wristbandActivateToken: await tokenFor(ticket.barcode),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'UNAUTHORIZED', message: wristbandTexts.unauthorized });
    expect(await bindingCount()).toBe(before);
  });

  it('answers 401 for an excluded wristband ticket', async () => {
    const ticket = await aTicket({ merchItemId: '4242' });
    await staff.exclusion(t.database.db, { merchItemId: '4242', customError: 'Not for wallets' });
    const res = await activateBand(ticket, aBand());
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(wristbandTexts.unauthorized);
  });

  it('answers 403 with the period when the ticket already has a band, and when the band is bound to another ticket', async () => {
    const ticket = await aTicket();
    const band = aBand();
    expect((await activateBand(ticket, band)).statusCode).toBe(200);
    const already = wristbandTexts.alreadyActivated('through 12/31/30');
    expect(already).toBe('This wristband was already activated and can be used through 12/31/30. Please discard it and take a new one.');

    // The same band again, and a second band for the same ticket.
    for (const second of [band, aBand()]) {
      const res = await activateBand(ticket, second);
      expect(res.statusCode).toBe(403);
      // The reason and the day, for a page to word in its language.
      expect(res.json()).toMatchObject({
        error: 'FORBIDDEN',
        message: already,
        reason: 'WRISTBAND_ALREADY_ACTIVATED',
        params: { validThrough: '2030-12-31' },
      });
    }
    // Another ticket (another expiry) cannot take the band: the period is the band's own ticket's.
    const other = await aTicket({ expires: '2031-06-30T12:00:00-07:00' });
    const taken = await activateBand(other, band);
    expect(taken.statusCode).toBe(403);
    expect(taken.json().message).toBe(already);
    expect((await login(other)).isPassActivated).toBe(false);
    expect(await t.database.db.select().from(schema.wristbandBindings)).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ barcode: other.barcode })]),
    );
  });

  it('answers 403 for a ticket the ticketing feed already marks activated', async () => {
    const ticket = await aTicket({ isPassActivated: true, expires: null });
    const res = await activateBand(ticket, aBand());
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      message: wristbandTexts.alreadyActivated('with no end date'),
      reason: 'WRISTBAND_ALREADY_ACTIVATED',
      params: { validThrough: null },
    });
  });

  it('lets exactly one of two concurrent activations of one band (two tickets) win; the other gets 403', async () => {
    const [a, b] = [await aTicket(), await aTicket()];
    const band = aBand();
    const [tokenA, tokenB] = [await tokenFor(a.barcode), await tokenFor(b.barcode)];
    const answers = await Promise.all([
      activate({ barcode: a.barcode, wristbandBarcode: band, wristbandActivateToken: tokenA }),
      activate({ barcode: b.barcode, wristbandBarcode: band, wristbandActivateToken: tokenB }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 403]);
    const rows = (await t.database.db.select().from(schema.wristbandBindings)).filter((r) => r.wristbandBarcode === band);
    expect(rows).toHaveLength(1);
  });

  it('lets exactly one of two concurrent activations of one ticket (two bands) win', async () => {
    const ticket = await aTicket();
    const token = await tokenFor(ticket.barcode);
    const answers = await Promise.all(
      [aBand(), aBand(), aBand()].map((band) =>
        activate({ barcode: ticket.barcode, wristbandBarcode: band, wristbandActivateToken: token }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 403, 403]);
    const rows = (await t.database.db.select().from(schema.wristbandBindings)).filter((r) => r.barcode === ticket.barcode);
    expect(rows).toHaveLength(1);
  });

  it('keeps the activation when the ticketing feed sends the order again, the same or changed', async () => {
    const ticket = await aTicket();
    const band = aBand();
    expect((await activateBand(ticket, band)).statusCode).toBe(200);
    const same = anOrder([{ barcode: ticket.barcode, packId: PACK, expires: EXPIRES }]);
    expect((await putOrder(t.app, ticket.orderId, same)).json()).toEqual({ outcome: 'unchanged' });
    const changed = anOrder([{ barcode: ticket.barcode, packId: PACK, expires: EXPIRES, cash: 12, isPassActivated: false }]);
    expect((await putOrder(t.app, ticket.orderId, changed)).json()).toEqual({ outcome: 'replaced' });
    expect((await login(ticket)).isPassActivated).toBe(true);
    expect((await gate(band)).statusCode).toBe(200);
    expect((await activateBand(ticket, aBand())).statusCode).toBe(403);
  });

  it('makes the photo of an activated wristband ticket follow the activated-pass rules', async () => {
    const ticket = await aTicket({ isPassholder: true });
    const uid = `photo-${ticket.barcode}`;
    await t.database.db
      .insert(schema.photos)
      .values({ uid, barcode: ticket.barcode, bmp: Buffer.from('bmp'), png: Buffer.from('png'), width: 4, height: 3 });
    // Not activated yet: no reset request (that is for activated passes).
    const early = await t.app.inject({
      method: 'GET',
      url: `/api/reset-photo/${ticket.orderId}/${ticket.barcode}`,
      remoteAddress: nextIp(),
    });
    expect(early.statusCode).toBe(409);
    expect((await activateBand(ticket, aBand())).statusCode).toBe(200);
    const replace = await t.app.inject({ method: 'GET', url: `/api/replace-photo/${ticket.barcode}/${uid}`, remoteAddress: nextIp() });
    expect(replace.statusCode).toBe(403);
    const reset = await t.app.inject({
      method: 'GET',
      url: `/api/reset-photo/${ticket.orderId}/${ticket.barcode}`,
      remoteAddress: nextIp(),
    });
    expect(reset.statusCode, reset.body).toBe(200);
  });

  it.each<[string, Record<string, unknown>]>([
    ['a code of 15 characters', { wristbandBarcode: 'A'.repeat(15) }],
    ['a code of 17 characters', { wristbandBarcode: 'A'.repeat(17) }],
    ['a code with a dash', { wristbandBarcode: 'ABCDEFG-12345678' }],
    ['no token', { wristbandActivateToken: undefined }],
    ['a bad barcode', { barcode: '12' }],
    ['an unknown field', { orderId: '50000001' }],
  ])('answers 400 for %s, binding nothing', async (_name, change) => {
    const ticket = await aTicket();
    const body = { barcode: ticket.barcode, wristbandBarcode: aBand(), wristbandActivateToken: await tokenFor(ticket.barcode), ...change };
    const before = await bindingCount();
    const res = await activate(body);
    expect(res.statusCode).toBe(400);
    expect(await bindingCount()).toBe(before);
  });
});

describe('GET /api/integrations/wristbands/{wristbandBarcode}', () => {
  it('answers the ticket a band is bound to; 401 without the key; 404 for an unknown band; 400 for a bad code', async () => {
    const ticket = await aTicket({ product: 'Wristband Day', redeemed: null });
    const band = aBand();
    expect((await activateBand(ticket, band)).statusCode).toBe(200);

    expect((await gate(band, {})).statusCode).toBe(401);
    expect((await gate(band, { authorization: 'Bearer wrong' })).statusCode).toBe(401);
    const res = await gate(band.toLowerCase());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      wristbandBarcode: band,
      barcode: ticket.barcode,
      orderId: ticket.orderId,
      product: 'Wristband Day',
      activatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      expires: new Date(EXPIRES).toISOString(),
      redeemed: null,
      refunded: false,
    });
    const unknown = await gate(aBand());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('NOT_FOUND');
    expect((await gate('short')).statusCode).toBe(400);
  });

  it('is documented in /docs', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    expect(doc.paths['/api/integrations/wristbands/{wristbandBarcode}']?.get).toMatchObject({
      tags: ['integrations'],
      responses: expect.objectContaining({ 200: expect.anything(), 401: expect.anything(), 404: expect.anything() }),
    });
    expect(doc.paths['/api/wristband/activate/']?.post).toBeDefined();
    expect(doc.paths['/api/admin/wristbands/deactivate/{id}']?.post).toBeDefined();
  });
});

describe('staff Deactivate of a lost band', () => {
  const deactivate = (id: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/api/admin/wristbands/deactivate/${id}`, headers });
  const bindingOf = async (band: string) =>
    (await t.database.db.select().from(schema.wristbandBindings)).find((r) => r.wristbandBarcode === band)!;
  const auditCount = async () => (await t.database.db.select({ n: count() }).from(schema.auditLog))[0]!.n;

  it('needs Wristbands Deactivate (403 without it; a lower member holding it may), writing nothing when refused', async () => {
    const ticket = await aTicket();
    const band = aBand();
    await activateBand(ticket, band);
    const { id } = await bindingOf(band);
    const viewer = await loginAs(t.app, { accessLevel: 1 });
    const [bindingsBefore, auditBefore] = [await bindingCount(), await auditCount()];
    expect((await deactivate(id, {})).statusCode).toBe(401);
    const refused = await deactivate(id, viewer.headers);
    expect(refused.statusCode).toBe(403);
    expect(await auditCount()).toBe(auditBefore);
    expect((await bindingOf(band)).deactivatedAt).toBeNull();
    expect(await bindingCount()).toBe(bindingsBefore);
    // The list is level 1: the viewer sees the binding.
    const list = await t.app.inject({ method: 'GET', url: `${wristbandBindings.api}?search=${band}`, headers: viewer.headers });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toHaveLength(1);

    const supervisor = await loginAs(t.app, { accessLevel: 10 });
    expect(supervisor.result.permissions.map((p) => p.permissionName)).toContain(WRISTBAND_DEACTIVATE_PERMISSION);
    expect((await deactivate(id, supervisor.headers)).statusCode).toBe(200);
  });

  it('is audited; the gate no longer knows the band; the ticket binds a new band; the lost band never binds again', async () => {
    const ticket = await aTicket();
    const band = aBand();
    await activateBand(ticket, band);
    const { id } = await bindingOf(band);

    const res = await deactivate(id, admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      wristbandBindingGUID: id,
      wristbandBarcode: band,
      wristbandTicketBarcode: ticket.barcode,
      wristbandOrderID: ticket.orderId,
      wristbandDeactivatedAt: expect.any(String),
      wristbandDeactivatedBy: admin.username,
    });
    const [entry] = await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.recordId, id));
    expect(entry).toMatchObject({
      action: 'deactivate',
      resource: 'wristbands',
      username: admin.username,
      before: expect.objectContaining({ wristbandBarcode: band, wristbandDeactivatedAt: null }),
      after: expect.objectContaining({ wristbandBarcode: band, wristbandDeactivatedBy: admin.username }),
    });

    expect((await gate(band)).statusCode).toBe(404);
    // Not activated any more (nothing from the feed): the page offers the field again.
    expect((await login(ticket)).isPassActivated).toBe(false);
    const lost = await activateBand(ticket, band);
    expect(lost.statusCode).toBe(403);
    expect(lost.json()).toMatchObject({ message: wristbandTexts.deactivated, reason: 'WRISTBAND_DEACTIVATED' });
    const other = await aTicket();
    expect((await activateBand(other, band)).statusCode).toBe(403);

    const fresh = aBand();
    expect((await activateBand(ticket, fresh)).body).toBe(VALID);
    expect((await gate(fresh)).json()).toMatchObject({ barcode: ticket.barcode });

    // Deactivating it again: 409; an unknown id: 404; neither is audited.
    const auditBefore = await auditCount();
    expect((await deactivate(id, admin.headers)).statusCode).toBe(409);
    expect((await deactivate(crypto.randomUUID(), admin.headers)).statusCode).toBe(404);
    expect((await deactivate('not-a-guid', admin.headers)).statusCode).toBe(400);
    expect(await auditCount()).toBe(auditBefore);
  });

  it('is read-only through the generic tab: no create, update or delete routes', async () => {
    const ticket = await aTicket();
    const band = aBand();
    await activateBand(ticket, band);
    const { id } = await bindingOf(band);
    for (const [method, url] of [
      ['POST', wristbandBindings.api],
      ['PUT', `${wristbandBindings.api}${id}`],
      ['DELETE', `${wristbandBindings.api}${id}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: admin.headers, payload: {} });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await bindingOf(band)).deactivatedAt).toBeNull();
  });
});
