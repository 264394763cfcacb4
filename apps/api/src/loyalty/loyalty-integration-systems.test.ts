// The integration keys as systems (issue 47, items 3, 4 and 5): each key calls only its
// scopes (403 naming the one it lacks, nothing written); the key's name is recorded as the
// system on the redemption, its ledger entries and its events; a key reverses only its own
// redemptions unless it holds reverse-any; an idempotency key is one system's; and a till
// spends only against the card's random token, never a typed member number.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationEvents, loyaltyAccounts, loyaltyLedger, loyaltyRedemptions, loyaltyRewards } from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { readEventFeed } from '../../test-support/events.ts';
import { feedTablesFingerprint } from '../../test-support/integration-tables.fixtures.ts';
import { createTestApp, integrationAuth, settleDeliveries, TEST_INTEGRATION_KEY, type TestApp } from '../../test-support/test-app.ts';
import { claimHotel, claimPurchase, claimTickets } from './loyalty-claims.service.ts';
import { UNPROVEN_MEMBER } from './loyalty-redemptions.service.ts';
import { insertAccount } from './loyalty.repo.ts';
import { loyaltyAccountErasure } from './loyalty-privacy.repo.ts';
import { loyaltyCoreOf } from './loyalty.service.ts';

const SECRET = {
  gate: 'gate-secret-0123456789abcdef',
  till: 'till-secret-0123456789abcdef',
  kiosk: 'kiosk-secret-0123456789abcdef',
  office: 'office-secret-0123456789abcdef',
  crm: 'crm-secret-0123456789abcdef',
};
const as = (name: keyof typeof SECRET) => ({ authorization: `Bearer ${SECRET[name]}` });
/** The feeds' keys, each holding its feed's scope alone. */
const FEED_SECRET = {
  boxoffice: 'boxoffice-secret-0123456789abcdef',
  pos: 'pos-secret-0123456789abcdef',
  hotel: 'hotel-secret-0123456789abcdef',
};
const asFeed = (name: keyof typeof FEED_SECRET) => ({ authorization: `Bearer ${FEED_SECRET[name]}` });

const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      INTEGRATION_API_KEYS: [
        `gate:${SECRET.gate}:usage+wristbands`,
        `till:${SECRET.till}:members+redeem+reverse`,
        `kiosk:${SECRET.kiosk}:members+redeem+reverse`,
        `office:${SECRET.office}:reverse-any`,
        `crm:${SECRET.crm}:events`,
        `boxoffice:${FEED_SECRET.boxoffice}:orders`,
        `pos:${FEED_SECRET.pos}:checks`,
        `hotel:${FEED_SECRET.hotel}:reservations`,
        // The old form: every scope (the test helpers read the feed with it).
        `ticketing:${TEST_INTEGRATION_KEY}`,
      ].join(','),
      LOG_LEVEL: 'info',
    },
    logStream: { write: (line) => void lines.push(line) },
  });
});
afterAll(() => t.close());

const API = '/api/integrations/loyalty/';
let seq = 0;

/** A member who earned `points`: their member number, card token and account. */
async function aMember(points: number) {
  const n = ++seq;
  const email = `system${n}@example.com`;
  const accountId = (await insertAccount(t.database.db, {
    email,
    firstName: 'Sys',
    lastName: `Member ${n}`,
    createdBy: 'staff',
    createdAt: new Date(),
  }))!;
  const orderId = String(74000000 + n);
  await putOrder(t.app, orderId, anOrder([{ barcode: `${orderId}00000001`, price: points }], { orderDate: new Date().toISOString() }));
  await claimTickets(loyaltyCoreOf(t.app), { orderId, email, accountId }, { kind: 'staff', username: 'gina' });
  const rows = (await t.database.executeSql(`select member_number, card_token from loyalty_accounts where id = '${accountId}'`)).rows as {
    member_number: string;
    card_token: string;
  }[];
  return { memberNumber: rows[0]!.member_number, card: rows[0]!.card_token, accountId, email };
}

async function aReward(pointsCost = 100) {
  const [row] = await t.database.db
    .insert(loyaltyRewards)
    .values({ name: `System reward ${++seq}`, pointsCost })
    .returning();
  return row!;
}

const redeem = (key: keyof typeof SECRET, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `${API}redemptions`, headers: as(key), payload });
const reverse = (key: keyof typeof SECRET, redemptionId: string) =>
  t.app.inject({ method: 'POST', url: `${API}redemptions/${redemptionId}/reverse`, headers: as(key) });
const ledgerOf = (accountId: string) =>
  t.database.db.select().from(loyaltyLedger).where(eq(loyaltyLedger.accountId, accountId)).orderBy(loyaltyLedger.id);
const balanceOf = async (accountId: string) => (await ledgerOf(accountId)).reduce((sum, e) => sum + e.points, 0);

describe('scoped integration keys', () => {
  // Each route with the scope it needs, and a call a key holding it may make.
  const routes = (card: string, memberNumber: string) =>
    [
      ['orders', { method: 'PUT', url: '/api/integrations/orders/75000001', payload: anOrder([{ barcode: '7500000100000001' }]) }],
      ['orders', { method: 'GET', url: '/api/integrations/orders/75000001' }],
      [
        'usage',
        {
          method: 'POST',
          url: '/api/integrations/usage',
          payload: {
            events: [
              { barcode: '7500000100000001', attraction: 'Sea Dragon', location: 'West Pier', timestamp: '2026-11-21T11:02:09-08:00' },
            ],
          },
        },
      ],
      ['wristbands', { method: 'GET', url: '/api/integrations/wristbands/WB00000001' }],
      [
        'checks',
        {
          method: 'PUT',
          url: '/api/integrations/checks/C-75',
          payload: { checkNumber: '75', orderDate: '2026-11-21T12:30:00-08:00', terminalId: 'FB-07', total: 9 },
        },
      ],
      [
        'reservations',
        {
          method: 'PUT',
          url: '/api/integrations/reservations/H75',
          payload: { arrival: '2026-12-01', departure: '2026-12-03', total: 412 },
        },
      ],
      ['members', { method: 'GET', url: `${API}members/${memberNumber}` }],
      ['redeem', { method: 'POST', url: `${API}redemptions`, payload: { card, rewardId: crypto.randomUUID(), idempotencyKey: 'scope-1' } }],
      ['reverse', { method: 'POST', url: `${API}redemptions/${crypto.randomUUID()}/reverse` }],
      ['events', { method: 'GET', url: '/api/integrations/events' }],
    ] as const;

  it('answers 403 naming the missing scope to a key without it, on every route, and writes nothing', async () => {
    const member = await aMember(300);
    // The gate may record usage (its scope): every other feed table stays as it was.
    const feedTables = async () => {
      const tables = JSON.parse(await feedTablesFingerprint(t.database.db)) as Record<string, unknown>;
      delete tables.attractionUsage;
      return tables;
    };
    const before = await feedTables();
    const [events] = await t.database
      .executeSql('select count(*)::int as n from integration_events')
      .then((r) => r.rows as { n: number }[]);
    const holders: Record<string, (keyof typeof SECRET)[]> = {
      orders: [],
      checks: [],
      reservations: [],
      usage: ['gate'],
      wristbands: ['gate'],
      members: ['till', 'kiosk'],
      redeem: ['till', 'kiosk'],
      reverse: ['till', 'kiosk', 'office'],
      events: ['crm'],
    };
    for (const [scope, call] of routes(member.card, member.memberNumber)) {
      for (const key of Object.keys(SECRET) as (keyof typeof SECRET)[]) {
        const res = await t.app.inject({ ...call, headers: as(key) });
        if (holders[scope]!.includes(key)) {
          expect(res.statusCode, `${key} ${call.method} ${call.url}`).not.toBe(403);
          continue;
        }
        expect(res.statusCode, `${key} ${call.method} ${call.url}`).toBe(403);
        expect(res.json()).toMatchObject({ error: 'FORBIDDEN', message: expect.stringContaining(`"${scope}"`) });
      }
    }
    expect(await feedTables()).toEqual(before);
    const [after] = await t.database.executeSql('select count(*)::int as n from integration_events').then((r) => r.rows as { n: number }[]);
    expect(after!.n).toBe(events!.n);
    expect(await balanceOf(member.accountId)).toBe(300);
  });

  it('lets an old-style key (name:secret) call every scope, and warns at start naming it', async () => {
    const member = await aMember(50);
    for (const [, call] of routes(member.card, member.memberNumber)) {
      expect((await t.app.inject({ ...call, headers: integrationAuth })).statusCode, `${call.method} ${call.url}`).not.toBe(403);
    }
    const warnings = lines.map((l) => JSON.parse(l) as { level: number; msg: string; integration?: string }).filter((e) => e.level === 40);
    expect(warnings).toContainEqual(expect.objectContaining({ integration: 'ticketing', msg: expect.stringContaining('"ticketing"') }));
    expect(warnings.filter((w) => w.msg.includes('without scopes')).map((w) => w.integration)).toEqual(['ticketing']);
    expect(lines.join('')).not.toContain(TEST_INTEGRATION_KEY);
  });
});

describe('the system that caused it', () => {
  it('records the key name on the redemption, its ledger entries and its events; a reversal on its entry', async () => {
    const member = await aMember(300);
    const reward = await aReward(120);
    const redeemed = await redeem('till', { card: member.card, rewardId: reward.id, idempotencyKey: 'sys-1' });
    expect(redeemed.statusCode, redeemed.body).toBe(201);
    const { redemptionId } = redeemed.json();
    const [row] = await t.database.db.select().from(loyaltyRedemptions).where(eq(loyaltyRedemptions.id, redemptionId));
    expect(row).toMatchObject({ system: 'till', causedBy: 'till' });
    expect((await reverse('till', redemptionId)).statusCode).toBe(200);
    expect((await ledgerOf(member.accountId)).map((e) => [e.kind, e.system])).toEqual([
      ['earn', null],
      ['redemption', 'till'],
      ['redemption-reversal', 'till'],
    ]);
    const feed = await t.app.inject({ method: 'GET', url: '/api/integrations/events?limit=1000', headers: as('crm') });
    expect(feed.statusCode).toBe(200);
    const ours = (await readEventFeed(t.app)).events.filter((e) => e.data.memberNumber === member.memberNumber);
    expect(ours.map((e) => [e.type, e.system])).toEqual([
      ['loyalty.member_created', null],
      ['loyalty.points_changed', null],
      ['loyalty.reward_redeemed', 'till'],
      ['loyalty.points_changed', 'till'],
      ['loyalty.points_changed', 'till'],
    ]);
    const stored = await t.database.db.select({ system: integrationEvents.system }).from(integrationEvents);
    expect(stored.some((e) => e.system === 'till')).toBe(true);
  });

  it('records the feed’s key name on the reversal a refund or cancellation causes, for each feed', async () => {
    const member = await aMember(10);
    const core = loyaltyCoreOf(t.app);
    const who = { kind: 'staff', username: 'gina' } as const;
    const check = { checkNumber: '76', orderDate: new Date().toISOString(), terminalId: 'FB-07', total: 30 };
    const stay = { email: member.email, arrival: '2026-12-01', departure: '2026-12-03', total: 400 };
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/integrations/checks/C-76', headers: asFeed('pos'), payload: check })).statusCode,
    ).toBe(201);
    const put = (url: string, payload: object) => t.app.inject({ method: 'PUT', url, headers: asFeed('hotel'), payload });
    expect((await put('/api/integrations/reservations/H76', stay)).statusCode).toBe(201);
    const orderId = String(76000000 + ++seq);
    await putOrder(t.app, orderId, anOrder([{ barcode: `${orderId}00000001`, price: 50 }], { orderDate: new Date().toISOString() }));
    await claimTickets(core, { orderId, email: member.email, accountId: member.accountId }, who);
    await claimPurchase(core, { accountId: member.accountId, email: member.email, checkNumber: '76', checkID: 'C-76' }, who);
    await claimHotel(core, { accountId: member.accountId, email: member.email, reservationNumber: 'H76' }, who);
    expect((await ledgerOf(member.accountId)).filter((e) => e.kind === 'earn')).toHaveLength(4);

    const refunded = anOrder([{ barcode: `${orderId}00000001`, price: 50, refunded: true }], { orderDate: new Date().toISOString() });
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/integrations/orders/${orderId}`, headers: asFeed('boxoffice'), payload: refunded }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/integrations/checks/C-76',
          headers: asFeed('pos'),
          payload: { ...check, refunded: true },
        })
      ).statusCode,
    ).toBe(200);
    expect((await put('/api/integrations/reservations/H76', { ...stay, cancelled: true })).statusCode).toBe(200);
    await settleDeliveries(t.app);
    const reversals = (await ledgerOf(member.accountId)).filter((e) => e.kind === 'reversal');
    expect(reversals.map((e) => [e.sourceType, e.causedBy, e.system]).sort()).toEqual([
      ['food-and-beverage', 'system', 'pos'],
      ['hotel', 'system', 'hotel'],
      ['ticket', 'system', 'boxoffice'],
    ]);
    const ours = (await readEventFeed(t.app)).events.filter((e) => e.data.memberNumber === member.memberNumber);
    expect(
      ours
        .filter((e) => e.type === 'loyalty.points_changed' && (e.data.entry as { kind: string }).kind === 'reversal')
        .map((e) => e.system)
        .sort(),
    ).toEqual(['boxoffice', 'hotel', 'pos']);
  });

  it('reverses only its own redemptions without reverse-any: 403 naming reverse-any, nothing given back; reverse-any reverses any', async () => {
    const member = await aMember(300);
    const reward = await aReward(100);
    const { redemptionId } = (await redeem('till', { card: member.card, rewardId: reward.id, idempotencyKey: 'own-1' })).json();
    const refused = await reverse('kiosk', redemptionId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('"reverse-any"');
    expect(await balanceOf(member.accountId)).toBe(200);
    const reversed = await reverse('office', redemptionId);
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(await balanceOf(member.accountId)).toBe(300);
    expect((await ledgerOf(member.accountId)).at(-1)).toMatchObject({ kind: 'redemption-reversal', system: 'office' });
  });
});

describe('idempotency per system', () => {
  it('makes the same key from two systems two redemptions, points spent twice; each system replays its own', async () => {
    const member = await aMember(500);
    const reward = await aReward(100);
    const body = { card: member.card, rewardId: reward.id, idempotencyKey: 'txn-0001' };
    const fromTill = await redeem('till', body);
    const fromKiosk = await redeem('kiosk', body);
    expect([fromTill.statusCode, fromKiosk.statusCode]).toEqual([201, 201]);
    expect(fromTill.json().redemptionId).not.toBe(fromKiosk.json().redemptionId);
    expect(await balanceOf(member.accountId)).toBe(300);
    const again = await redeem('kiosk', body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(fromKiosk.json());
    expect(await balanceOf(member.accountId)).toBe(300);
  });

  it('spends once per system for 20 concurrent calls of one key from each of two systems', async () => {
    const member = await aMember(1000);
    const reward = await aReward(100);
    const body = { card: member.card, rewardId: reward.id, idempotencyKey: 'race-key' };
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => redeem(i % 2 ? 'till' : 'kiosk', body)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([...Array(38).fill(200), 201, 201]);
    for (const key of ['till', 'kiosk'] as const) {
      const ids = new Set(answers.filter((_, i) => (i % 2 ? 'till' : 'kiosk') === key).map((a) => a.json().redemptionId));
      expect(ids.size, key).toBe(1);
    }
    expect(await balanceOf(member.accountId)).toBe(800);
    const rows = await t.database.db.select().from(loyaltyRedemptions).where(eq(loyaltyRedemptions.accountId, member.accountId));
    expect(rows.map((r) => r.system).sort()).toEqual(['kiosk', 'till']);
  });
});

describe('the card credential', () => {
  it('spends only against the card token: a member number in its place is a 400, an unknown token a 404, nothing spent', async () => {
    const member = await aMember(300);
    const reward = await aReward(100);
    expect(member.card).toMatch(/^[0-9a-f]{32}$/);
    const byNumber = await redeem('till', { memberNumber: member.memberNumber, rewardId: reward.id, idempotencyKey: 'num-1' });
    expect(byNumber.statusCode).toBe(400);
    const numberAsCard = await redeem('till', { card: member.memberNumber, rewardId: reward.id, idempotencyKey: 'num-2' });
    expect(numberAsCard.statusCode).toBe(400);
    expect(numberAsCard.json().fields).toContainEqual(expect.objectContaining({ path: 'card' }));
    const guessed = await redeem('till', {
      card: `${member.card.slice(0, 31)}${member.card.endsWith('0') ? '1' : '0'}`,
      rewardId: reward.id,
      idempotencyKey: 'num-3',
    });
    expect(guessed.statusCode).toBe(404);
    expect(await balanceOf(member.accountId)).toBe(300);
    // A scanner's upper case is the same card.
    expect((await redeem('till', { card: member.card.toUpperCase(), rewardId: reward.id, idempotencyKey: 'num-4' })).statusCode).toBe(201);
    expect(await balanceOf(member.accountId)).toBe(200);
    // Looked up by it (in the URL): the log never holds the token.
    expect((await t.app.inject({ method: 'GET', url: `${API}members/${member.card}`, headers: as('till') })).statusCode).toBe(200);
    const log = lines.join('\n');
    expect(log).toContain(`members/${'*'.repeat(28)}${member.card.slice(-4)}`);
    expect(log.toLowerCase()).not.toContain(member.card);
  });

  it('is replaced when the member’s data is erased: the card left in a wallet spends nothing', async () => {
    const member = await aMember(300);
    const reward = await aReward(100);
    await t.database.db.transaction((tx) =>
      loyaltyAccountErasure.erase(tx, { email: member.email, phone: null, tickets: [] }, loyaltyCoreOf(t.app).changes),
    );
    const res = await redeem('till', { card: member.card, rewardId: reward.id, idempotencyKey: 'erased-1' });
    expect(res.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `${API}members/${member.card}`, headers: as('till') })).statusCode).toBe(404);
    expect(await balanceOf(member.accountId)).toBe(300);
  });

  it('spends nothing at a till for an account whose email was never proven (taken before proof existed), until it is', async () => {
    const member = await aMember(300);
    const reward = await aReward(100);
    await t.database.db
      .update(loyaltyAccounts)
      .set({ emailProvenAt: null, emailProvenBy: null })
      .where(eq(loyaltyAccounts.id, member.accountId));
    const refused = await redeem('till', { card: member.card, rewardId: reward.id, idempotencyKey: 'unproven-1' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: UNPROVEN_MEMBER });
    expect(await balanceOf(member.accountId)).toBe(300);
    await t.database.db
      .update(loyaltyAccounts)
      .set({ emailProvenAt: new Date(), emailProvenBy: 'guest' })
      .where(eq(loyaltyAccounts.id, member.accountId));
    expect((await redeem('till', { card: member.card, rewardId: reward.id, idempotencyKey: 'unproven-1' })).statusCode).toBe(201);
    expect(await balanceOf(member.accountId)).toBe(200);
  });

  it('gives every account its own random token, also the ones a migration finds (a column default per row)', async () => {
    const a = await aMember(1);
    const b = await aMember(1);
    expect(a.card).not.toBe(b.card);
    expect(a.card).not.toContain(a.memberNumber);
  });
});
